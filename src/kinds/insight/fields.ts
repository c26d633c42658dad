/**
 * An insight's fields: the one place each is named (SPEC §2 "Insights"). name (through an id pin),
 * description and tags are compared and sent by the table; the query is a nested value compared on
 * the declared keys after both sides went through the service's schema upgrades (its codec, so what
 * the service adds or rewrites is never a change; a change shows a diff), and sent in its upgraded
 * form; the actions and cohorts it names go by name (references.ts). Which dashboards show the insight is not a field: the dashboards' `tiles:` decide it.
 */
import {
  compareQuery,
  upgradedForComparison,
  withoutOwnedKeys,
} from "posthog-gitops-shared/queries/normalise";
import type { Json } from "posthog-gitops-shared/queries/python";
import { stringify } from "yaml";
import type { FieldChange } from "../../plan/types.js";
import { type DesiredOf, field, fieldTable, flag, integer, json, tags, text } from "../define/index.js";
import { normaliseText } from "../shared/normalise.js";
import { textChange } from "../shared/text-diff.js";
import { declareQuery, queryToSend } from "./query.js";
import { INSIGHT_REFERENCES } from "./references.js";
import { querySchema } from "./schema.js";

export type QueryValue = Record<string, unknown>;

export const insightFields = fieldTable({
  name: text(
    "Insight name: its identity within the project unless `id` is given. May be empty only with an `id` pin (an insight without a name, as pull writes it).",
    { maxLength: 400 },
    { required: true, live: (answer) => answer.name ?? "" },
  ),
  id: integer("The service's insight id: pins identity across renames (pull writes it).", { minimum: 1 }),
  description: field<string>(
    { type: "string", description: "Insight description (at most 400 characters).", maxLength: 400 },
    {
      declare: (value, at) => at.ctx.text(at.pointer, value),
      normalise: (value) => normaliseText(value as string | null | undefined),
      compare: "text",
      // The service may hold null: written as the empty text it compares equal to.
      toYaml: (value) => value ?? "",
    },
  ),
  tags: tags("Tags, a case-insensitive set (needs the tagging feature)."),
  /** Compared on the declared keys after the upgrades, one change with a diff; sent upgraded. */
  query: json<QueryValue>(querySchema, {
    declare: (value, at) => declareQuery(value, at.ctx, at.pointer),
    references: INSIGHT_REFERENCES,
    normalise: (value) => (value === null || value === undefined ? null : upgradedForComparison(value)),
    send: (value) => queryToSend(value as QueryValue),
    codec: { whole: true, compare: (declared, live) => queryChanges(declared, live) },
    toYaml: (value) => withoutOwnedKeys(value as Json),
  }),
  deleted: flag("Tombstone: soft-delete the insight (idempotent); the dashboards stop showing it."),
});

/** A declared insight: tags lowercased, sorted and unique; the query interpolated and checked. */
export type DesiredInsight = DesiredOf<typeof insightFields.fields, "insight"> & { id?: number };

/** The query's change, when a declared key differs after the upgrades: a diff of the declared keys. */
function queryChanges(declared: Record<string, unknown>, live: unknown): FieldChange[] {
  const compared = compareQuery(declared, live);
  if (compared.equal) return [];
  const asYaml = (value: unknown) =>
    value === null || value === undefined ? "" : stringify(value, { lineWidth: 0 });
  return [
    {
      path: "query",
      before: compared.live,
      after: queryToSend(declared),
      ...textChange(asYaml(compared.live), asYaml(compared.declared)),
    },
  ];
}
