/**
 * How dashboards look from the outside: the Basic (list) and full (retrieve/create/update) shapes. The
 * permission rules they depend on are in dashboard-access.ts.
 */
import { userAccessLevel } from "../access.js";
import type { Ctx } from "../router.js";
import { isNewest } from "../service.js";
import type { DashboardRecord } from "../types.js";
import { effectiveRestriction, isShared, privilegeLevel, userBasic } from "./dashboard-access.js";
import { renderTiles } from "./tiles.js";

/** The caller's latest view of the dashboard in its team (the file-system view log), or null. */
function lastViewedAt(ctx: Ctx, d: DashboardRecord): string | null {
  const views = ctx.store.data.view_logs
    .filter(
      (v) =>
        v.team_id === d.team_id && v.user === ctx.user.id && v.type === "dashboard" && v.ref === String(d.id),
    )
    .map((v) => v.viewed_at)
    .sort();
  return views.at(-1) ?? null;
}

export function renderBasic(ctx: Ctx, d: DashboardRecord) {
  const creator = ctx.store.user(d.created_by);
  const privilege = privilegeLevel(ctx, d);
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    pinned: d.pinned,
    created_at: d.created_at,
    created_by: creator ? userBasic(creator) : null,
    last_accessed_at: d.last_accessed_at,
    last_viewed_at: lastViewedAt(ctx, d),
    is_shared: isShared(ctx, d),
    deleted: d.deleted,
    creation_mode: d.creation_mode,
    tags: ctx.org.features.tagging ? [...d.tags] : [],
    restriction_level: d.restriction_level,
    effective_restriction_level: effectiveRestriction(ctx, d),
    effective_privilege_level: privilege,
    user_access_level: userAccessLevel(ctx, "dashboard", d),
    access_control_version: d.restriction_level > 21 ? "v1" : "v2",
    last_refresh: d.last_refresh,
    team_id: d.team_id,
    ...(isNewest(ctx.store) ? { folder: d.folder } : {}),
  };
}

export function renderDashboard(ctx: Ctx, d: DashboardRecord) {
  return {
    ...renderBasic(ctx, d),
    filters: structuredClone(d.filters),
    variables: structuredClone(d.variables),
    breakdown_colors: structuredClone(d.breakdown_colors),
    data_color_theme_id: d.data_color_theme_id,
    // get_persisted_filters / get_persisted_variables: the stored value when truthy, else null.
    persisted_filters: Object.keys(d.filters).length > 0 ? structuredClone(d.filters) : null,
    persisted_variables: Object.keys(d.variables).length > 0 ? structuredClone(d.variables) : null,
    quick_filter_ids: [...d.quick_filter_ids],
    tiles: renderTiles(ctx, d),
  };
}
