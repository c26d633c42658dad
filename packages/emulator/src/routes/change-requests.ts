/**
 * `/api/projects/:project/change_requests/...` (products/approvals/backend/api.py): list (newest first;
 * `?state=` comma-separated, `?resource_id=`, `?action_key=`), retrieve and `approve`, scope object
 * `approvals`. An approval by one of the policy's approvers (anyone of the organization when it names
 * none; the requester only when the policy allows self-approval) counts towards the quorum; reaching it
 * applies the change as it was requested, unless the flag changed since (the request then fails).
 */
import { forbidden, notFound } from "../errors.js";
import { offsetPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import type { ChangeRequestRecord } from "../types.js";
import { renderChangeRequest } from "./flag-approvals.js";
import { decryptPayload } from "./flag-payloads.js";
import { renderFlag } from "./flag-view.js";
import { createFlag, updateFlag } from "./flag-write.js";

type Json = Record<string, unknown>;

const BASE = "/api/projects/:project/change_requests";

function list(ctx: Ctx) {
  const states = ctx.query.get("state")?.split(",");
  const resource = ctx.query.get("resource_id");
  const action = ctx.query.get("action_key");
  const items = ctx.store.data.change_requests
    .filter(
      (cr) =>
        cr.team_id === ctx.project.id &&
        (!states || states.includes(cr.state)) &&
        (resource === null || cr.resource_id === resource) &&
        (action === null || cr.action_key === action),
    )
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return { status: 200, body: offsetPage(ctx, items, (cr) => renderChangeRequest(ctx, cr)) };
}

function find(ctx: Ctx): ChangeRequestRecord {
  const cr = ctx.store.data.change_requests.find(
    (c) => c.id === ctx.params.id && c.team_id === ctx.project.id,
  );
  if (!cr) throw notFound();
  return cr;
}

function apply(ctx: Ctx, cr: ChangeRequestRecord) {
  const intent = cr.intent as {
    flag_id?: number | null;
    full_request_data?: Json;
    preconditions?: { version?: number | null };
    encrypted_payloads?: Record<string, string>;
  };
  const data = structuredClone(intent.full_request_data ?? {});
  // Withheld encrypted payloads go back in, as the plain text the write encrypts again.
  const filters = data.filters as Json | undefined;
  const payloads = filters?.payloads as Json | undefined;
  for (const [key, ciphertext] of Object.entries(intent.encrypted_payloads ?? {})) {
    if (payloads) payloads[key] = decryptPayload(ciphertext);
  }
  if (!intent.flag_id) {
    // Applying a create twice must not make a second flag: the one the first apply made stands.
    const made = ctx.store.data.feature_flags.find(
      (f) => f.team_id === ctx.project.id && f.key === data.key && !f.deleted,
    );
    return made ?? createFlag(ctx, data, { approved: true });
  }
  const flag = ctx.store.featureFlag(ctx.project.id, intent.flag_id);
  if (!flag || flag.version !== intent.preconditions?.version) return undefined;
  const { version: _version, ...body } = data;
  return updateFlag(ctx, flag, body, { partial: true, approved: true });
}

function approve(ctx: Ctx) {
  const cr = find(ctx);
  if (cr.state !== "pending") {
    return { status: 400, body: { error: "This change request can no longer be approved." } };
  }
  const { users, allow_self_approve } = cr.policy_snapshot;
  const approver = users.length === 0 || users.includes(ctx.user.id);
  if (!approver || (cr.created_by === ctx.user.id && !allow_self_approve)) {
    throw forbidden("You do not have permission to perform this action.");
  }
  if (cr.approvals.includes(ctx.user.id)) {
    return { status: 400, body: { error: "You have already voted on this change request." } };
  }
  cr.approvals.push(ctx.user.id);
  if (cr.approvals.length < cr.policy_snapshot.quorum) {
    return {
      status: 200,
      body: {
        status: "pending",
        message: "Approval recorded.",
        change_request: renderChangeRequest(ctx, cr),
      },
    };
  }
  const flag = apply(ctx, cr);
  cr.state = flag ? "applied" : "failed";
  const message = flag
    ? "Change request approved and applied."
    : "The flag changed since the change was requested.";
  return {
    status: 200,
    body: {
      status: cr.state,
      message,
      change_request: renderChangeRequest(ctx, cr),
      ...(flag ? { result: renderFlag(ctx, flag) } : {}),
    },
  };
}

export function registerChangeRequests(router: Router): void {
  router.add({ method: "GET", pattern: BASE, scope: "approvals:read", handler: list });
  router.add({
    method: "GET",
    pattern: `${BASE}/:id`,
    scope: "approvals:read",
    handler: (ctx) => ({ status: 200, body: renderChangeRequest(ctx, find(ctx)) }),
  });
  router.add({ method: "POST", pattern: `${BASE}/:id/approve`, scope: "approvals:write", handler: approve });
}
