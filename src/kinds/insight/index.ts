/**
 * Insights (SPEC §2 "Insights"): a PostHog model (../define/model.ts) with its field table
 * (fields.ts: the query a nested value compared after the service's upgrades) and one rule a table
 * cannot say: a name may be empty only with an `id` pin (an insight pull found without one). Creates
 * are marked `saved` (an insight the UI lists among the saved ones) and never name dashboards: the
 * dashboards' tiles do. Its list is read with `?basic=true` on the insight endpoints' own rate
 * budget (service.ts); `pull` writes insights in id order.
 */
import { defineModel } from "../define/model.js";
import { INSIGHT_ANSWERS, type Insight } from "./answers.js";
import { type DesiredInsight, insightFields } from "./fields.js";
import { INSIGHT_SCOPES } from "./scopes.js";
import { INSIGHT_ENDPOINTS } from "./service.js";

export const insightModel = defineModel<typeof insightFields.fields, Insight, Insight, DesiredInsight>({
  name: "insight",
  key: "insights",
  words: { one: "insight", many: "insights" },
  schema: {
    list: "Saved insights of the project. Listing the key (even empty) lets --prune remove undeclared ones.",
    item: "A saved insight. Only the keys written here are managed; the dashboards showing it are set by their `tiles:`.",
    def: "insight",
  },
  fields: insightFields,
  ...INSIGHT_ENDPOINTS,
  // SPEC §9's warnings: a query aggregates, breaks down and filters by group type indexes, anywhere in it.
  environments: {
    needs: [
      { what: "group_type", path: "/query/**/aggregation_group_type_index" },
      { what: "group_type", path: "/query/**/math_group_type_index" },
      { what: "group_type", path: "/query/**/breakdown_group_type_index" },
      { what: "group_type", path: "/query/**/group_type_index" },
    ],
  },
  scopes: INSIGHT_SCOPES,
  answers: INSIGHT_ANSWERS,
  // The list's search: name, derived name and description, at most 200 characters.
  search: { param: "search", max: 200 },
  createExtra: { saved: true },
  pullOrder: (a, b) => a.id - b.id,
  hooks: {
    declare(input, desired, ctx) {
      if (desired.name.trim() === "" && input.id === undefined) {
        ctx.error(
          "/name",
          `an insight without a name needs an \`id\` pin: give it a name, or pin the live insight it is with id:`,
        );
      }
    },
  },
});

export const insightKind = insightModel.kind;

export type { Insight, InsightBasic, InsightWrite } from "./answers.js";
export type { DesiredInsight } from "./fields.js";
