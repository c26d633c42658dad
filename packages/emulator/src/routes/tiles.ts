/**
 * Dashboard tiles as the service shows them (products/dashboards/backend/api/dashboard.py
 * `DashboardTileSerializer`, `get_tiles`; models/dashboard_tile.py): an insight tile carries the full
 * insight (in the dashboard's context), a text tile its text card with the card's author and the tiles
 * showing it. A dashboard read lists its live tiles whose insight is not deleted, ordered by their
 * `sm` layout (row, then column; a tile without one sorts as row 100, column 100), each with its
 * `order` in that list.
 */
import { serverError } from "../errors.js";
import { isDict } from "../fields.js";
import type { Ctx } from "../router.js";
import type { DashboardRecord, InsightRecord, TextRecord, TileRecord } from "../types.js";
import { userBasic } from "./dashboard-access.js";
import { renderInsight } from "./insight-view.js";

/** A new tile row: nullable columns null, no layout (API-added tiles get `layouts: {}`). */
export function newTile(ctx: Ctx, fields: Partial<TileRecord>): TileRecord {
  return {
    id: ctx.store.nextTileId(),
    insight_id: null,
    text: null,
    layouts: {},
    color: null,
    deleted: null,
    show_description: null,
    transparent_background: null,
    filters_overrides: {},
    ...fields,
  };
}

export function tileInsight(ctx: Ctx, tile: TileRecord): InsightRecord | undefined {
  if (typeof tile.insight_id !== "number") return undefined;
  return ctx.store.data.insights.find((i) => i.id === tile.insight_id);
}

/** The text card of a tile, completed when it came from an older seed or a template. */
export function textOf(tile: TileRecord, d: DashboardRecord): TextRecord | undefined {
  const text = tile.text;
  if (!isDict(text)) return undefined;
  return {
    id: typeof text.id === "number" ? text.id : tile.id,
    body: typeof text.body === "string" || text.body === null ? (text.body as string | null) : null,
    created_by: typeof text.created_by === "number" ? text.created_by : null,
    last_modified_at: typeof text.last_modified_at === "string" ? text.last_modified_at : d.created_at,
    last_modified_by: typeof text.last_modified_by === "number" ? text.last_modified_by : null,
  };
}

/** Tiles a dashboard read shows: not deleted, and not placing a deleted insight. */
export function visibleTiles(ctx: Ctx, d: DashboardRecord): TileRecord[] {
  return d.tiles.filter((t) => {
    if (t.deleted === true) return false;
    const insight = tileInsight(ctx, t);
    return insight === undefined || !insight.deleted;
  });
}

/** Python's `<` on the two layout keys: numbers with numbers, text with text, else a TypeError. */
function compareKey(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (a === b) return 0;
  throw serverError();
}

function layoutKey(tile: TileRecord, size: string): [unknown, unknown] {
  const layout = isDict(tile.layouts) && isDict(tile.layouts[size]) ? tile.layouts[size] : {};
  return [layout.y ?? 100, layout.x ?? 100];
}

/** `DashboardTile.sort_tiles_by_layout`: a stable sort by (y, x), missing values counting as 100. */
export function sortTilesByLayout(tiles: readonly TileRecord[], size = "sm"): TileRecord[] {
  return [...tiles].sort((a, b) => {
    const [ay, ax] = layoutKey(a, size);
    const [by, bx] = layoutKey(b, size);
    return compareKey(ay, by) || compareKey(ax, bx);
  });
}

/** The order the service's query gives before the layout sort: by the insight's `order`, nulls last. */
function queryOrder(ctx: Ctx, tiles: readonly TileRecord[]): TileRecord[] {
  const order = (t: TileRecord) => tileInsight(ctx, t)?.order ?? Number.POSITIVE_INFINITY;
  return [...tiles].sort((a, b) => order(a) - order(b) || a.id - b.id);
}

export function renderText(ctx: Ctx, text: TextRecord, d: DashboardRecord) {
  const creator = ctx.store.user(text.created_by);
  const modifier = ctx.store.user(text.last_modified_by);
  const showing: Array<{ id: number; dashboard_id: number; deleted: boolean | null }> = [];
  for (const other of ctx.store.data.dashboards) {
    if (other.deleted || other.team_id !== d.team_id) continue;
    for (const t of other.tiles) {
      if (t.deleted !== true && textOf(t, other)?.id === text.id) {
        showing.push({ id: t.id, dashboard_id: other.id, deleted: t.deleted ?? null });
      }
    }
  }
  return {
    id: text.id,
    body: text.body,
    created_by: creator ? userBasic(creator) : null,
    last_modified_at: text.last_modified_at,
    last_modified_by: modifier ? userBasic(modifier) : null,
    team: d.team_id,
    dashboard_tiles: showing.sort((a, b) => a.id - b.id),
  };
}

/** One tile as `DashboardTileSerializer` writes it; `order` is its place in the dashboard read, if any. */
export function renderTile(ctx: Ctx, tile: TileRecord, d: DashboardRecord, order: number | null) {
  const insight = tileInsight(ctx, tile);
  const text = textOf(tile, d);
  let renderedInsight: unknown = null;
  if (insight) renderedInsight = renderInsight(ctx, insight, { dashboard: d, tile });
  else if (isDict(tile.insight)) renderedInsight = structuredClone(tile.insight);
  return {
    id: tile.id,
    insight: renderedInsight,
    text: text ? renderText(ctx, text, d) : null,
    button_tile: null,
    layouts: structuredClone(tile.layouts ?? {}),
    color: tile.color ?? null,
    filters_overrides: structuredClone(tile.filters_overrides ?? {}),
    show_description: tile.show_description ?? null,
    transparent_background: tile.transparent_background ?? null,
    order,
    last_refresh: null,
    is_cached: false,
  };
}

/** A dashboard's `tiles` in a retrieve, create or update answer. */
export function renderTiles(ctx: Ctx, d: DashboardRecord) {
  return sortTilesByLayout(queryOrder(ctx, visibleTiles(ctx, d))).map((tile, order) =>
    renderTile(ctx, tile, d, order),
  );
}

/**
 * A dashboard's soft delete with `delete_insights: true` also soft-deletes the insights shown on no
 * other dashboard (`_delete_related_tiles`; its tiles are hidden by the dashboard's own rule).
 */
export function deleteInsightsOnlyHere(ctx: Ctx, d: DashboardRecord): void {
  for (const tile of d.tiles) {
    const insight = tile.deleted === true ? undefined : tileInsight(ctx, tile);
    if (!insight || insight.deleted) continue;
    const elsewhere = ctx.store.data.dashboards.some(
      (other) =>
        other.id !== d.id && other.tiles.some((t) => t.insight_id === insight.id && t.deleted !== true),
    );
    if (!elsewhere) insight.deleted = true;
  }
}

/** Restoring a dashboard restores the soft-deleted insights its tiles show (`_undo_delete_related_tiles`). */
export function restoreInsightsOf(ctx: Ctx, d: DashboardRecord): void {
  for (const tile of d.tiles) {
    const insight = tileInsight(ctx, tile);
    if (insight?.deleted) insight.deleted = false;
  }
}
