/**
 * What PostHog itself defines and both sides of this project read: the property operators and types
 * of a flag's release conditions, the statuses of a batch export run and the time zones its schedules
 * take. A ground-floor module like queries/: the emulator (which accepts, stores and evaluates
 * them) and the tool's kinds (which declare, check, compare and filter by them) both import it, and it
 * imports nothing, so the emulator still depends on nothing of the tool.
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

const zones = new Map<string, boolean>();

/**
 * Whether `name` is a time zone the service's choices (pytz.all_timezones) would hold: a name the
 * platform's zone database knows, spelt with its capitalisation (every segment starts with a capital
 * or a digit, so `europe/berlin` is refused like pytz refuses it).
 */
export function isTimeZone(name: string): boolean {
  const cached = zones.get(name);
  if (cached !== undefined) return cached;
  let ok = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z0-9][A-Za-z0-9_+-]*)*$/.test(name);
  if (ok) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
    } catch {
      ok = false;
    }
  }
  if (zones.size < 1000) zones.set(name, ok);
  return ok;
}
