/**
 * `/api/projects/:project/feature_flags/...` (service-api.md §10): list (limit/offset, newest first,
 * without deleted flags and, unless `?archived=` is given, without archived ones; `?key=` exact and
 * case-insensitive, `search`, `active`, `type`, `evaluation_runtime`, `tags`, `excluded_properties`),
 * create, retrieve and PATCH / PUT (soft-deleted flags included), DELETE → 405 with an empty body,
 * `dependent_flags`, `bulk_keys`, and the lifecycle actions `enable` / `disable` / `archive` /
 * `unarchive`, which change only the state fields and refuse a soft-deleted flag. Access control rules
 * apply per flag as for every resource (access.ts, the service's `AccessControlViewSetMixin`): the list
 * leaves out the flags a rule denies, a read needs `viewer` and a write or lifecycle action `editor`
 * (403 otherwise).
 */

import { filterByAccess, requireAccess } from "../access.js";
import { asBody } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { addModelWrites, type Ctx, type Router } from "../router.js";
import type { FeatureFlagRecord } from "../types.js";
import { registerBulkActions } from "./flag-bulk.js";
import { dependentFlags } from "./flag-filters.js";
import { applyFilters, listableFlags, sortFlags } from "./flag-query.js";
import { flagStatus, rolloutSummary } from "./flag-status.js";
import { findFlag, renderFlag } from "./flag-view.js";
import { createFlag, updateFlag } from "./flag-write.js";

const BASE = "/api/projects/:project/feature_flags";

/** A flag of the `:id` route parameter the caller may reach at `level` (403 otherwise, as the service's permission). */
function controlledFlag(ctx: Ctx, level: "viewer" | "editor"): FeatureFlagRecord {
  const flag = findFlag(ctx);
  requireAccess(ctx, "feature_flag", flag, level);
  return flag;
}

function list(ctx: Ctx) {
  const filters = [...ctx.query];
  // Organization admins list every flag, even one a rule hides from everyone (`include_all_if_admin`).
  const items = sortFlags(
    ctx,
    applyFilters(ctx, filterByAccess(ctx, "feature_flag", listableFlags(ctx, filters), true), filters),
  );
  return { status: 200, body: offsetPage(ctx, items, (f) => renderFlag(ctx, f, true)) };
}

function create(ctx: Ctx) {
  return { status: 201, body: renderFlag(ctx, createFlag(ctx, asBody(ctx.body))) };
}

function update(ctx: Ctx, partial: boolean) {
  const flag = updateFlag(ctx, controlledFlag(ctx, "editor"), asBody(ctx.body), { partial });
  return { status: 200, body: renderFlag(ctx, flag) };
}

/** The lifecycle actions answer a deleted flag with the service's ad-hoc body, not an error object. */
function deletedRefusal(flag: FeatureFlagRecord, doing: string) {
  if (!flag.deleted) return undefined;
  return {
    status: 400,
    body: { success: false, error: `This feature flag has been deleted. Restore it before ${doing}.` },
  };
}

function setActive(ctx: Ctx, active: boolean) {
  const flag = controlledFlag(ctx, "editor");
  const refusal = deletedRefusal(flag, active ? "enabling it" : "disabling it");
  if (refusal) return refusal;
  if (flag.active !== active)
    updateFlag(ctx, flag, { active }, { partial: true, lifecycle: { disableWording: "disable" } });
  return { status: 200, body: renderFlag(ctx, flag) };
}

function archive(ctx: Ctx, archived: boolean) {
  const flag = controlledFlag(ctx, "editor");
  const refusal = deletedRefusal(flag, archived ? "archiving it" : "unarchiving it");
  if (refusal) return refusal;
  if (flag.archived !== archived) {
    // Archiving an enabled flag disables it in the same write (an archived flag must be disabled).
    const body = archived && flag.active ? { archived, active: false } : { archived };
    updateFlag(ctx, flag, body, { partial: true, lifecycle: { disableWording: "disable" } });
  }
  return { status: 200, body: renderFlag(ctx, flag) };
}

/** `GET …/:id/status`: the checker's verdict on one flag, with its rollout summary. */
function statusOf(ctx: Ctx) {
  const flag = controlledFlag(ctx, "viewer");
  const { status, reason, reasonStatesRollout } = flagStatus(flag, ctx.now);
  return {
    status: 200,
    body: { status, reason, reason_states_rollout: reasonStatesRollout, rollout: rolloutSummary(flag) },
  };
}

function dependents(ctx: Ctx) {
  const flag = controlledFlag(ctx, "viewer");
  return {
    status: 200,
    body: dependentFlags(ctx, flag).map((f) => ({ id: f.id, key: f.key, name: f.name || f.key })),
  };
}

export function registerFeatureFlags(router: Router): void {
  const read = "feature_flag:read";
  const write = "feature_flag:write";
  router.add({ method: "GET", pattern: BASE, scope: read, handler: list });
  router.add({ method: "POST", pattern: BASE, scope: write, handler: create });
  registerBulkActions(router, BASE);
  router.add({
    method: "GET",
    pattern: `${BASE}/:id`,
    scope: read,
    handler: (ctx) => ({ status: 200, body: renderFlag(ctx, controlledFlag(ctx, "viewer"), true) }),
  });
  addModelWrites(router, `${BASE}/:id`, { scope: write }, update);
  router.add({ method: "GET", pattern: `${BASE}/:id/dependent_flags`, scope: read, handler: dependents });
  router.add({ method: "GET", pattern: `${BASE}/:id/status`, scope: read, handler: statusOf });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/enable`,
    scope: write,
    handler: (ctx) => setActive(ctx, true),
  });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/disable`,
    scope: write,
    handler: (ctx) => setActive(ctx, false),
  });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/archive`,
    scope: write,
    handler: (ctx) => archive(ctx, true),
  });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/unarchive`,
    scope: write,
    handler: (ctx) => archive(ctx, false),
  });
}
