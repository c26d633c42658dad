/**
 * The plan of a PostHog model's object (./model.ts): a tombstone is a soft delete; references are
 * resolved per project first (each action `requires` what its body names: an id, or created in this
 * apply; what cannot be resolved is an error at its place); a live object is an update of the
 * declared fields that differ (nested values through their codec, compared by name) and its switches
 * (`toggles`); a pinned object missing from the list is a restore (read back by id, soft-deleted,
 * where the service answers that: `readsDeleted`, and then an update compared as usual; else
 * restored blindly, every declared field sent); else a create. Tags the organization's plan would
 * drop are a note, never a perpetual change. Each action goes through the kind's `action` hook, and
 * its `extras` follow the object's own actions.
 */

import type { KindWords } from "../../config/kinds.js";
import type { Declared } from "../../config/types.js";
import { makeAction } from "../../plan/context.js";
import type { KindPlanContext } from "../../plan/kinds.js";
import type { Action, FieldChange, LiveKind, LiveObject, ObjectLink, ObjectRef } from "../../plan/types.js";
import { isPlainObject } from "../../plan/values.js";
import { blindUpdate, restoreAction } from "../shared/restore.js";
import { warnIgnoredTags, withoutIgnoredTags } from "../shared/tags.js";
import { deepMerge } from "../shared/verbs.js";
import type { FieldTable } from "./fields.js";
import { updateSides } from "./index.js";
import type { ModelActionContext, ModelHooks, ModelVerbs } from "./model-types.js";
import { findReferences } from "./references.js";
import { nameOf, resolveReferences } from "./resolve.js";
import type { Table } from "./table.js";

export interface ModelPlanParts<
  T extends FieldTable,
  L extends LiveObject,
  D extends Declared,
  K extends LiveKind,
> {
  table: Table<T>;
  words: KindWords;
  readsDeleted: boolean;
  readBack: boolean;
  verbs: ModelVerbs;
  hooks: ModelHooks<T, L, D, K>;
}

export function modelPlanner<
  T extends FieldTable,
  L extends LiveObject,
  D extends Declared,
  K extends LiveKind,
>(parts: ModelPlanParts<T, L, D, K>) {
  const { table, words, verbs, hooks } = parts;
  const hasTags = Object.hasOwn(table.fields, "tags");
  type Ctx = KindPlanContext<K>;
  const decorate = (action: Action, about: ModelActionContext<D, L, K>): Action | undefined =>
    hooks.action ? hooks.action(action, about) : action;
  const softDelete = (live: L, ref: ObjectRef, about: ModelActionContext<D, L, K>) =>
    decorate(makeAction(verbs.softDelete, ref, { before: table.state(live) }), about);
  const isGone = (live: L | undefined) => (live as { deleted?: unknown } | undefined)?.deleted === true;

  function plan(desired: D, live: L | undefined, ref: ObjectRef, ctx: Ctx): void {
    const owner = `${words.one} "${desired.name}"`;
    const push = (action: Action | undefined) => {
      if (action) ctx.sink.actions.push(action);
      return action !== undefined;
    };
    if (desired.deleted) {
      if (live && !isGone(live)) push(softDelete(live, ref, { desired, live, ctx, links: [] }));
      return;
    }
    const links = resolveReferences(desired, table.references, ctx, owner);
    if (links === undefined) return;
    const about: ModelActionContext<D, L, K> = { desired, live, ctx, links };
    if (live === undefined) {
      if (desired.id !== undefined && parts.readsDeleted) {
        ctx.sink.errors.push({
          message: `${owner} pins id ${desired.id}, which project ${ctx.project} does not have (live or soft-deleted): remove the \`id:\` pin to create it`,
          source: desired.source,
        });
        return;
      }
      if (desired.id !== undefined) {
        push(decorate(restoreAction(ref, desired.id), about));
        const warning = `the live values are unknown while the ${words.one} is deleted: apply ${parts.readBack ? "reads it back after the restore and sends the declared fields that differ" : "sends every declared field"}`;
        push(decorate(blindUpdate(verbs.update, ref, table.sent(desired), warning), about));
        hooks.extras?.(desired, undefined, ref, ctx, "restore", links);
        return;
      }
      const after = table.sent(desired);
      const created = push(
        decorate(
          makeAction(verbs.create, ref, {
            after,
            changes: createChanges(table, after),
            requires: linksIn(table, after, links),
          }),
          about,
        ),
      );
      if (!created) return;
      if (hasTags) warnIgnoredTags(table.valueOf(desired, "tags") as string[] | undefined, ref, ctx);
      toggles(undefined);
      hooks.extras?.(desired, undefined, ref, ctx, "create", links);
      return;
    }
    if (isGone(live)) {
      push(decorate(restoreAction(ref, undefined), about));
    }
    const state = table.state(live);
    const names = nameOf(ctx);
    const compared = table.compare(desired, state, {
      live,
      nameOf: names,
      rotateSecrets: ctx.options.rotateSecrets,
    });
    const changes = hasTags ? withoutIgnoredTags(compared.changes, ref, ctx) : compared.changes;
    if (changes.length > 0) {
      const sides = updateSides(table, desired, changes);
      const requires = linksIn(table, deepMerge(sides.after, sides.sends), links);
      push(decorate(makeAction(verbs.update, ref, { ...sides, changes, requires }), about));
    }
    toggles(state);
    hooks.extras?.(desired, live, ref, ctx, "update", links);

    /** The switches (`toggles`) whose declared value differs from the live one (absent live: off). */
    function toggles(current: Readonly<Record<string, unknown>> | undefined) {
      for (const [key, f] of Object.entries(table.fields)) {
        const wanted = table.valueOf(desired, key);
        if (f.toggles === undefined || typeof wanted !== "boolean") continue;
        const now = current?.[key] === true;
        if (now === wanted) continue;
        const verb = wanted ? f.toggles.on : f.toggles.off;
        push(decorate(makeAction(verb, ref, { before: { [key]: now }, after: { [key]: wanted } }), about));
      }
    }
  }

  function prune(live: L, ref: ObjectRef, ctx: Ctx): Action {
    const about = { desired: undefined, live, ctx, links: [] };
    return softDelete(live, ref, about) ?? makeAction(verbs.softDelete, ref, { before: table.state(live) });
  }

  return { plan, prune };
}

/** The changes a create lists: each declared field, a nested value key by key with its words. */
function createChanges<T extends FieldTable>(table: Table<T>, after: Record<string, unknown>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [path, value] of Object.entries(after)) {
    const codec = (table.fields as FieldTable)[path]?.codec;
    if (codec === undefined || codec.whole === true || !isPlainObject(value)) {
      changes.push({ path, after: value });
      continue;
    }
    for (const [key, part] of Object.entries(value)) {
      const says = codec.says?.(`${path}.${key}`, undefined, part) ?? [];
      changes.push({ path: `${path}.${key}`, after: part, ...(says.length > 0 ? { says } : {}) });
    }
  }
  return changes;
}

/** The links whose objects the sides' nested values name: what the update's body needs ids for. */
function linksIn<T extends FieldTable>(
  table: Table<T>,
  after: Record<string, unknown>,
  links: readonly ObjectLink[],
): ObjectLink[] {
  const named = new Set<string>();
  for (const [key, f] of Object.entries(table.fields)) {
    const value = after[key];
    if (value === undefined || f.references === undefined) continue;
    for (const { spec, node } of findReferences(value, f.references)) {
      const name = node[spec.name];
      const id = node[spec.id];
      const names = spec.list && Array.isArray(name) ? name : [name];
      const ids = spec.list && Array.isArray(id) ? id : [id];
      if (names.some((n) => typeof n === "string")) {
        for (const n of names) named.add(`${spec.kind}\u0000${String(n)}`);
      } else for (const i of ids) if (i !== undefined) named.add(`${spec.kind}\u0000#${String(i)}`);
    }
  }
  return links.filter((l) => named.has(`${l.kind}\u0000${l.name}`) || named.has(`${l.kind}\u0000#${l.id}`));
}
