/**
 * Lists that PostHog itself defines and that both sides of this project read: the property operators
 * and types of a flag's release conditions and the statuses of a batch export run. A ground-floor module
 * like src/queries/: the emulator (which accepts, stores and evaluates them) and the tool's kinds
 * (which declare, compare and filter by them) both import it, and it imports nothing, so the emulator
 * still depends on nothing of the tool.
 */

/**
 * The property operators a flag's condition may use, as the service accepts them on write, in the
 * order the tool's JSON Schema lists them: `min` / `max` are aliases the service stores as `gte` /
 * `lte` (`OPERATOR_ALIASES`).
 */
export const PROPERTY_OPERATORS = [
  "exact",
  "is_not",
  "icontains",
  "not_icontains",
  "icontains_multi",
  "not_icontains_multi",
  "regex",
  "not_regex",
  "gt",
  "gte",
  "lt",
  "lte",
  "min",
  "max",
  "semver_gt",
  "semver_gte",
  "semver_lt",
  "semver_lte",
  "semver_eq",
  "semver_neq",
  "semver_tilde",
  "semver_caret",
  "semver_wildcard",
  "is_set",
  "is_not_set",
  "is_date_exact",
  "is_date_after",
  "is_date_before",
  "in",
  "not_in",
  "flag_evaluates_to",
] as const;

export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

/** The operators the service rewrites on write, to the one it stores. */
export const OPERATOR_ALIASES: Readonly<Record<string, string>> = { min: "gte", max: "lte" };

/** The property types a flag's condition may have (the service's serde guard). */
export const FLAG_PROPERTY_TYPES = ["person", "cohort", "group", "flag", "person_metadata"] as const;

export type FlagPropertyType = (typeof FLAG_PROPERTY_TYPES)[number];

/** Every status a batch export run can have (the service's `BatchExportRun.Status`). */
export const RUN_STATUSES = [
  "Cancelled",
  "Completed",
  "ContinuedAsNew",
  "Failed",
  "FailedRetryable",
  "FailedBilling",
  "Terminated",
  "TimedOut",
  "Running",
  "Starting",
] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];
