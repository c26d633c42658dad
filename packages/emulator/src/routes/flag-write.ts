/**
 * Flag writes in the service's order (service-api.md §10; `FeatureFlagSerializer`): the fields in the
 * serializer's order (the first 400 reported), the object-level rules (evaluation contexts, device
 * bucketing with continuity, encrypted payloads only on remote configuration, `archived` only with
 * `active: false`, the remote-config 100% rollout), the approval gate, then for an update the delete,
 * disable and enable refusals, encrypted payloads, the `version` + `original_flag` conflict (409 naming
 * who changed the flag) and the write itself, which bumps `version`. Keys held by soft-deleted flags are
 * freed on create and rename (hard delete, or `<key>:deleted:<id>` when an experiment still points at
 * the tombstone); a restore takes the key back, or `<key>-2`.
 */
import { logActivity } from "../activity-log.js";
import { ApiError, collectInvalid, errorBody, invalid, required } from "../errors.js";
import { isDict, parseBool, parseChoice, parseInteger, parseList, parseString, pyType } from "../fields.js";
import type { Ctx } from "../router.js";
import { FLAG_KEY_PATTERN } from "../seed-flags.js";
import { flagOn } from "../service.js";
import type { FeatureFlagRecord } from "../types.js";
import { approvalGate } from "./flag-approvals.js";
import {
  checkDependencyFormats,
  checkStoredFormat,
  dependentFlags,
  disabledDependencies,
  earlyAccessFeatures,
  runningExperiments,
  validateFilters,
} from "./flag-filters.js";
import { encryptPayload, REDACTED_PAYLOAD_VALUE } from "./flag-payloads.js";
import { usedInReplaySettings } from "./flag-view.js";

type Json = Record<string, unknown>;

const RUNTIMES = ["server", "client", "all"] as const;
const BUCKETING = ["distinct_id", "device_id"] as const;
const CREATION_CONTEXTS = [
  "feature_flags",
  "experiments",
  "surveys",
  "early_access_features",
  "web_experiments",
  "product_tours",
] as const;
const TOMBSTONE = /:deleted:\d+$/;

function liveFlagWithKey(ctx: Ctx, key: string, except?: FeatureFlagRecord): FeatureFlagRecord | undefined {
  return ctx.store.data.feature_flags.find(
    (f) => f.team_id === ctx.project.id && f.key === key && !f.deleted && f !== except,
  );
}

function validateKey(ctx: Ctx, value: unknown, instance: FeatureFlagRecord | undefined): string {
  const key = parseString(value, "key", { blank: false, maxLength: 400 }) as string;
  if ((!instance || key !== instance.key) && liveFlagWithKey(ctx, key, instance)) {
    throw invalid("There is already a feature flag with this key.", "key", "unique");
  }
  if (!FLAG_KEY_PATTERN.test(key)) {
    throw invalid("Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "key", "invalid_key");
  }
  return key;
}

function dashboards(ctx: Ctx, value: unknown): number[] {
  const list = parseList(value, "analytics_dashboards") ?? [];
  return list.map((item) => {
    if (typeof item !== "number" && !(typeof item === "string" && /^\d+$/.test(item))) {
      throw invalid(
        `Incorrect type. Expected pk value, received ${pyType(item)}.`,
        "analytics_dashboards",
        "incorrect_type",
      );
    }
    const id = Number(item);
    if (!ctx.store.dashboard(ctx.project.id, id)) {
      throw invalid(
        `Invalid pk "${String(item)}" - object does not exist.`,
        "analytics_dashboards",
        "does_not_exist",
      );
    }
    return id;
  });
}

/** The serializer's field pass: the validated data of the fields the body sends (PUT and create need `key`). */
function parseFields(ctx: Ctx, body: Json, instance: FeatureFlagRecord | undefined, partial: boolean): Json {
  const vd: Json = {};
  const steps = collectInvalid();
  const field = (name: string, parse: (value: unknown) => unknown) =>
    steps.step(() => {
      if (name in body) vd[name] = parse(body[name]);
    });
  field("name", (v) => parseString(v, "name"));
  steps.step(() => {
    if ("key" in body) vd.key = validateKey(ctx, body.key, instance);
    else if (!partial) throw required("key");
  });
  field("filters", (v) =>
    validateFilters(ctx, v, {
      instance,
      creating: !instance,
      flagKey: typeof body.key === "string" ? body.key : undefined,
    }),
  );
  field("deleted", (v) => parseBool(v, "deleted"));
  field("active", (v) => parseBool(v, "active"));
  field("archived", (v) => parseBool(v, "archived"));
  field("version", (v) => parseInteger(v, "version"));
  field("ensure_experience_continuity", (v) => parseBool(v, "ensure_experience_continuity", true) ?? false);
  field("tags", (v) =>
    (parseList(v, "tags") ?? []).map((t) => (parseString(t, "tags") ?? "").trim().toLowerCase()),
  );
  field("evaluation_contexts", (v) => (v === null ? null : parseList(v, "evaluation_contexts")));
  field("analytics_dashboards", (v) => dashboards(ctx, v));
  field("creation_context", (v) => parseChoice(v, "creation_context", CREATION_CONTEXTS));
  field("is_remote_configuration", (v) => parseBool(v, "is_remote_configuration", true) ?? false);
  field("has_encrypted_payloads", (v) => parseBool(v, "has_encrypted_payloads"));
  field("evaluation_runtime", (v) => (v === null ? "all" : parseChoice(v, "evaluation_runtime", RUNTIMES)));
  field("bucketing_identifier", (v) =>
    v === null ? null : parseChoice(v, "bucketing_identifier", BUCKETING),
  );
  steps.done();
  return vd;
}

/** The serializer's `validate`: rules across fields, each a non-field 400 unless noted. */
function validateObject(ctx: Ctx, body: Json, vd: Json, instance: FeatureFlagRecord | undefined): void {
  if (instance && !("filters" in vd)) checkStoredFormat(instance);
  if (instance && ((vd.active === true && !instance.active) || (vd.deleted === false && instance.deleted))) {
    checkDependencyFormats(ctx, isDict(vd.filters) ? vd.filters : instance.filters, { statuses: false });
  }
  if ("evaluation_contexts" in body && body.evaluation_contexts !== null) {
    const raw = body.evaluation_contexts;
    if (!Array.isArray(raw) || raw.length > 50)
      throw invalid("evaluation_contexts must be a list of at most 50 items.");
    if (raw.some((item) => typeof item !== "string" || item.length > 255))
      throw invalid("Invalid evaluation context name.");
    vd.evaluation_contexts = [...new Set(raw as string[])];
  }
  requireEvaluationContexts(ctx, body, vd, instance);
  const bucketing = "bucketing_identifier" in vd ? vd.bucketing_identifier : instance?.bucketing_identifier;
  const continuity =
    "ensure_experience_continuity" in vd
      ? vd.ensure_experience_continuity
      : instance?.ensure_experience_continuity;
  const existing = instance?.bucketing_identifier === "device_id" && instance.ensure_experience_continuity;
  if (bucketing === "device_id" && continuity === true && !existing) {
    throw invalid(
      "Cannot enable 'persist across authentication steps' when using device ID bucketing. These features are incompatible.",
    );
  }
  const encrypted =
    (vd.has_encrypted_payloads as boolean | undefined) ?? instance?.has_encrypted_payloads ?? false;
  const remote =
    (vd.is_remote_configuration as boolean | undefined) ?? instance?.is_remote_configuration ?? false;
  if (encrypted && !remote)
    throw invalid("Encrypted payloads require the flag to be a remote configuration.");
  const archived = (vd.archived as boolean | undefined) ?? instance?.archived ?? false;
  const active = (vd.active as boolean | undefined) ?? instance?.active ?? true;
  if (archived && active) {
    throw invalid(
      vd.archived === true
        ? "Cannot archive an enabled feature flag. Disable it first, or send active: false in the same request."
        : "Cannot enable an archived feature flag. Unarchive it first.",
    );
  }
  if (!instance) checkFlagCount(ctx);
  if (!instance && vd.is_remote_configuration === true) {
    const filters = isDict(vd.filters) ? vd.filters : {};
    const groups = Array.isArray(filters.groups) ? (filters.groups as Json[]) : [];
    if (groups.length === 0) filters.groups = [{ properties: [], rollout_percentage: 100, variant: null }];
    for (const group of groups)
      if (group.rollout_percentage === 0 || group.rollout_percentage == null) group.rollout_percentage = 100;
    vd.filters = filters;
  }
}

/** The team's flag count limit on create (`check_flag_limits_for_team`): soft-deleted flags do not count. */
export function checkFlagCount(ctx: Ctx): void {
  const limit = ctx.store.data.service.max_feature_flags_per_team;
  const count = ctx.store.data.feature_flags.filter((f) => f.team_id === ctx.project.id && !f.deleted).length;
  if (count >= limit) {
    throw invalid(
      `Maximum of ${limit.toLocaleString("en-US")} feature flags allowed per team. Please delete unused flags or contact support to increase this limit.`,
    );
  }
}

/**
 * The project setting "require evaluation contexts" (only with the service flag `flag-evaluation-tags`):
 * a new flag needs one (survey flags excepted), and a flag that has some cannot drop them all.
 */
function requireEvaluationContexts(
  ctx: Ctx,
  body: Json,
  vd: Json,
  instance: FeatureFlagRecord | undefined,
): void {
  if (!ctx.project.require_evaluation_contexts || !flagOn(ctx.store, "flag-evaluation-tags")) return;
  if (body.creation_context === "surveys") return;
  const contexts = vd.evaluation_contexts as string[] | null | undefined;
  if (!instance) {
    if (!contexts || contexts.length === 0) {
      throw invalid("At least one evaluation context is required to create a new feature flag.");
    }
  } else if (instance.evaluation_contexts.length > 0 && Array.isArray(contexts) && contexts.length === 0) {
    throw invalid(
      "Cannot remove all evaluation contexts. At least one evaluation context is required because this flag already has evaluation contexts and the team requires them.",
    );
  }
}

function encryptAll(filters: unknown): void {
  if (!isDict(filters) || !isDict(filters.payloads)) return;
  for (const [key, value] of Object.entries(filters.payloads)) {
    if (typeof value === "string") filters.payloads[key] = encryptPayload(value);
  }
}

/** A soft-deleted flag holding `key` is removed, or renamed when an experiment still points at it. */
function freeKey(ctx: Ctx, key: string, except?: FeatureFlagRecord): void {
  const tombstones = ctx.store.data.feature_flags.filter(
    (f) => f.team_id === ctx.project.id && f.key === key && f.deleted && f !== except,
  );
  for (const flag of tombstones) {
    const experiments = ctx.store.data.experiments.filter((e) => e.feature_flag === flag.id);
    if (experiments.length === 0 && earlyAccessFeatures(ctx, flag).length === 0) {
      ctx.store.data.feature_flags.splice(ctx.store.data.feature_flags.indexOf(flag), 1);
      continue;
    }
    const live = experiments.filter((e) => !e.deleted);
    const features = earlyAccessFeatures(ctx, flag);
    const blockers = [
      ...(live.length > 0 ? [`active experiment(s) with ID(s): ${live.map((e) => e.id).join(", ")}`] : []),
      ...(features.length > 0 ? [`${features.length} early access feature(s)`] : []),
    ];
    if (blockers.length > 0) {
      throw invalid(
        `Cannot reuse key '${flag.key}': a soft-deleted flag with this key is still referenced by ${blockers.join(" and ")}. Please contact support.`,
      );
    }
    flag.key = `${flag.key}:deleted:${flag.id}`;
  }
}

/** `approved`: the replay of an approved change request, which the gate let through already. */
export function createFlag(ctx: Ctx, body: Json, opts: { approved?: boolean } = {}): FeatureFlagRecord {
  const vd = parseFields(ctx, body, undefined, false);
  validateObject(ctx, body, vd, undefined);
  if (!opts.approved) approvalGate(ctx, undefined, vd);
  const key = vd.key as string;
  freeKey(ctx, key);
  const now = ctx.now.toISOString();
  const flag: FeatureFlagRecord = {
    id: 0,
    team_id: ctx.project.id,
    key,
    name: (vd.name as string | undefined) ?? "",
    // The model's default (`default_filters`): no condition, so the flag matches no one.
    filters: isDict(vd.filters) ? vd.filters : { groups: [] },
    active: (vd.active as boolean | undefined) ?? true,
    archived: (vd.archived as boolean | undefined) ?? false,
    deleted: (vd.deleted as boolean | undefined) ?? false,
    created_at: now,
    created_by: ctx.user.id,
    updated_at: now,
    last_modified_by: ctx.user.id,
    version: 1,
    ensure_experience_continuity: (vd.ensure_experience_continuity as boolean | undefined) ?? false,
    is_remote_configuration: (vd.is_remote_configuration as boolean | undefined) ?? false,
    has_encrypted_payloads: (vd.has_encrypted_payloads as boolean | undefined) ?? false,
    evaluation_runtime:
      (vd.evaluation_runtime as FeatureFlagRecord["evaluation_runtime"] | undefined) ?? "all",
    bucketing_identifier:
      "bucketing_identifier" in vd
        ? (vd.bucketing_identifier as FeatureFlagRecord["bucketing_identifier"])
        : "distinct_id",
    evaluation_contexts:
      flagOn(ctx.store, "flag-evaluation-tags") && Array.isArray(vd.evaluation_contexts)
        ? (vd.evaluation_contexts as string[])
        : [],
    tags:
      ctx.org.features.tagging && Array.isArray(vd.tags)
        ? [...new Set(vd.tags as string[])].filter((t) => t !== "")
        : [],
    last_called_at: null,
    analytics_dashboards: (vd.analytics_dashboards as number[] | undefined) ?? [],
    rollout_percentage: null,
  };
  if (flag.has_encrypted_payloads) encryptAll(flag.filters);
  flag.id = ctx.store.nextFeatureFlagId();
  ctx.store.data.feature_flags.push(flag);
  logActivity(ctx, { scope: "FeatureFlag", itemId: flag.id, activity: "created", name: flag.key });
  return flag;
}

function refuseIfDependents(ctx: Ctx, flag: FeatureFlagRecord, action: string): void {
  const dependents = dependentFlags(ctx, flag);
  if (dependents.length === 0) return;
  let names = dependents
    .slice(0, 5)
    .map((f) => `${f.key} (ID: ${f.id})`)
    .join(", ");
  if (dependents.length > 5) names += `, and ${dependents.length - 5} more`;
  throw invalid(
    `Cannot ${action} this feature flag because other flags depend on it: ${names}. Please update or disable the dependent flags first.`,
  );
}

/** Python's `==` on JSON values: key order is irrelevant and `True == 1`. */
function pyEquals(a: unknown, b: unknown): boolean {
  if (typeof a === "boolean" || typeof b === "boolean")
    return Number(a) === Number(b) && typeof a !== "string" && typeof b !== "string";
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]))
    );
  }
  if (isDict(a) || isDict(b)) {
    if (!isDict(a) || !isDict(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && pyEquals(a[k], b[k]));
  }
  return a === b;
}

/** The stored value of a field as the conflict check reads it off the row. */
function current(flag: FeatureFlagRecord, field: string): unknown {
  return (flag as unknown as Json)[field];
}

export interface UpdateOptions {
  partial: boolean;
  /** A lifecycle action: no body fields beyond the state it sets, no version check, no legacy cleanup. */
  lifecycle?: { disableWording: string };
  /** The replay of an approved change request, which the gate let through already. */
  approved?: boolean;
}

export function updateFlag(
  ctx: Ctx,
  flag: FeatureFlagRecord,
  body: Json,
  opts: UpdateOptions,
): FeatureFlagRecord {
  let vd = parseFields(ctx, body, flag, opts.partial);
  validateObject(ctx, body, vd, flag);
  if (!opts.approved) approvalGate(ctx, flag, vd);
  if (vd.deleted === true && !flag.deleted && earlyAccessFeatures(ctx, flag).length > 0) {
    throw invalid(
      "Cannot delete a feature flag that is in use with early access features. Please delete the early access feature before deleting the flag.",
    );
  }
  if (vd.deleted === true) {
    const running = runningExperiments(ctx, flag);
    if (running.length > 0) {
      throw invalid(
        `Cannot delete a feature flag that is linked to running experiment(s): ${running
          .map((e) => `"${e.name}" (ID: ${e.id})`)
          .join(", ")}. Please stop the experiment(s) before deleting the flag.`,
      );
    }
    refuseIfDependents(ctx, flag, "delete");
    if (usedInReplaySettings(ctx, flag)) {
      throw invalid(
        "This feature flag is used in session replay settings. Please remove it from replay settings before deleting.",
      );
    }
    if (ctx.store.data.experiments.some((e) => e.feature_flag === flag.id))
      vd.key = `${flag.key}:deleted:${flag.id}`;
  }
  if (vd.deleted === false && TOMBSTONE.test(flag.key)) {
    const original = flag.key.replace(TOMBSTONE, "");
    let candidate = original;
    for (
      let n = 2;
      ctx.store.data.feature_flags.some(
        (f) => f.team_id === ctx.project.id && f.key === candidate && f !== flag,
      );
      n++
    ) {
      candidate = `${original}-${n}`;
    }
    vd.key = candidate;
  }
  if (vd.active === false && flag.active) {
    refuseIfDependents(
      ctx,
      flag,
      opts.lifecycle?.disableWording ?? (vd.archived === true ? "archive" : "disable"),
    );
  }
  if (vd.active === true && !flag.active) {
    const disabled = disabledDependencies(ctx, flag);
    if (disabled.length > 0) {
      const names = disabled.slice(0, 5).map((f) => `${f.key} (ID: ${f.id})`);
      if (disabled.length > 5) names.push(`and ${disabled.length - 5} more`);
      throw invalid(
        `Cannot enable this feature flag because it depends on disabled flags: ${names.join(", ")}. Please enable the dependency flags first.`,
      );
    }
  }
  handleEncryptedPayloads(vd, flag);
  if (!opts.lifecycle) {
    const filters = isDict(vd.filters) ? vd.filters : flag.filters;
    if ("holdout_groups" in filters || "super_groups" in filters) {
      const { holdout_groups: _h, super_groups: _s, ...rest } = filters;
      vd.filters = rest;
    }
    const version = "version" in body ? body.version : -1;
    if (version !== -1 && version !== (flag.version ?? 0)) {
      const original = isDict(body.original_flag) ? body.original_flag : {};
      const changes = Object.keys(vd).filter((f) => f in original && !pyEquals(vd[f], original[f]));
      const conflicts = changes.filter(
        (f) => !pyEquals(original[f], current(flag, f)) && !pyEquals(vd[f], current(flag, f)),
      );
      if (conflicts.length > 0) {
        const editor = ctx.store.user(flag.last_modified_by)?.email ?? "another user";
        // The service's Conflict is a plain APIException, which its error handler types `server_error`.
        throw new ApiError(
          409,
          errorBody(
            "server_error",
            "conflict",
            `The feature flag was updated by ${editor} since you started editing it. Please refresh and try again.`,
          ),
        );
      }
      vd = Object.fromEntries(
        Object.entries(vd).filter(([f, v]) => !(f in original) || !pyEquals(v, original[f])),
      );
    }
  }
  const newKey = vd.key as string | undefined;
  if (newKey && newKey !== flag.key && ((vd.deleted as boolean | undefined) ?? flag.deleted) === false) {
    freeKey(ctx, newKey, flag);
  }
  apply(ctx, flag, vd);
  return flag;
}

function handleEncryptedPayloads(vd: Json, flag: FeatureFlagRecord): void {
  const encrypted = (vd.has_encrypted_payloads as boolean | undefined) ?? flag.has_encrypted_payloads;
  const filters = isDict(vd.filters) ? vd.filters : undefined;
  if (encrypted) {
    vd.has_encrypted_payloads = true;
    const fresh = isDict(filters?.payloads) ? filters.payloads.true : undefined;
    if (!fresh || fresh === REDACTED_PAYLOAD_VALUE) {
      if (!filters) return;
      const stored = isDict(flag.filters.payloads) ? flag.filters.payloads : {};
      if (!stored.true)
        throw invalid("An encrypted payload is required when has_encrypted_payloads is true.");
      const payloads: Json = isDict(filters.payloads) ? filters.payloads : {};
      for (const [k, v] of Object.entries(payloads))
        if (v === REDACTED_PAYLOAD_VALUE && k in stored) payloads[k] = stored[k];
      payloads.true = stored.true;
      filters.payloads = payloads;
    } else encryptAll(filters);
  } else if (flag.has_encrypted_payloads) {
    // Downgrading: leftover ciphertext must not read back as a plain payload.
    if (!filters) {
      const next = structuredClone(flag.filters);
      const payloads = isDict(next.payloads) ? next.payloads : {};
      delete payloads.true;
      next.payloads = payloads;
      vd.filters = next;
    } else {
      const payloads = isDict(filters.payloads) ? filters.payloads : {};
      filters.payloads = Object.fromEntries(
        Object.entries(payloads).filter(([, v]) => v && v !== REDACTED_PAYLOAD_VALUE),
      );
    }
  }
}

function apply(ctx: Ctx, flag: FeatureFlagRecord, vd: Json): void {
  for (const field of [
    "name",
    "key",
    "filters",
    "active",
    "archived",
    "deleted",
    "ensure_experience_continuity",
  ]) {
    if (field in vd) (flag as unknown as Json)[field] = vd[field];
  }
  for (const field of [
    "is_remote_configuration",
    "has_encrypted_payloads",
    "evaluation_runtime",
    "bucketing_identifier",
  ]) {
    if (field in vd) (flag as unknown as Json)[field] = vd[field];
  }
  if ("analytics_dashboards" in vd)
    flag.analytics_dashboards = [
      ...new Set([...flag.analytics_dashboards, ...(vd.analytics_dashboards as number[])]),
    ];
  if ("tags" in vd && ctx.org.features.tagging)
    flag.tags = [...new Set(vd.tags as string[])].filter((t) => t !== "");
  if (Array.isArray(vd.evaluation_contexts) && flagOn(ctx.store, "flag-evaluation-tags")) {
    flag.evaluation_contexts = vd.evaluation_contexts as string[];
  }
  flag.version = (flag.version ?? 0) + 1;
  flag.last_modified_by = ctx.user.id;
  flag.updated_at = ctx.now.toISOString();
  logActivity(ctx, { scope: "FeatureFlag", itemId: flag.id, activity: "updated", name: flag.key });
}
