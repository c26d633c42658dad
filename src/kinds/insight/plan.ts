/**
 * Plans one declared insight against its live match: create, update (name through a pin, description,
 * tags, query), soft delete of tombstones, and restore of a pinned insight missing from the live list.
 * The query is compared on the keys the file declares after both sides went through the service's
 * schema upgrades (the shared package's queries/), so what the service adds (`version`, defaults) or rewrites (an older
 * form it upgrades on read or in its periodic job) is never a change; a change shows a unified diff of
 * the declared keys. Tags the service would silently drop become a note.
 */

import { compareQuery } from "posthog-gitops-shared/queries/normalise";
import { stringify } from "yaml";
import { type KindPlanContext, makeAction } from "../../plan/index.js";
import type { Action, FieldChange, ObjectRef } from "../../plan/types.js";
import { updateAction } from "../define/index.js";
import { restoreAction } from "../shared/restore.js";
import { warnIgnoredTags, withoutIgnoredTags } from "../shared/tags.js";
import { textChange } from "../shared/text-diff.js";
import { CREATE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { InsightBasic } from "./answers.js";
import { type DesiredInsight, insightFields } from "./fields.js";
import { queryToSend } from "./query.js";

export function planInsight(
  desired: DesiredInsight,
  current: InsightBasic | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
): void {
  if (desired.deleted) {
    if (current)
      ctx.sink.actions.push(makeAction(SOFT_DELETE, ref, { before: insightFields.state(current) }));
  } else if (current) planExisting(desired, current, ref, ctx);
  else if (desired.id !== undefined) planRestore(desired, ref, ctx);
  else planCreate(desired, ref, ctx);
}

/** Tags are written: an update changing them, or a create declaring some. */
export function insightsNeedFeatures(actions: readonly Action[]): boolean {
  return actions.some(
    (a) =>
      a.object.kind === "insight" &&
      ((a.action === UPDATE.name && a.changes.some((c) => c.path === "tags")) ||
        (a.action === CREATE.name && Array.isArray(a.after?.tags) && a.after.tags.length > 0)),
  );
}

/** The fields a create or a blind update sends: the table's, and the query in its upgraded form. */
function sentFields(desired: DesiredInsight): Record<string, unknown> {
  const after = insightFields.sent(desired);
  if (desired.query !== undefined) after.query = queryToSend(desired.query);
  return after;
}

const asChanges = (fields: Record<string, unknown>): FieldChange[] =>
  Object.entries(fields).map(([path, after]) => ({ path, after }));

function planCreate(desired: DesiredInsight, ref: ObjectRef, ctx: KindPlanContext): void {
  const after = sentFields(desired);
  ctx.sink.actions.push(makeAction(CREATE, ref, { after, changes: asChanges(after) }));
  warnIgnoredTags(desired.tags, ref, ctx);
}

function planRestore(desired: DesiredInsight, ref: ObjectRef, ctx: KindPlanContext): void {
  ctx.sink.actions.push(restoreAction(ref, desired.id));
  const after = sentFields(desired);
  ctx.sink.actions.push(
    makeAction(UPDATE, ref, {
      before: {},
      after,
      changes: asChanges(after),
      warnings: [
        "the live values are unknown while the insight is deleted: apply sends every declared field",
      ],
    }),
  );
}

/** The query's change, when a declared key differs after the upgrades: a diff of the declared keys. */
export function queryChange(declared: Record<string, unknown>, live: unknown): FieldChange | undefined {
  const compared = compareQuery(declared, live);
  if (compared.equal) return undefined;
  return {
    path: "query",
    before: compared.live,
    after: queryToSend(declared),
    ...textChange(asYaml(compared.live), asYaml(compared.declared)),
  };
}

function asYaml(value: unknown): string {
  return value === null || value === undefined ? "" : stringify(value, { lineWidth: 0 });
}

function planExisting(
  desired: DesiredInsight,
  current: InsightBasic,
  ref: ObjectRef,
  ctx: KindPlanContext,
): void {
  const compared = insightFields.compare(desired, insightFields.state(current));
  let changes = withoutIgnoredTags(compared.changes, ref, ctx);
  const query = desired.query === undefined ? undefined : queryChange(desired.query, current.query);
  if (query) changes = [...changes, query];
  const update = updateAction(UPDATE, ref, changes);
  if (update) ctx.sink.actions.push(update);
}
