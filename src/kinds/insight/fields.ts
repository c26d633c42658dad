/**
 * An insight's fields: the one place each is named (SPEC §2 "Insights"). name (through an id pin),
 * description and tags are compared and sent by the table; the query is compared by the kind's plan
 * (./plan.ts) on the declared keys after the service's schema upgrades, which a field's `compare`
 * cannot say. Which dashboards show the insight is not a field: the dashboards' `tiles:` decide it.
 */
import { upgradedForComparison, withoutOwnedKeys } from "posthog-gitops-shared/queries/normalise";
import type { Json } from "posthog-gitops-shared/queries/python";
import { type DesiredOf, field, fieldTable, flag, integer, tags, text } from "../define/index.js";
import { normaliseText } from "../shared/normalise.js";
import { declareQuery } from "./query.js";
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
  /** Compared by the plan hook (declared keys, after the upgrades); sent in its upgraded form. */
  query: field<QueryValue>(querySchema, {
    declare: (value, at) => declareQuery(value, at.ctx, at.pointer),
    normalise: (value) => (value === null || value === undefined ? null : upgradedForComparison(value)),
    compare: "none",
    pull: "present",
    toYaml: (value) => withoutOwnedKeys(value as Json),
  }),
  deleted: flag("Tombstone: soft-delete the insight (idempotent); the dashboards stop showing it."),
});

/** A declared insight: tags lowercased, sorted and unique; the query interpolated and checked. */
export type DesiredInsight = DesiredOf<typeof insightFields.fields, "insight"> & { id?: number };
