/**
 * Where an insight's query names actions and cohorts (SPEC §2 "Cohorts and actions"; service-api.md
 * §12.6, §13.4), at any depth: a series' `{kind: ActionsNode, action: NAME}` (the service's `id`), a
 * retention entity's `{type: actions, action: NAME}` (`id`), a cohort property `{type: cohort, cohort:
 * NAME}` (`{key: "id", value: ID}`), and a cohort breakdown's `cohort: [NAME, …]` (`breakdown: [ID, …]`).
 */
import { COHORT_BREAKDOWN } from "../cohort/filters.js";
import type { ReferenceSpec } from "../define/index.js";

export const INSIGHT_REFERENCES: readonly ReferenceSpec[] = [
  { kind: "action", at: "**", where: { kind: "ActionsNode" }, name: "action", id: "id" },
  { kind: "action", at: "**", where: { type: "actions" }, name: "action", id: "id" },
  { kind: "cohort", at: "**", where: { type: "cohort" }, name: "cohort", id: "value", fixed: { key: "id" } },
  COHORT_BREAKDOWN,
];
