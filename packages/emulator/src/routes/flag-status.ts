/**
 * A flag's status as the service's status checker gives it (`FeatureFlagStatusChecker`): deleted,
 * archived, and for an enabled flag stale or active by the best signal there is — when an SDK last
 * evaluated it (`last_called_at` older than 30 days: stale), or for a flag never evaluated and older
 * than 30 days, whether its configuration can only ever serve one value (fully rolled out). Also the
 * rollout summary `GET …/:id/status` answers with, the rollout state bulk deletion reports, and the
 * list's `active=STALE` filter (the service's set-based `filter_stale_flags`, which differs from the
 * checker on one shape: filters `{"groups": []}` are not stale there).
 */
import { isDict } from "../fields.js";
import type { FeatureFlagRecord } from "../types.js";

type Json = Record<string, unknown>;

const DAY = 86_400_000;
export const STALE_DAYS = 30;

export type FlagStatus = "active" | "stale" | "archived" | "deleted";

export interface RolloutSummary {
  effectively_full_rollout: boolean;
  has_targeting_conditions: boolean;
  max_rollout_percentage: number | null;
  is_multivariate: boolean;
}

const filtersOf = (flag: FeatureFlagRecord): Json => (isDict(flag.filters) ? flag.filters : {});
const groupsOf = (filters: Json): Json[] =>
  Array.isArray(filters.groups) ? filters.groups.filter(isDict) : [];
const variantsOf = (filters: Json): Json[] => {
  const multivariate = isDict(filters.multivariate) ? filters.multivariate : {};
  return Array.isArray(multivariate.variants) ? multivariate.variants.filter(isDict) : [];
};
const untargeted = (group: Json) => !Array.isArray(group.properties) || group.properties.length === 0;
const fullGroup = (group: Json) => group.rollout_percentage === 100 && untargeted(group);

function multivariateFullRollout(filters: Json): { full: boolean; variant: string } {
  const winner = variantsOf(filters).find((v) => v.rollout_percentage === 100)?.key;
  let someGroup = false;
  let override: string | null = null;
  for (const group of groupsOf(filters)) {
    if (!fullGroup(group)) continue;
    someGroup = true;
    override ||= typeof group.variant === "string" ? group.variant : null;
  }
  const variant = override || (typeof winner === "string" ? winner : "") || "";
  return { full: someGroup && (override !== null || winner !== undefined), variant };
}

/** `is_flag_fully_rolled_out`: whether the flag can only serve one value, and the reason saying so. */
export function fullyRolledOut(flag: FeatureFlagRecord): { full: boolean; reason: string } {
  const filters = filtersOf(flag);
  if (variantsOf(filters).length > 0) {
    const { full, variant } = multivariateFullRollout(filters);
    return full
      ? { full, reason: `This flag will always use the variant "${variant}"` }
      : { full: false, reason: "" };
  }
  const groups = groupsOf(filters);
  if (groups.length === 0 || groups.some(fullGroup)) {
    return { full: true, reason: 'This boolean flag will always evaluate to "true"' };
  }
  return { full: false, reason: "" };
}

/** `get_status`: the status, its reason, and whether the reason already states the rollout. */
export function flagStatus(
  flag: FeatureFlagRecord,
  now: Date,
): { status: FlagStatus; reason: string; reasonStatesRollout: boolean } {
  const at = now.getTime();
  const done = (status: FlagStatus, reason: string, reasonStatesRollout = false) => ({
    status,
    reason,
    reasonStatesRollout,
  });
  if (flag.deleted) return done("deleted", "Flag has been deleted");
  if (flag.archived) return done("archived", "Flag has been archived");
  if (!flag.active) return done("active", "Flag is disabled (not evaluated for staleness)");
  if (flag.last_called_at !== null) {
    const days = Math.floor((at - Date.parse(flag.last_called_at)) / DAY);
    if (at - Date.parse(flag.last_called_at) > STALE_DAYS * DAY) {
      return done("stale", `Flag has not been called in ${days} days`);
    }
    if (days === 0) return done("active", "Flag was called today");
    return done("active", `Flag was last called ${days} day${days !== 1 ? "s" : ""} ago`);
  }
  if (at - Date.parse(flag.created_at) > STALE_DAYS * DAY) {
    const { full, reason } = fullyRolledOut(flag);
    if (full) return done("stale", reason, true);
  }
  return done("active", "Flag has no usage data yet");
}

/** `get_rollout_summary`: the configuration's rollout, independent of evaluation. */
export function rolloutSummary(flag: FeatureFlagRecord): RolloutSummary {
  const filters = filtersOf(flag);
  let targeted = false;
  let max: number | null = null;
  for (const group of groupsOf(filters)) {
    if (Array.isArray(group.properties) && group.properties.length > 0) targeted = true;
    // A missing rollout evaluates to 100% at runtime.
    const percentage = typeof group.rollout_percentage === "number" ? group.rollout_percentage : 100;
    max = max === null ? percentage : Math.max(max, percentage);
  }
  return {
    effectively_full_rollout: fullyRolledOut(flag).full,
    has_targeting_conditions: targeted,
    max_rollout_percentage: max,
    is_multivariate: variantsOf(filters).length > 0,
  };
}

/** `rollout_state_and_variant`: the rollout state bulk deletion reports, and the winning variant. */
export function rolloutState(flag: FeatureFlagRecord): {
  rollout_state: "fully_rolled_out" | "not_rolled_out" | "partial";
  active_variant: string | null;
} {
  const summary = rolloutSummary(flag);
  if (summary.effectively_full_rollout) {
    const variant = summary.is_multivariate ? multivariateFullRollout(filtersOf(flag)).variant : null;
    return { rollout_state: "fully_rolled_out", active_variant: variant };
  }
  if (summary.max_rollout_percentage === 0) return { rollout_state: "not_rolled_out", active_variant: null };
  return { rollout_state: "partial", active_variant: null };
}

/**
 * `filter_stale_flags`: enabled flags not evaluated for 30 days, or never evaluated, older than 30
 * days and configured to serve one value (a 100% condition without properties and no variants, a
 * 100% variant, or a 100% condition overriding the variant), or with empty filters.
 */
export function isStaleForList(flag: FeatureFlagRecord, now: Date): boolean {
  if (!flag.active) return false;
  const threshold = now.getTime() - STALE_DAYS * DAY;
  if (flag.last_called_at !== null) return Date.parse(flag.last_called_at) < threshold;
  if (Date.parse(flag.created_at) >= threshold) return false;
  const filters = filtersOf(flag);
  if (Object.keys(filters).length === 0) return true;
  const groups = groupsOf(filters);
  // A JSON 100 (not 100.0 or "100"), as the SQL compares `->>'rollout_percentage' = '100'`.
  const anyFull = groups.some(fullGroup);
  const multivariate = filters.multivariate;
  const variants = variantsOf(filters);
  const noVariants =
    multivariate === undefined ||
    multivariate === null ||
    (isDict(multivariate) && Object.keys(multivariate).length === 0) ||
    variants.length === 0;
  if (anyFull && noVariants) return true;
  if (anyFull && variants.some((v) => v.rollout_percentage === 100)) return true;
  if (
    groups.some((g) => fullGroup(g) && g.variant !== undefined && g.variant !== null) &&
    multivariate !== undefined &&
    multivariate !== null &&
    variants.length > 0
  ) {
    return true;
  }
  return false;
}
