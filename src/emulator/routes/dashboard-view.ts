/**
 * How dashboards look from the outside: the Basic (list) and full (retrieve/create/update) shapes, and
 * the permission rules they depend on (effective restriction needs the organization feature
 * `access_control`, or `advanced_permissions` under the 2025 rules; creator and project admins have
 * inherent access; otherwise explicit collaborators with level 37 may edit).
 */
import { forbidden, notFound } from "../errors.js";
import type { Ctx } from "../router.js";
import { isNewest } from "../service.js";
import type { DashboardRecord, TileRecord, UserRecord } from "../types.js";

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
  return d.created_by === user.id || ctx.store.isProjectAdmin(user, ctx.project);
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
    user_access_level: privilege === 37 ? "editor" : "viewer",
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
    tiles: d.tiles.filter((t) => !t.deleted).map((t, order) => renderTile(ctx, d, t, order)),
  };
}

/**
 * A text card (TextSerializer): its author and last editor as UserBasic (null when the service set
 * none), the team, and every live tile that shows it (`dashboard_tiles`, DashboardTileBasicSerializer).
 * A seeded card without an id takes its tile's.
 */
function renderText(ctx: Ctx, d: DashboardRecord, t: TileRecord) {
  const text = t.text as Record<string, unknown>;
  const id = typeof text.id === "number" ? text.id : t.id;
  const person = (value: unknown) => {
    const user = typeof value === "number" ? ctx.store.user(value) : undefined;
    return user ? userBasic(user) : null;
  };
  const tiles = ctx.store.data.dashboards.flatMap((x) =>
    x.tiles
      .filter((y) => !y.deleted && y.text && (y.text.id ?? y.id) === id)
      .map((y) => ({ id: y.id, dashboard_id: x.id, deleted: null })),
  );
  return {
    id,
    body: text.body ?? null,
    created_by: person(text.created_by),
    last_modified_at: typeof text.last_modified_at === "string" ? text.last_modified_at : d.created_at,
    last_modified_by: person(text.last_modified_by),
    team: d.team_id,
    dashboard_tiles: tiles,
  };
}

/**
 * A tile as DashboardTileSerializer shows it: every model field but the dashboard, `deleted` and the
 * caching ones, plus `order` (its position) and the insight's `last_refresh` / `is_cached` (a tile
 * without a computed insight: null and false).
 */
export function renderTile(ctx: Ctx, d: DashboardRecord, t: TileRecord, order: number) {
  return {
    id: t.id,
    insight: t.insight ?? null,
    text: t.text ? renderText(ctx, d, t) : null,
    button_tile: null,
    layouts: t.layouts,
    color: t.color,
    filters_overrides: t.filters_overrides ?? {},
    show_description: t.show_description ?? null,
    transparent_background: t.transparent_background ?? null,
    order,
    last_refresh: null,
    is_cached: false,
  };
}
