/**
 * The feature-flag part of a seed: flags (partial records get the service's defaults), cohorts,
 * experiments, early access features, product tours, approval policies and change requests. Identity
 * fields stay required.
 */
import { SeedError } from "./seed-error.js";
import type {
  ApprovalPolicyRecord,
  ChangeRequestRecord,
  CohortRecord,
  EarlyAccessFeatureRecord,
  ExperimentRecord,
  FeatureFlagRecord,
  ProductTourRecord,
  StoreData,
} from "./types.js";

type Raw = Record<string, unknown>;

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isDict = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback: string): string => (typeof v === "string" ? v : fallback);
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);

export const FLAG_KEY_PATTERN = /^[a-zA-Z0-9_-]+$/;
const RUNTIMES = ["server", "client", "all"] as const;
const ACTION_KEYS = ["feature_flag.enable", "feature_flag.disable", "feature_flag.update"] as const;

function need<T>(record: Raw, key: string, kind: string, check: (v: unknown) => boolean): T {
  const value = record[key];
  if (!check(value)) throw new SeedError(`seed: a ${kind} has a missing or invalid "${key}"`);
  return value as T;
}

function flag(f: Raw, at: string): FeatureFlagRecord {
  // Any non-empty key: the model does not constrain it (the API's key rule is a serializer check, and
  // flags older than it, or written by the service itself, hold dots, spaces and tombstone suffixes).
  const key = need<string>(f, "key", "feature flag", (v) => typeof v === "string" && v !== "");
  const runtime = RUNTIMES.find((r) => r === f.evaluation_runtime) ?? "all";
  const created = str(f.created_at, at);
  return {
    id: need<number>(f, "id", "feature flag", isInt),
    team_id: need<number>(f, "team_id", "feature flag", isInt),
    key,
    name: str(f.name, ""),
    filters: isDict(f.filters) ? structuredClone(f.filters) : {},
    active: f.active !== false,
    archived: f.archived === true,
    deleted: f.deleted === true,
    created_at: created,
    created_by: isInt(f.created_by) ? f.created_by : null,
    updated_at: str(f.updated_at, created),
    last_modified_by: isInt(f.last_modified_by)
      ? f.last_modified_by
      : f.last_modified_by !== null && isInt(f.created_by)
        ? f.created_by
        : null,
    version: isInt(f.version) ? f.version : f.version === null ? null : 1,
    ensure_experience_continuity: f.ensure_experience_continuity === true,
    is_remote_configuration: f.is_remote_configuration === true,
    has_encrypted_payloads: f.has_encrypted_payloads === true,
    evaluation_runtime: runtime,
    bucketing_identifier: f.bucketing_identifier === "device_id" ? "device_id" : "distinct_id",
    evaluation_contexts: Array.isArray(f.evaluation_contexts) ? f.evaluation_contexts.map(String) : [],
    tags: Array.isArray(f.tags) ? f.tags.map((t) => String(t).trim().toLowerCase()) : [],
    last_called_at: strOrNull(f.last_called_at),
    analytics_dashboards: Array.isArray(f.analytics_dashboards) ? f.analytics_dashboards.filter(isInt) : [],
    rollout_percentage: typeof f.rollout_percentage === "number" ? f.rollout_percentage : null,
  };
}

/** A legacy cohort group as the service's model writes it on create: all nine keys (`Group.to_dict()`). */
const GROUP_KEYS = [
  "properties",
  "action_id",
  "event_id",
  "label",
  "days",
  "count",
  "count_operator",
  "start_date",
  "end_date",
];

export function nineKeyGroup(group: unknown): unknown {
  if (!isDict(group) || !Object.keys(group).every((k) => GROUP_KEYS.includes(k))) return group;
  if (!group.properties && !group.action_id && !group.event_id) return group;
  return Object.fromEntries(GROUP_KEYS.map((k) => [k, group[k] ?? null]));
}

const strOrNullOr = (v: unknown, fallback: string | null): string | null =>
  typeof v === "string" ? v : v === null ? null : fallback;
const intOrNull = (v: unknown): number | null => (isInt(v) ? v : null);

/**
 * A cohort row (the ORM's `Cohort.objects.create`): stored as given (filters are not rewritten), legacy
 * groups with their nine keys; a seed's calculated cohorts may say so (`version`, `last_calculation`).
 */
function cohort(c: Raw, at: string): CohortRecord {
  if (!("name" in c) || !(typeof c.name === "string" || c.name === null)) {
    throw new SeedError('seed: a cohort has a missing or invalid "name"');
  }
  const calculations = Array.isArray(c.calculations) ? c.calculations.filter(isDict) : [];
  return {
    id: need<number>(c, "id", "cohort", isInt),
    team_id: need<number>(c, "team_id", "cohort", isInt),
    name: c.name as string | null,
    description: str(c.description, ""),
    filters: isDict(c.filters) ? structuredClone(c.filters) : null,
    groups: Array.isArray(c.groups) ? c.groups.map((g) => nineKeyGroup(structuredClone(g))) : [],
    query: isDict(c.query) ? structuredClone(c.query) : null,
    is_static: c.is_static === true,
    cohort_type: strOrNull(c.cohort_type),
    deleted: c.deleted === true,
    created_at: str(c.created_at, at),
    created_by: isInt(c.created_by) ? c.created_by : null,
    count: intOrNull(c.count),
    version: intOrNull(c.version),
    pending_version: intOrNull(c.pending_version),
    is_calculating: c.is_calculating === true,
    last_calculation: strOrNullOr(c.last_calculation, null),
    errors_calculating: isInt(c.errors_calculating) ? c.errors_calculating : 0,
    last_error_at: strOrNull(c.last_error_at),
    last_backfill_person_properties_at: strOrNull(c.last_backfill_person_properties_at),
    last_backfill_events_at: strOrNull(c.last_backfill_events_at),
    people: Array.isArray(c.people) ? c.people.map(String) : [],
    pending_import:
      isDict(c.pending_import) && Array.isArray(c.pending_import.ids)
        ? {
            id_type:
              c.pending_import.id_type === "person_id" || c.pending_import.id_type === "email"
                ? c.pending_import.id_type
                : "distinct_id",
            ids: c.pending_import.ids.map(String),
          }
        : null,
    pending_snapshot:
      c.pending_snapshot === "query" || c.pending_snapshot === "filters" ? c.pending_snapshot : null,
    calculation_requested_at: strOrNull(c.calculation_requested_at),
    calculations: calculations.map((h, i) => ({
      id: str(h.id, `${String(c.id)}-${i + 1}`),
      filters: isDict(h.filters) ? h.filters : {},
      count: intOrNull(h.count),
      started_at: str(h.started_at, at),
      finished_at: strOrNull(h.finished_at),
      error: strOrNull(h.error),
      error_code: strOrNull(h.error_code),
    })),
    experiment_set: Array.isArray(c.experiment_set) ? c.experiment_set.filter(isInt) : [],
  };
}

/** An experiment's JSON fields (where an action or cohort may be named by id). */
export const EXPERIMENT_JSON = [
  "metrics",
  "metrics_secondary",
  "filters",
  "parameters",
  "exposure_criteria",
  "stats_config",
  "scheduling_config",
  "variants",
] as const;

function experiment(e: Raw): ExperimentRecord {
  return {
    id: need<number>(e, "id", "experiment", isInt),
    team_id: need<number>(e, "team_id", "experiment", isInt),
    name: str(e.name, `Experiment ${e.id}`),
    feature_flag: need<number>(e, "feature_flag", "experiment", isInt),
    start_date: strOrNull(e.start_date),
    end_date: strOrNull(e.end_date),
    deleted: e.deleted === true,
    ...(typeof e.created_at === "string" ? { created_at: e.created_at } : {}),
    ...(isInt(e.created_by) || e.created_by === null ? { created_by: e.created_by as number | null } : {}),
    ...Object.fromEntries(EXPERIMENT_JSON.filter((k) => e[k] !== undefined).map((k) => [k, e[k]])),
  };
}

function earlyAccessFeature(e: Raw): EarlyAccessFeatureRecord {
  return {
    id: need<number>(e, "id", "early access feature", isInt),
    team_id: need<number>(e, "team_id", "early access feature", isInt),
    name: str(e.name, `Feature ${e.id}`),
    feature_flag: isInt(e.feature_flag) ? e.feature_flag : null,
    deleted: e.deleted === true,
  };
}

function productTour(t: Raw): ProductTourRecord {
  return {
    id: need<number>(t, "id", "product tour", isInt),
    team_id: need<number>(t, "team_id", "product tour", isInt),
    name: str(t.name, `Tour ${t.id}`),
    internal_targeting_flag: isInt(t.internal_targeting_flag) ? t.internal_targeting_flag : null,
    deleted: t.deleted === true,
  };
}

function policy(p: Raw, index: number): ApprovalPolicyRecord {
  const action = ACTION_KEYS.find((a) => a === p.action_key);
  if (!action) {
    throw new SeedError(`seed: an approval policy's "action_key" must be one of ${ACTION_KEYS.join(", ")}`);
  }
  const approvers = isDict(p.approver_config) ? p.approver_config : {};
  return {
    id: str(p.id, `0190f1d2-a99f-7c3a-9d1f-${String(index + 1).padStart(12, "0")}`),
    organization: need<string>(p, "organization", "approval policy", (v) => typeof v === "string"),
    team_id: isInt(p.team_id) ? p.team_id : null,
    action_key: action,
    conditions: isDict(p.conditions) ? structuredClone(p.conditions) : null,
    enabled: p.enabled !== false,
    approver_config: {
      quorum: isInt(approvers.quorum) ? approvers.quorum : 1,
      ...(Array.isArray(approvers.users) ? { users: approvers.users.filter(isInt) } : {}),
      ...(Array.isArray(approvers.roles) ? { roles: approvers.roles.map(String) } : {}),
    },
    allow_self_approve: p.allow_self_approve === true,
    bypass_org_membership_levels: Array.isArray(p.bypass_org_membership_levels)
      ? p.bypass_org_membership_levels.map(String)
      : [],
  };
}

const STATES = ["pending", "approved", "rejected", "applied", "expired", "failed"] as const;

function changeRequest(c: Raw, at: string): ChangeRequestRecord {
  const snapshot = isDict(c.policy_snapshot) ? c.policy_snapshot : {};
  return {
    id: need<string>(c, "id", "change request", (v) => typeof v === "string"),
    team_id: need<number>(c, "team_id", "change request", isInt),
    organization: str(c.organization, ""),
    action_key: str(c.action_key, "feature_flag.update"),
    resource_type: "feature_flag",
    resource_id: strOrNull(c.resource_id),
    intent: isDict(c.intent) ? c.intent : {},
    intent_display: isDict(c.intent_display) ? c.intent_display : {},
    state: STATES.find((s) => s === c.state) ?? "pending",
    created_by: isInt(c.created_by) ? c.created_by : 0,
    created_at: str(c.created_at, at),
    expires_at: str(c.expires_at, at),
    policy_snapshot: {
      quorum: isInt(snapshot.quorum) ? snapshot.quorum : 1,
      users: Array.isArray(snapshot.users) ? snapshot.users.filter(isInt) : [],
      allow_self_approve: snapshot.allow_self_approve === true,
    },
    approvals: Array.isArray(c.approvals) ? c.approvals.filter(isInt) : [],
  };
}

export function normaliseFlagData(
  list: (key: string) => Raw[],
  at: string,
  sequences: Raw,
): Pick<
  StoreData,
  | "feature_flags"
  | "cohorts"
  | "experiments"
  | "early_access_features"
  | "product_tours"
  | "approval_policies"
  | "change_requests"
> & {
  next: { feature_flag: number; cohort: number };
} {
  const feature_flags = list("feature_flags").map((f) => flag(f, at));
  const cohorts = list("cohorts").map((c) => cohort(c, at));
  const next = (key: string, ids: number[]) =>
    Math.max(isInt(sequences[key]) ? (sequences[key] as number) : 1, ...ids.map((id) => id + 1));
  return {
    feature_flags,
    cohorts,
    experiments: list("experiments").map(experiment),
    early_access_features: list("early_access_features").map(earlyAccessFeature),
    product_tours: list("product_tours").map(productTour),
    approval_policies: list("approval_policies").map(policy),
    change_requests: list("change_requests").map((c) => changeRequest(c, at)),
    next: {
      feature_flag: next(
        "feature_flag",
        feature_flags.map((f) => f.id),
      ),
      cohort: next(
        "cohort",
        cohorts.map((c) => c.id),
      ),
    },
  };
}
