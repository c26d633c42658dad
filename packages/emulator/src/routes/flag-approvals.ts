/**
 * The service's approval gate on flag writes (products/approvals/backend: `@approval_gate` on create
 * with enable/update, on update with enable/disable/update). Each action that detects the change is
 * held by the enabled policies for it (the project's, then the organization's) whose conditions the
 * change meets and that the caller's membership level does not bypass. None: the write goes through.
 * One: a change request is opened and the write answers 409 `approval_required` with its id, leaving
 * the flag unchanged (a second one for the same flag and action: 409 `change_request_pending`).
 * Several: 400 `policy_conflict`, nothing opened (PostHog's test_create_feature_flag_gate.py). Policies
 * are seeded (`approval_policies`), the change requests kept in `change_requests`.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "../errors.js";
import { isDict } from "../fields.js";
import type { Ctx } from "../router.js";
import type { ApprovalPolicyRecord, ChangeRequestRecord, FeatureFlagRecord } from "../types.js";
import { userBasic } from "./dashboard-access.js";
import { encryptPayload, REDACTED_PAYLOAD_VALUE } from "./flag-payloads.js";

type Json = Record<string, unknown>;
type ActionKey = ApprovalPolicyRecord["action_key"];
interface Rollout {
  path: string;
  value: unknown;
}

const DAY = 86_400_000;
const LEVELS = { member: "1", admin: "8", owner: "15" } as const;

/** Every rollout percentage of a filters value with its path (groups, holdout, variants). */
function rollouts(filters: unknown): Rollout[] {
  const out: Rollout[] = [];
  if (!isDict(filters)) return out;
  const each = (list: unknown, prefix: string, field: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      if (isDict(item) && field in item) out.push({ path: `${prefix}[${i}].${field}`, value: item[field] });
    });
  };
  each(filters.groups, "groups", "rollout_percentage");
  if (isDict(filters.holdout) && "exclusion_percentage" in filters.holdout) {
    out.push({ path: "holdout.exclusion_percentage", value: filters.holdout.exclusion_percentage });
  }
  if (isDict(filters.multivariate))
    each(filters.multivariate.variants, "multivariate.variants", "rollout_percentage");
  return out;
}

function changedPaths(before: Rollout[], after: Rollout[]): string[] {
  const b = new Map(before.map((r) => [r.path, r.value]));
  const a = new Map(after.map((r) => [r.path, r.value]));
  return [...new Set([...b.keys(), ...a.keys()])].filter((p) => b.get(p) !== a.get(p));
}

function detects(action: ActionKey, instance: FeatureFlagRecord | undefined, change: Json): boolean {
  if (action === "feature_flag.update") {
    if (
      instance &&
      change.active !== undefined &&
      change.active !== instance.active &&
      !("filters" in change)
    ) {
      return false;
    }
    if (!isDict(change.filters) || Object.keys(change.filters).length === 0) return false;
    return changedPaths(rollouts(instance?.filters ?? {}), rollouts(change.filters)).length > 0;
  }
  const target = action === "feature_flag.enable";
  if (!instance) return target && (change.active ?? true) === true;
  return change.active === target && instance.active !== target;
}

function intent(action: ActionKey, instance: FeatureFlagRecord | undefined, change: Json): Json {
  const preconditions = { version: instance?.version ?? null, updated_at: instance?.updated_at ?? null };
  const base = {
    flag_id: instance?.id ?? null,
    flag_key: instance?.key ?? change.key ?? null,
    full_request_data: change,
    preconditions,
  };
  if (action === "feature_flag.update") {
    const before = rollouts(instance?.filters ?? {});
    const after = rollouts(change.filters);
    return {
      ...base,
      current_state: { rollout_percentage: before },
      gated_changes: { rollout_percentage: after },
      triggered_paths: changedPaths(before, after),
    };
  }
  return {
    ...base,
    current_state: { active: instance?.active ?? false },
    gated_changes: "active" in change ? { active: change.active } : {},
  };
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  ">": (a, b) => a > b,
  "<": (a, b) => a < b,
  ">=": (a, b) => a >= b,
  "<=": (a, b) => a <= b,
  "==": (a, b) => a === b,
  "!=": (a, b) => a !== b,
};

/** The policy engine's conditions: none gates every change; before_after, change_amount, any_change. */
function matches(policy: ApprovalPolicyRecord, data: Json): boolean {
  const c = policy.conditions;
  if (!c || Object.keys(c).length === 0) return true;
  const field = typeof c.field === "string" ? c.field : undefined;
  if (!field) return true;
  const byPath = (side: unknown) =>
    new Map(
      ((isDict(side) && Array.isArray(side[field]) ? side[field] : []) as Rollout[]).map((r) => [
        r.path,
        r.value,
      ]),
    );
  const before = byPath(data.current_state);
  const after = byPath(data.gated_changes);
  if (c.type === "any_change")
    return [...new Set([...before.keys(), ...after.keys()])].some((p) => before.get(p) !== after.get(p));
  const compare = COMPARE[String(c.operator)];
  if (!compare || typeof c.value !== "number") return true;
  const threshold = c.value;
  if (c.type === "before_after")
    return [...after.values()].some((v) => typeof v === "number" && compare(v, threshold));
  if (c.type === "change_amount") {
    return [...after.entries()].some(([p, v]) => {
      const old = before.get(p);
      return typeof v === "number" && typeof old === "number" && compare(v - old, threshold);
    });
  }
  return true;
}

function policiesFor(ctx: Ctx, action: ActionKey): ApprovalPolicyRecord[] {
  const all = ctx.store.data.approval_policies.filter(
    (p) => p.enabled && p.action_key === action && p.organization === ctx.org.id,
  );
  return [...all.filter((p) => p.team_id === ctx.project.id), ...all.filter((p) => p.team_id === null)];
}

export function renderChangeRequest(ctx: Ctx, cr: ChangeRequestRecord) {
  const creator = ctx.store.user(cr.created_by);
  const { encrypted_payloads: _ciphertext, ...intent } = cr.intent;
  return {
    id: cr.id,
    action_key: cr.action_key,
    action_version: 1,
    resource_type: cr.resource_type,
    resource_id: cr.resource_id,
    intent,
    intent_display: cr.intent_display,
    state: cr.state,
    created_by: creator ? userBasic(creator) : null,
    created_at: cr.created_at,
    expires_at: cr.expires_at,
    policy_snapshot: cr.policy_snapshot,
    approvals: cr.approvals.map((id) => ({ created_by: id, decision: "approved" })),
  };
}

/**
 * A change request never holds an encrypted payload in the clear (the service withholds it): the
 * requested change keeps the redacted sentinel, the ciphertext is kept beside it for the apply.
 */
function withheld(instance: FeatureFlagRecord | undefined, data: Json): Json {
  const change = data.full_request_data as Json;
  const encrypted =
    (change.has_encrypted_payloads as boolean | undefined) ?? instance?.has_encrypted_payloads;
  const filters = change.filters;
  if (!encrypted || !isDict(filters) || !isDict(filters.payloads)) return data;
  const ciphertext: Json = {};
  const payloads: Json = {};
  for (const [key, value] of Object.entries(filters.payloads)) {
    payloads[key] = REDACTED_PAYLOAD_VALUE;
    if (typeof value === "string" && value !== REDACTED_PAYLOAD_VALUE)
      ciphertext[key] = encryptPayload(value);
  }
  return {
    ...data,
    full_request_data: { ...change, filters: { ...filters, payloads } },
    encrypted_payloads: ciphertext,
  };
}

/**
 * Runs the gate for a create (`instance` undefined) or an update whose validated change is `change`
 * (`filters` already merged). Throws the service's 409 (or 400) when the write must not happen now.
 */
export function approvalGate(ctx: Ctx, instance: FeatureFlagRecord | undefined, change: Json): void {
  const actions: ActionKey[] = instance
    ? ["feature_flag.enable", "feature_flag.disable", "feature_flag.update"]
    : ["feature_flag.enable", "feature_flag.update"];
  const membership = ctx.user.organizations.find((m) => m.id === ctx.org.id);
  const bypassed = (p: ApprovalPolicyRecord) =>
    membership !== undefined && p.bypass_org_membership_levels.includes(LEVELS[membership.level]);
  // Every action the change trips under a policy whose conditions it meets; one change request can
  // carry one action's approval, so a change that trips several (enabling and rolling out at once,
  // or two policies of one action) is refused instead of half-gated.
  const hits: Array<{ action: ActionKey; policy: ApprovalPolicyRecord; data: Json }> = [];
  const held: ApprovalPolicyRecord[] = [];
  for (const action of actions) {
    if (!detects(action, instance, change)) continue;
    const data = intent(action, instance, change);
    const policies = policiesFor(ctx, action).filter((p) => matches(p, data) && !bypassed(p));
    held.push(...policies);
    if (policies[0]) hits.push({ action, policy: policies[0], data });
  }
  if (held.length > 1) {
    throw new ApiError(400, {
      code: "policy_conflict",
      error: "This change matches multiple approval policies",
      conflicting_policies: held.map((p) => ({ id: p.id, name: `${p.action_key} (${p.id})` })),
      guidance: "Split your changes into separate API calls to address each policy independently",
    });
  }
  const hit = hits[0];
  if (!hit) return;
  const { action, policy, data } = hit;
  const resourceId = instance ? String(instance.id) : null;
  const existing = ctx.store.data.change_requests.find(
    (cr) =>
      cr.action_key === action &&
      cr.team_id === ctx.project.id &&
      cr.resource_id === resourceId &&
      (cr.state === "pending" || cr.state === "approved"),
  );
  const reply = (cr: ChangeRequestRecord, code: string, message: string, approvers: unknown) =>
    new ApiError(409, {
      code,
      status: "approval_required",
      detail: message,
      message,
      resource_type: "feature_flag",
      resource_id: resourceId,
      change_request_id: cr.id,
      change_request: renderChangeRequest(ctx, cr),
      required_approvers: approvers,
    });
  if (existing) {
    throw reply(
      existing,
      "change_request_pending",
      "A pending approval request already exists for this action",
      {},
    );
  }
  const selfApprover = policy.approver_config.users?.includes(ctx.user.id) === true;
  const message =
    !policy.allow_self_approve && selfApprover
      ? "A change request has been created and is pending approval from others."
      : "A change request has been created and is pending approval.";
  const key = String(data.flag_key ?? "unknown");
  const verb =
    action === "feature_flag.enable"
      ? "Enable"
      : action === "feature_flag.disable"
        ? "Disable"
        : "Update rollout percentage for";
  const cr: ChangeRequestRecord = {
    id: randomUUID(),
    team_id: ctx.project.id,
    organization: ctx.org.id,
    action_key: action,
    resource_type: "feature_flag",
    resource_id: resourceId,
    intent: { ...withheld(instance, data), http_method: ctx.method },
    intent_display: { description: `${verb} feature flag '${key}'` },
    state: "pending",
    created_by: ctx.user.id,
    created_at: ctx.now.toISOString(),
    // The policy's `expires_after` was not found in the source read; two weeks is the emulator's choice.
    expires_at: new Date(ctx.now.getTime() + 14 * DAY).toISOString(),
    policy_snapshot: {
      quorum: policy.approver_config.quorum,
      users: policy.approver_config.users ?? [],
      allow_self_approve: policy.allow_self_approve,
    },
    approvals: [],
  };
  ctx.store.data.change_requests.push(cr);
  ctx.store.touch();
  throw reply(cr, "approval_required", message, policy.approver_config);
}
