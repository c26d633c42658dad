/**
 * A cohort as the API shows it (service-api.md §12.2, the newest `CohortSerializer`): `filters` as
 * stored, or for a legacy cohort its groups' criteria as a property tree; the recalculation fields;
 * `last_error_message` from its newest failed calculation; `?basic=true` on the list drops `filters`,
 * `query` and `groups`.
 */
import { notFound } from "../errors.js";
import type { Ctx } from "../router.js";
import type { CohortRecord } from "../types.js";
import { cohortProperties, propertiesDict } from "./cohort-graph.js";
import { userBasic } from "./dashboard-access.js";

/** products/cohorts/backend/models/util.py ERROR_CODE_MESSAGES. */
const UNEXPECTED =
  "An error occurred while calculating this cohort. Please review your matching criteria or contact support.";
const ERROR_MESSAGES: Record<string, string> = {
  capacity: "The system was busy when this cohort was scheduled to calculate. It will automatically retry.",
  interrupted: "Calculation was interrupted. It will automatically retry.",
  timeout: "Cohort calculation was terminated for taking too long.",
  memory_limit: "Cohort calculation was terminated for using too much memory.",
  query_size: "The matching criteria produced a query that was too large.",
  invalid_regex:
    "This cohort contains an invalid regular expression. Please check your regex syntax in the matching criteria.",
  no_properties: "This cohort has no matching criteria defined. Please add at least one.",
  validation_error: UNEXPECTED,
  incompatible_types: UNEXPECTED,
  flag_changed:
    "The feature flag changed while this cohort was being calculated. Please run the calculation again.",
  unknown: UNEXPECTED,
};

/** The friendly message of the cohort's newest failed calculation (null: none, or no error code). */
export function lastErrorMessage(c: CohortRecord): string | null {
  const failed = c.calculations
    .filter((h) => h.error !== null && h.error !== "")
    .sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0))[0];
  if (!failed || failed.error_code === null) return null;
  return ERROR_MESSAGES[failed.error_code] ?? UNEXPECTED;
}

/** `filters` as the API returns them: the stored ones, else the legacy groups as a property tree. */
export function representedFilters(c: CohortRecord): Record<string, unknown> {
  if (c.filters && Object.keys(c.filters).length > 0) return structuredClone(c.filters);
  return { properties: propertiesDict(cohortProperties(c)) };
}

export function renderCohort(ctx: Ctx, c: CohortRecord, opts: { basic?: boolean } = {}) {
  const creator = ctx.store.user(c.created_by);
  const heavy = opts.basic
    ? {}
    : { groups: structuredClone(c.groups), filters: representedFilters(c), query: structuredClone(c.query) };
  const { groups, filters, query } = heavy as Record<string, unknown>;
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    ...(opts.basic ? {} : { groups }),
    deleted: c.deleted,
    ...(opts.basic ? {} : { filters, query }),
    version: c.version,
    pending_version: c.pending_version,
    is_calculating: c.is_calculating,
    created_by: creator ? userBasic(creator) : null,
    created_at: c.created_at,
    last_calculation: c.last_calculation,
    last_backfill_person_properties_at: c.last_backfill_person_properties_at,
    errors_calculating: c.errors_calculating,
    last_error_message: lastErrorMessage(c),
    count: c.count,
    is_static: c.is_static,
    cohort_type: c.cohort_type,
    experiment_set: [...c.experiment_set],
  } as Record<string, unknown>;
}

/** The `:id` cohort of the project, soft-deleted ones included (retrieve and writes reach them). */
export function findCohort(ctx: Ctx): CohortRecord {
  const raw = ctx.params.id ?? "";
  const cohort = /^\d+$/.test(raw)
    ? ctx.store.data.cohorts.find((c) => c.id === Number(raw) && c.team_id === ctx.project.id)
    : undefined;
  if (!cohort) throw notFound();
  return cohort;
}
