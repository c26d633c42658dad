/**
 * A cohort's fields (SPEC §2 "Cohorts and actions", service-api.md §12.2): the one place each is
 * named. `filters` is a nested value naming cohorts and actions by name (filters.ts), compared after
 * the service's rewrites; a static cohort has none (its members are uploads, never managed): its live
 * filters are not compared nor pulled. `cohort_type`, which the service recomputes, is no field.
 */
import { type DesiredOf, fieldTable, flag, integer, json, longText, text } from "../define/index.js";
import { normaliseText } from "../shared/normalise.js";
import { COHORT_FILTER_REFERENCES, comparableFilters, type Json, pulledFilters } from "./filters.js";

export const cohortFields = fieldTable({
  name: text(
    "The cohort's name: its identity within the project unless `id` is given (the service lets names repeat: a name several live cohorts hold needs a pin).",
    { minLength: 1, maxLength: 400 },
    { required: true, live: (answer) => answer.name ?? "" },
  ),
  id: integer("The service's cohort id: pins identity across renames (pull writes it).", { minimum: 1 }),
  description: longText("What the cohort is (at most 1000 characters).", {
    normalise: (value) => normaliseText(value as string | null | undefined),
    toYaml: (value) => value ?? "",
  }),
  is_static: flag(
    "A static cohort: a container of the members uploaded to it (CSV), which the tool never manages; it takes no `filters`. Cannot change once created.",
    { normalise: (value) => value === true, toYaml: (value) => value === true },
  ),
  filters: json<Json>(
    { $ref: "#/$defs/cohort_filters" },
    {
      // A static cohort's criteria are its upload's, never the file's.
      live: (answer) => (answer.is_static === true ? undefined : answer.filters),
      references: COHORT_FILTER_REFERENCES,
      codec: { normalise: (value) => comparableFilters(value) },
      toYaml: pulledFilters,
    },
  ),
  deleted: flag(
    "Tombstone: soft-delete the cohort (the service refuses while a flag, cohort or insight uses it).",
  ),
});

export type DesiredCohort = DesiredOf<typeof cohortFields.fields, "cohort"> & { id?: number };
