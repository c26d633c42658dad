/**
 * Who may do what with a dashboard (effective restriction needs the organization feature
 * `access_control`, or `advanced_permissions` under the 2025 rules; creator and project admins have
 * inherent access; otherwise explicit collaborators with level 37 may edit), how a dashboard is found,
 * and how a user is shown (UserBasicSerializer). The views of dashboards, insights and tiles all read
 * these, so they sit below them.
 */
import { isProjectAdmin } from "../access.js";
import { forbidden, notFound } from "../errors.js";
import type { Ctx } from "../router.js";
import { isNewest } from "../service.js";
import type { DashboardRecord, UserRecord } from "../types.js";

export function userBasic(user: UserRecord) {
  return {
    id: user.id,
    uuid: user.uuid,
    distinct_id: user.uuid,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    is_email_verified: true,
    hedgehog_config: null,
    role_at_organization: null,
  };
}

/** The feature that makes restriction level 37 effective: ACCESS_CONTROL newest, ADVANCED_PERMISSIONS older. */
export function restrictionFeature(ctx: Ctx): boolean {
  return isNewest(ctx.store) ? ctx.org.features.access_control : ctx.org.features.advanced_permissions;
}

export function effectiveRestriction(ctx: Ctx, d: DashboardRecord): 21 | 37 {
  return restrictionFeature(ctx) ? d.restriction_level : 21;
}

/** Creator or project admin: may change restriction level and is never a collaborator. */
export function canRestrict(ctx: Ctx, d: DashboardRecord, user: UserRecord = ctx.user): boolean {
  return d.created_by === user.id || isProjectAdmin(ctx.store, user, ctx.project);
}

export function privilegeLevel(ctx: Ctx, d: DashboardRecord): 21 | 37 {
  if (effectiveRestriction(ctx, d) === 21 || canRestrict(ctx, d)) return 37;
  const explicit = ctx.store.data.collaborators.find(
    (c) => c.dashboard_id === d.id && c.user === ctx.user.id,
  );
  return explicit?.level ?? 21;
}

export function requireEdit(ctx: Ctx, d: DashboardRecord): void {
  if (privilegeLevel(ctx, d) < 37) throw forbidden("You don't have edit permissions for this dashboard.");
}

/** A live dashboard of the current project, or 404 with the given detail. */
export function findDashboard(ctx: Ctx, rawId: string | undefined, detail = "Not found."): DashboardRecord {
  const id = rawId !== undefined && /^\d+$/.test(rawId) ? Number(rawId) : Number.NaN;
  const d = ctx.store.dashboard(ctx.project.id, id);
  if (!d) throw notFound(detail);
  return d;
}

export function isShared(ctx: Ctx, d: DashboardRecord): boolean {
  return ctx.store.data.sharing.some((s) => s.dashboard_id === d.id && s.enabled);
}
