/**
 * Insights (SPEC §2 "Insights"): the field table (fields.ts), the verbs (verbs.ts), and hooks for what
 * a table cannot say: a name may be empty only with an `id` pin (an insight pull found without one),
 * the query's comparison after the service's upgrades (plan.ts), and pull in id order. Their list is
 * read with `?basic=true` (never computing results) on the insight endpoints' own rate budget.
 */
import { defineKind } from "../define/index.js";
import type { Kind } from "../kind.js";
import { INSIGHT_ANSWERS, type InsightBasic } from "./answers.js";
import { type DesiredInsight, insightFields } from "./fields.js";
import { countInsights, getInsight, searchInsights } from "./find.js";
import { insightsNeedFeatures, planInsight } from "./plan.js";
import { INSIGHT_SCOPES } from "./scopes.js";
import { insightsApi } from "./service.js";
import { createInsight, findInsights, insightVerbs } from "./verbs.js";

export const insightKind: Kind = defineKind<typeof insightFields.fields, InsightBasic, DesiredInsight>({
  name: "insight",
  key: "insights",
  words: { one: "insight", many: "insights" },
  schema: {
    list: "Saved insights of the project. Listing the key (even empty) lets --prune remove undeclared ones.",
    item: "A saved insight. Only the keys written here are managed; the dashboards showing it are set by their `tiles:`.",
    def: "insight",
  },
  fields: insightFields,
  verbs: insightVerbs,
  service: {
    list: (client, project) => insightsApi(client).listAll(project),
    search: searchInsights,
    get: getInsight,
    count: countInsights,
    findByName: findInsights,
    create: createInsight,
  },
  // SPEC §9's warnings: a query aggregates, breaks down and filters by group type indexes, anywhere in it.
  environments: {
    needs: [
      { what: "group_type", path: "/query/**/aggregation_group_type_index" },
      { what: "group_type", path: "/query/**/math_group_type_index" },
      { what: "group_type", path: "/query/**/breakdown_group_type_index" },
      { what: "group_type", path: "/query/**/group_type_index" },
    ],
  },
  answers: INSIGHT_ANSWERS,
  scopes: INSIGHT_SCOPES,
  hooks: {
    declare(input, desired, ctx) {
      if (desired.name.trim() === "" && input.id === undefined) {
        ctx.error(
          "/name",
          `an insight without a name needs an \`id\` pin: give it a name, or pin the live insight it is with id:`,
        );
      }
    },
    plan: planInsight,
    needsFeatures: insightsNeedFeatures,
    async pull(client, project) {
      const live = await insightsApi(client).listAll(project);
      const items = [...live].sort((a, b) => a.id - b.id).map((i) => insightFields.item(i));
      return { items, variables: [] };
    },
  },
});

export type { Insight, InsightBasic, InsightWrite } from "./answers.js";
export type { DesiredInsight } from "./fields.js";
