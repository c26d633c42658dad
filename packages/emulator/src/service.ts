/**
 * Which service the emulator behaves like: the seed's top-level `service` key (also the `service` option
 * of `startEmulator`). By default the newest service (PostHog Cloud today, service-api.md §0); `rules:
 * "2025"` keeps the older rules for tests of exports that predate them, and a flag PATCH's `filters`
 * replacing rather than merged (`flag_filters_patch`, also settable on its own). The organization-scope batch
 * export routes and the deprecated `POST .../backfill/` alias stay on in both modes (SPEC §5) until
 * `legacy_routes: false` removes them as the newest service has. Feature flags gate what the service
 * gates per team; all are off unless a seed turns them on.
 */
/** `newest`: the service as of 2026 (service-api.md §0). `2025`: the rules before those changes. */
export type Rules = "newest" | "2025";

export const RULES: readonly Rules[] = ["newest", "2025"];

/**
 * The service's per-team feature flags that its endpoints consult: the batch export ones, and for
 * feature flags `flag-evaluation-tags` (evaluation contexts are written and shown),
 * `feature-flag-early-exit` (`filters.early_exit` may be turned on) and
 * `realtime-cohort-flag-targeting` (backfilled realtime cohorts may target flags, and stay in the cohort
 * list's `hide_behavioral_cohorts` answer).
 */
export const FEATURE_FLAGS = [
  "high-frequency-batch-exports",
  "hogql-batch-exports",
  "batch-export-earliest-backfill",
  "backfill-workflows-destination",
  "flag-evaluation-tags",
  "feature-flag-early-exit",
  "legacy-insight-filters-disabled",
  "realtime-cohort-flag-targeting",
] as const;

export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/**
 * What a feature flag PATCH does with the `filters` it sends. `merge` (the newest service, since
 * PostHog #74761): the sent top-level keys over the stored ones, `{**stored, **sent}`. `replace` (the
 * service before that change, 2025 included): `filters` without `groups` is ignored, and with `groups`
 * it replaces the stored filters whole.
 */
export type FlagFiltersPatch = "merge" | "replace";

export const FLAG_FILTERS_PATCH: readonly FlagFiltersPatch[] = ["merge", "replace"];

export interface ServiceSettings {
  rules: Rules;
  /** Org-scope `/api/organizations/{id}/batch_exports/...` and `POST .../batch_exports/{id}/backfill/`. */
  legacy_routes: boolean;
  feature_flags: Record<FeatureFlag, boolean>;
  /**
   * Running or starting backfills a team may have before `POST .../backfills/` answers 429 (newest).
   * The service's setting value was not found; 10 is the emulator's choice.
   */
  max_concurrent_backfills: number;
  /**
   * Insights: the deprecated `dashboards` field is left out of answers to personal API keys unless
   * the request asks `?include_dashboards=true` (the service's INSIGHT_DASHBOARDS_OPT_IN_ENFORCED,
   * off by default there too).
   */
  insight_dashboards_opt_in_enforced: boolean;
  /** A flag PATCH's `filters`: merged (newest) or replacing (older); `rules` sets the default. */
  flag_filters_patch: FlagFiltersPatch;
  /**
   * Non-deleted actions a team may have before `POST .../actions/` answers 402 (the service's
   * `analytics.max_actions_per_team`, 500).
   */
  max_actions_per_team: number;
  /**
   * How long a cohort's queued calculation takes, in milliseconds of the emulator's clock: it is done
   * on the first read at least that long after it was queued (0: on the next read, like a worker that
   * is never behind). null: never by itself, only through `POST /_emulator/cohorts/recalculate` (a
   * worker that is not running, as PostHog's tests mock it).
   */
  cohort_calculation_ms: number | null;
  /**
   * The version of the compiler that writes the `bytecode` of cohort filters (the header's second
   * element); `POST /_emulator/cohorts/upgrade_bytecode` raises it and rewrites every cohort, as a
   * service upgrade does.
   */
  cohort_bytecode_version: number;
  /** Flags (not deleted) a team may have before a create is refused (`MAX_FEATURE_FLAGS_PER_TEAM`). */
  max_feature_flags_per_team: number;
  /** Bytes a flag's stored `filters` may take (`MAX_FEATURE_FLAG_FILTER_SIZE_BYTES`, 512 KiB). */
  max_feature_flag_filter_size_bytes: number;
}

/** Settings a seed or the `service` option may give: any subset, flags one by one. */
export type ServiceOptions = Partial<Omit<ServiceSettings, "feature_flags">> & {
  feature_flags?: Partial<Record<FeatureFlag, boolean>>;
};

export function defaultService(): ServiceSettings {
  return {
    rules: "newest",
    legacy_routes: true,
    feature_flags: Object.fromEntries(FEATURE_FLAGS.map((f) => [f, false])) as Record<FeatureFlag, boolean>,
    max_concurrent_backfills: 10,
    insight_dashboards_opt_in_enforced: false,
    flag_filters_patch: "merge",
    max_actions_per_team: 500,
    cohort_calculation_ms: 0,
    cohort_bytecode_version: 1,
    max_feature_flags_per_team: 2000,
    max_feature_flag_filter_size_bytes: 524_288,
  };
}

/**
 * `base` overlaid with `value` (a seed's `service` key or the `service` option). Returns an error message
 * for the first bad entry instead of throwing, so callers can raise their own error type.
 */
export function mergeService(base: ServiceSettings, value: unknown): ServiceSettings | string {
  if (value === undefined) return base;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return '"service" must be an object';
  const raw = value as Record<string, unknown>;
  const out: ServiceSettings = { ...base, feature_flags: { ...base.feature_flags } };
  for (const [key, v] of Object.entries(raw)) {
    switch (key) {
      case "rules":
        if (!RULES.includes(v as Rules)) return `"service.rules" must be one of ${RULES.join(", ")}`;
        out.rules = v as Rules;
        break;
      case "legacy_routes":
        if (typeof v !== "boolean") return '"service.legacy_routes" must be true or false';
        out.legacy_routes = v;
        break;
      case "insight_dashboards_opt_in_enforced":
        if (typeof v !== "boolean")
          return '"service.insight_dashboards_opt_in_enforced" must be true or false';
        out.insight_dashboards_opt_in_enforced = v;
        break;
      case "flag_filters_patch":
        if (!FLAG_FILTERS_PATCH.includes(v as FlagFiltersPatch)) {
          return `"service.flag_filters_patch" must be one of ${FLAG_FILTERS_PATCH.join(", ")}`;
        }
        out.flag_filters_patch = v as FlagFiltersPatch;
        break;
      case "max_actions_per_team":
        if (!Number.isInteger(v) || (v as number) < 0) {
          return '"service.max_actions_per_team" must be a whole number';
        }
        out.max_actions_per_team = v as number;
        break;
      case "cohort_calculation_ms":
        if (v !== null && (!Number.isInteger(v) || (v as number) < 0)) {
          return '"service.cohort_calculation_ms" must be a whole number of milliseconds or null';
        }
        out.cohort_calculation_ms = v as number | null;
        break;
      case "cohort_bytecode_version":
        if (!Number.isInteger(v) || (v as number) < 1) {
          return '"service.cohort_bytecode_version" must be a whole number from 1';
        }
        out.cohort_bytecode_version = v as number;
        break;
      case "max_feature_flags_per_team":
      case "max_feature_flag_filter_size_bytes":
        if (!Number.isInteger(v) || (v as number) < 0) return `"service.${key}" must be a whole number`;
        out[key] = v as number;
        break;
      case "max_concurrent_backfills":
        if (!Number.isInteger(v) || (v as number) < 0) {
          return '"service.max_concurrent_backfills" must be a whole number';
        }
        out.max_concurrent_backfills = v as number;
        break;
      case "feature_flags": {
        if (typeof v !== "object" || v === null || Array.isArray(v)) {
          return '"service.feature_flags" must be an object';
        }
        for (const [flag, on] of Object.entries(v)) {
          if (!FEATURE_FLAGS.includes(flag as FeatureFlag)) {
            return `unknown feature flag "${flag}" (known: ${FEATURE_FLAGS.join(", ")})`;
          }
          if (typeof on !== "boolean") return `feature flag "${flag}" must be true or false`;
          out.feature_flags[flag as FeatureFlag] = on;
        }
        break;
      }
      default:
        return `unknown "service" key "${key}" (known: rules, legacy_routes, feature_flags, max_concurrent_backfills, insight_dashboards_opt_in_enforced, flag_filters_patch, max_actions_per_team, cohort_calculation_ms, cohort_bytecode_version, max_feature_flags_per_team, max_feature_flag_filter_size_bytes)`;
    }
  }
  // `rules` brings its own flag PATCH semantics, unless the same value says otherwise.
  if ("rules" in raw && !("flag_filters_patch" in raw)) {
    out.flag_filters_patch = out.rules === "2025" ? "replace" : "merge";
  }
  return out;
}

/** What these helpers read of the store (only the settings, so this module needs no store import). */
interface WithSettings {
  readonly data: { readonly service: ServiceSettings };
}

/** True when the store follows the newest service's rules. */
export function isNewest(store: WithSettings): boolean {
  return store.data.service.rules === "newest";
}

export function flagOn(store: WithSettings, flag: FeatureFlag): boolean {
  return store.data.service.feature_flags[flag];
}
