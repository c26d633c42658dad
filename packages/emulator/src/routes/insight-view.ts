/**
 * How insights look from the outside (products/product_analytics/backend/api/insight.py): the basic
 * shape (`?basic=true` lists, `InsightBasicSerializer`) and the full one (`InsightSerializer`), each with
 * the query upgraded to the latest schema on the way out, `filters: {}` whenever there is a query, the
 * tiles that place it (`dashboard_tiles`, live tiles on live dashboards only) and the deprecated
 * `dashboards` ids. The emulator never computes results: every read is the service's cache-only read
 * of an insight nobody has computed (`result` null, `is_cached` false).
 */
import { createHash } from "node:crypto";
import { QueryUpgradeError, upgradeQuery } from "posthog-gitops-shared/queries/upgrade";
import { userAccessLevel } from "../access.js";
import { notFound, serverError } from "../errors.js";
import type { Ctx } from "../router.js";
import type { DashboardRecord, InsightRecord, SharingRecord, TileRecord } from "../types.js";
import { effectiveRestriction, privilegeLevel, userBasic } from "./dashboard-access.js";
import { applyDashboardFilters, queryFromFilters } from "./insight-filters.js";

/** The tiles placing an insight that the service's default manager sees: not deleted, on live dashboards. */
export function liveTilesOf(
  ctx: Ctx,
  insight: InsightRecord,
): Array<{ tile: TileRecord; dashboard: DashboardRecord }> {
  const out: Array<{ tile: TileRecord; dashboard: DashboardRecord }> = [];
  for (const dashboard of ctx.store.data.dashboards) {
    if (dashboard.deleted || dashboard.team_id !== insight.team_id) continue;
    for (const tile of dashboard.tiles) {
      if (tile.insight_id === insight.id && tile.deleted !== true) out.push({ tile, dashboard });
    }
  }
  return out.sort((a, b) => a.tile.id - b.tile.id);
}

/**
 * `get_connected_insight_ids`: the insights a sharing configuration opens, the shared insight, or the
 * insights on the shared dashboard's live tiles; none once the insight or dashboard is deleted.
 */
export function connectedInsightIds(ctx: Ctx, sharing: SharingRecord): Set<number> {
  const live = (id: number | null | undefined) =>
    ctx.store.data.insights.some((i) => i.id === id && !i.deleted);
  if (typeof sharing.insight_id === "number") {
    return new Set(live(sharing.insight_id) ? [sharing.insight_id] : []);
  }
  const dashboard = ctx.store.data.dashboards.find((d) => d.id === sharing.dashboard_id);
  if (!dashboard || dashboard.deleted) return new Set();
  return new Set(
    dashboard.tiles
      .filter((t) => t.deleted !== true && typeof t.insight_id === "number" && live(t.insight_id))
      .map((t) => t.insight_id as number),
  );
}

/** The insights of the project a request may reach: a sharing token's connected ones only. */
export function reachableInsights(ctx: Ctx, includeDeleted = false): InsightRecord[] {
  const connected =
    ctx.principal.kind === "sharing" ? connectedInsightIds(ctx, ctx.principal.sharing) : undefined;
  return ctx.store.data.insights.filter(
    (i) =>
      i.team_id === ctx.project.id && (includeDeleted || !i.deleted) && (!connected || connected.has(i.id)),
  );
}

/** A live insight of the current project by numeric id, else by short id (the service tries both). */
export function findInsight(ctx: Ctx, rawId: string | undefined, includeDeleted = false): InsightRecord {
  const pool = reachableInsights(ctx, includeDeleted);
  const id = rawId ?? "";
  const byPk = /^\d+$/.test(id) ? pool.find((i) => i.id === Number(id)) : undefined;
  const found = byPk ?? pool.find((i) => i.short_id === id);
  if (!found) throw notFound();
  return found;
}

/** The stored query, or the one the service derives from legacy filters, upgraded as every read does. */
function shownQuery(insight: InsightRecord): unknown {
  const stored =
    insight.query ?? (Object.keys(insight.filters).length > 0 ? queryFromFilters(insight.filters) : null);
  if (stored === null || stored === undefined) return null;
  try {
    return upgradeQuery(stored);
  } catch (error) {
    // The service's read fails on a query its migrations cannot handle.
    if (error instanceof QueryUpgradeError) throw serverError();
    throw error;
  }
}

/**
 * `should_serve_deprecated_dashboards_field`: always, unless the opt-in is enforced; then first-party
 * callers (a session, a sharing token) still get it and a personal API key only when it asks
 * `?include_dashboards=true`.
 */
function servesDashboardsField(ctx: Ctx): boolean {
  if (!ctx.store.data.service.insight_dashboards_opt_in_enforced) return true;
  if (ctx.principal.kind !== "key") return true;
  return /^(1|true|t|yes|y|on)$/i.test(ctx.query.get("include_dashboards") ?? "");
}

/** The caller's `user_access_level` on the insight (access.ts); null for a sharing token's visitor. */
function accessLevel(ctx: Ctx, insight: InsightRecord): string | null {
  return userAccessLevel(ctx, "insight", insight);
}

/** The cache key the service shows as `filters_hash`: it changes with the query and the dashboard context. */
function filtersHash(insight: InsightRecord, dashboard: DashboardRecord | undefined): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([insight.team_id, insight.query ?? insight.filters, dashboard?.filters ?? null]))
    .digest("hex");
  return `cache_${digest.slice(0, 32)}`;
}

export interface ViewOptions {
  /** Dashboard context (`?from_dashboard=` or a tile of a dashboard read). */
  dashboard?: DashboardRecord;
  /** The tile placing the insight in that context (its `filters_overrides` replace the dashboard's). */
  tile?: TileRecord;
  /** `?filters_override=` of the request, parsed. */
  filtersOverride?: Record<string, unknown>;
  /** After a PATCH of `dashboards`: the ids as the request gave them (the service echoes those). */
  dashboardsAfterChange?: number[];
  /** A list read: the service annotates `last_viewed_at` there only. */
  listed?: boolean;
}

export function renderInsightBasic(ctx: Ctx, insight: InsightRecord, options: ViewOptions = {}) {
  const tiles = liveTilesOf(ctx, insight);
  const creator = ctx.store.user(insight.created_by);
  const query = shownQuery(insight);
  const out: Record<string, unknown> = {
    id: insight.id,
    short_id: insight.short_id,
    name: insight.name,
    derived_name: insight.derived_name,
    filters: query !== null ? {} : structuredClone(insight.filters),
    query,
    dashboards: options.dashboardsAfterChange ?? tiles.map((t) => t.dashboard.id),
    dashboard_tiles: tiles.map(({ tile, dashboard }) => ({
      id: tile.id,
      dashboard_id: dashboard.id,
      deleted: tile.deleted ?? null,
    })),
    description: insight.description,
    last_refresh: null,
    refreshing: false,
    saved: insight.saved,
    tags: ctx.org.features.tagging ? [...insight.tags] : [],
    updated_at: insight.updated_at,
    created_by: creator ? userBasic(creator) : null,
    created_at: insight.created_at,
    last_modified_at: insight.last_modified_at,
    favorited: insight.favorited,
    user_access_level: accessLevel(ctx, insight),
    last_viewed_at: options.listed ? insight.last_viewed_at : null,
  };
  if (!servesDashboardsField(ctx)) delete out.dashboards;
  return out;
}

/**
 * The restriction an insight inherits from its dashboards (the service's `UserInsightPermissions`):
 * the highest effective level among them, and "can edit" when it is on no dashboard or the caller may
 * edit at least one of them.
 */
export function inheritedLevels(
  ctx: Ctx,
  insight: InsightRecord,
): { restriction: 21 | 37; privilege: 21 | 37 } {
  const dashboards = liveTilesOf(ctx, insight).map(({ dashboard }) => dashboard);
  const restriction = dashboards.some((d) => effectiveRestriction(ctx, d) === 37) ? 37 : 21;
  const privilege =
    dashboards.length === 0 || dashboards.some((d) => privilegeLevel(ctx, d) === 37) ? 37 : 21;
  return { restriction, privilege };
}

/** The filters a query is shown with in context: the tile's, else the request's override, else the dashboard's. */
function effectiveFilters(options: ViewOptions): Record<string, unknown> | undefined {
  const tileFilters = options.tile?.filters_overrides;
  if (tileFilters && Object.keys(tileFilters).length > 0) return tileFilters;
  return options.filtersOverride ?? options.dashboard?.filters;
}

export function renderInsight(ctx: Ctx, insight: InsightRecord, options: ViewOptions = {}) {
  const basic = renderInsightBasic(ctx, insight, options);
  const filters = effectiveFilters(options);
  // The stored query or the one derived from legacy filters (`query or query_from_filters`).
  if (basic.query !== null && filters !== undefined)
    basic.query = applyDashboardFilters(basic.query, filters);
  const lastModifier = ctx.store.user(insight.last_modified_by);
  // In a shared context (a sharing token) the service shows the most restricted levels, as its
  // dashboard serializer does in that context [inferred for insights].
  const levels =
    ctx.principal.kind === "sharing"
      ? { restriction: 37 as const, privilege: 21 as const }
      : inheritedLevels(ctx, insight);
  const out: Record<string, unknown> = {
    id: basic.id,
    short_id: basic.short_id,
    name: basic.name,
    derived_name: basic.derived_name,
    filters: basic.filters,
    query: basic.query,
    order: insight.order,
    deleted: insight.deleted,
    dashboards: basic.dashboards,
    dashboard_tiles: basic.dashboard_tiles,
    last_refresh: null,
    cache_target_age: null,
    next_allowed_client_refresh: null,
    result: null,
    hasMore: null,
    columns: null,
    created_at: basic.created_at,
    created_by: basic.created_by,
    description: basic.description,
    updated_at: basic.updated_at,
    tags: basic.tags,
    favorited: basic.favorited,
    saved: basic.saved,
    last_modified_at: basic.last_modified_at,
    last_modified_by: lastModifier ? userBasic(lastModifier) : null,
    is_sample: insight.is_sample,
    effective_restriction_level: levels.restriction,
    effective_privilege_level: levels.privilege,
    user_access_level: basic.user_access_level,
    timezone: null,
    is_cached: false,
    query_status: null,
    hogql: null,
    types: null,
    resolved_date_range: null,
    alerts: [],
    filter_override_context: null,
    last_viewed_at: basic.last_viewed_at,
    filters_hash: filtersHash(insight, options.dashboard),
  };
  if (!("dashboards" in basic)) delete out.dashboards;
  return out;
}
