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

function cohort(c: Raw, at: string): CohortRecord {
  return {
    id: need<number>(c, "id", "cohort", isInt),
    team_id: need<number>(c, "team_id", "cohort", isInt),
    name: need<string>(c, "name", "cohort", (v) => typeof v === "string"),
    description: str(c.description, ""),
    filters: isDict(c.filters) ? structuredClone(c.filters) : {},
    ...(Array.isArray(c.groups) ? { groups: structuredClone(c.groups) } : {}),
    ...(typeof c.cohort_type === "string" ? { cohort_type: c.cohort_type } : {}),
    ...(typeof c.last_backfill_person_properties_at === "string"
      ? { last_backfill_person_properties_at: c.last_backfill_person_properties_at }
      : {}),
    ...(typeof c.last_backfill_events_at === "string"
      ? { last_backfill_events_at: c.last_backfill_events_at }
      : {}),
    is_static: c.is_static === true,
    deleted: c.deleted === true,
    created_at: str(c.created_at, at),
    created_by: isInt(c.created_by) ? c.created_by : null,
    count: isInt(c.count) ? c.count : null,
  };
}

function experiment(e: Raw): ExperimentRecord {
  return {
    id: need<number>(e, "id", "experiment", isInt),
    team_id: need<number>(e, "team_id", "experiment", isInt),
    name: str(e.name, `Experiment ${e.id}`),
    feature_flag: need<number>(e, "feature_flag", "experiment", isInt),
    start_date: strOrNull(e.start_date),
    end_date: strOrNull(e.end_date),
    deleted: e.deleted === true,
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
