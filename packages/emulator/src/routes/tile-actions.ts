/**
 * The newest service's tile endpoints on a dashboard (products/dashboards/backend/api/dashboard.py):
 * `create_text_tile` (201, the new tile), `update_text_tile` (its body, layouts or colour),
 * `delete_tile` (a soft delete of any tile, 204, after which the remaining tiles are pulled up to close
 * the gap, per breakpoint, as the dashboard grid does), `update_tile` (display settings of an insight
 * tile) and `reorder_tiles` (repacks positions in a given order). Each needs edit rights on a live
 * dashboard of the project; a tile of another dashboard, or one already deleted, is a 404.
 */
import { requireAccess } from "../access.js";
import { ApiError, collectInvalid, forbidden, invalid, notFound, required } from "../errors.js";
import { asBody, isDict, parseBool, parseChoice, parseInteger, parseString } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { DashboardRecord, TileRecord } from "../types.js";
import { findDashboard, privilegeLevel } from "./dashboard-access.js";
import { textBody } from "./tile-write.js";
import { newTile, renderTile, sortTilesByLayout, textOf } from "./tiles.js";

const BASE = "/api/projects/:project/dashboards/:id";

function editableDashboard(ctx: Ctx): DashboardRecord {
  const d = findDashboard(ctx, ctx.params.id);
  requireAccess(ctx, "dashboard", d, "editor");
  if (privilegeLevel(ctx, d) < 37) throw forbidden("You don't have edit permissions for this dashboard.");
  return d;
}

/** `get_object_or_404(DashboardTile, ...)`: a live tile of this dashboard. */
function liveTile(d: DashboardRecord, id: number): TileRecord {
  const tile = d.tiles.find((t) => t.id === id && t.deleted !== true);
  if (!tile) throw notFound("No DashboardTile matches the given query.");
  return tile;
}

function tileId(body: Record<string, unknown>): number {
  if (!("tile_id" in body)) throw required("tile_id");
  const id = parseInteger(body.tile_id, "tile_id");
  if (id === null) throw invalid("This field may not be null.", "tile_id", "null");
  return id;
}

/** `TileLayoutsSerializer`: only `sm` and `xs`, each only `x`, `y`, `w`, `h` as integers. */
function parseLayouts(value: unknown): Record<string, unknown> {
  if (!isDict(value)) {
    throw invalid(
      `Invalid data. Expected a dictionary, but got ${Array.isArray(value) ? "list" : typeof value === "string" ? "str" : "NoneType"}.`,
      "layouts",
    );
  }
  const out: Record<string, unknown> = {};
  for (const size of ["sm", "xs"] as const) {
    if (!(size in value)) continue;
    const box = value[size];
    if (!isDict(box)) throw invalid("Invalid data. Expected a dictionary, but got str.", `layouts__${size}`);
    const parsed: Record<string, number> = {};
    for (const k of ["x", "y", "w", "h"] as const) {
      if (!(k in box)) continue;
      const n = parseInteger(box[k], `layouts__${size}__${k}`);
      if (n === null) throw invalid("This field may not be null.", `layouts__${size}__${k}`, "null");
      parsed[k] = n;
    }
    out[size] = parsed;
  }
  return out;
}

/** A text body as these endpoints' serializers take it: trimmed, never blank, at most 4,000 characters. */
function requiredBody(value: unknown): string {
  if (value === null) throw invalid("This field may not be null.", "body", "null");
  const text = typeof value === "string" ? value.trim() : value;
  if (text === "") throw invalid("This field may not be blank.", "body", "blank");
  return textBody(text, "body") ?? "";
}

function createTextTile(ctx: Ctx) {
  const d = editableDashboard(ctx);
  const body = asBody(ctx.body);
  let text = "";
  let layouts: Record<string, unknown> | undefined;
  let color: string | null | undefined;
  const steps = collectInvalid();
  steps.step(() => {
    if (!("body" in body)) throw required("body");
    text = requiredBody(body.body);
  });
  if ("layouts" in body) steps.step(() => (layouts = parseLayouts(body.layouts)));
  if ("color" in body)
    steps.step(() => (color = parseString(body.color, "color", { nullable: true, maxLength: 400 })));
  steps.done();
  const tile = newTile(ctx, {
    text: {
      id: ctx.store.nextTextId(),
      body: text,
      created_by: ctx.user.id,
      last_modified_at: ctx.now.toISOString(),
      last_modified_by: null,
    },
    ...(layouts !== undefined ? { layouts } : {}),
    ...(color !== undefined ? { color } : {}),
  });
  d.tiles.push(tile);
  return { status: 201, body: renderTile(ctx, tile, d, null) };
}

function updateTextTile(ctx: Ctx) {
  const d = editableDashboard(ctx);
  const body = asBody(ctx.body);
  let id = 0;
  let text: string | undefined;
  let layouts: Record<string, unknown> | undefined;
  let color: string | null | undefined;
  const steps = collectInvalid();
  steps.step(() => (id = tileId(body)));
  if ("body" in body) steps.step(() => (text = requiredBody(body.body)));
  if ("layouts" in body) steps.step(() => (layouts = parseLayouts(body.layouts)));
  if ("color" in body)
    steps.step(() => (color = parseString(body.color, "color", { nullable: true, maxLength: 400 })));
  steps.done();
  const tile = liveTile(d, id);
  const current = textOf(tile, d);
  if (!current) throw invalid("Tile is not a text tile.");
  tile.text = {
    ...current,
    ...(text !== undefined ? { body: text } : {}),
    last_modified_by: ctx.user.id,
    last_modified_at: ctx.now.toISOString(),
  };
  if (layouts !== undefined) tile.layouts = layouts;
  if (color !== undefined) tile.color = color;
  return { status: 200, body: renderTile(ctx, tile, d, null) };
}

function overlaps(a: Record<string, number>, b: Record<string, number>): boolean {
  return !(
    (a.x ?? 0) + (a.w ?? 0) <= (b.x ?? 0) ||
    (b.x ?? 0) + (b.w ?? 0) <= (a.x ?? 0) ||
    (a.y ?? 0) + (a.h ?? 0) <= (b.y ?? 0) ||
    (b.y ?? 0) + (b.h ?? 0) <= (a.y ?? 0)
  );
}

/**
 * `_compact_tile_layouts`: per breakpoint, tiles keep x, w and h and drop to the lowest free row,
 * in layout order, jumping past the tiles they would collide with.
 */
export function compactLayouts(tiles: readonly TileRecord[]): void {
  const breakpoints = new Set<string>();
  for (const t of tiles) if (isDict(t.layouts)) for (const k of Object.keys(t.layouts)) breakpoints.add(k);
  for (const size of breakpoints) {
    const entries = tiles.filter((t) => isDict(t.layouts) && isDict(t.layouts[size]));
    const placed: Array<Record<string, number>> = [];
    for (const tile of sortTilesByLayout(entries, size)) {
      const layout = tile.layouts[size] as Record<string, unknown>;
      const num = (v: unknown, fallback: number) => (typeof v === "number" ? v : fallback);
      const rect = { x: num(layout.x, 0), y: num(layout.y, 0), w: num(layout.w, 1), h: num(layout.h, 1) };
      let y = 0;
      for (let guard = 0; guard <= placed.length; guard++) {
        const collisions = placed.filter((p) => overlaps({ ...rect, y }, p));
        if (collisions.length === 0) break;
        y = Math.max(...collisions.map((p) => (p.y ?? 0) + (p.h ?? 0)));
      }
      placed.push({ ...rect, y });
      if (y !== (layout.y ?? 0)) layout.y = y;
    }
  }
}

function deleteTile(ctx: Ctx) {
  const d = editableDashboard(ctx);
  const body = asBody(ctx.body);
  const tile = liveTile(d, tileId(body));
  tile.deleted = true;
  compactLayouts(d.tiles.filter((t) => t.deleted !== true));
  return { status: 204 };
}

function updateTile(ctx: Ctx) {
  const d = editableDashboard(ctx);
  const body = asBody(ctx.body);
  const changes: Partial<TileRecord> = {};
  let id = 0;
  const steps = collectInvalid();
  steps.step(() => (id = tileId(body)));
  if ("show_description" in body)
    steps.step(() => (changes.show_description = parseBool(body.show_description, "show_description")));
  if ("transparent_background" in body) {
    steps.step(
      () =>
        (changes.transparent_background = parseBool(
          body.transparent_background,
          "transparent_background",
          true,
        )),
    );
  }
  if ("color" in body)
    steps.step(() => (changes.color = parseString(body.color, "color", { nullable: true, maxLength: 400 })));
  if ("layouts" in body) steps.step(() => (changes.layouts = parseLayouts(body.layouts)));
  steps.done();
  const tile = liveTile(d, id);
  if (textOf(tile, d) !== undefined) throw invalid("Text tiles are updated with update_text_tile.");
  Object.assign(tile, changes);
  return { status: 200, body: renderTile(ctx, tile, d, null) };
}

const REORDER_WIDTH = 6;
const REORDER_HEIGHT = 5;
const GRID_COLUMNS = 12;

/** `_apply_reorder_layout`: repack the tiles in `order` (`preserve` keeps sizes, the others set them). */
function applyReorder(order: readonly TileRecord[], mode: "preserve" | "two_column" | "full_width"): void {
  if (mode === "two_column") {
    order.forEach((tile, i) => {
      const row = Math.floor(i / 2);
      tile.layouts = {
        sm: { x: (i % 2) * REORDER_WIDTH, y: row * REORDER_HEIGHT, w: REORDER_WIDTH, h: REORDER_HEIGHT },
        xs: { x: 0, y: i * REORDER_HEIGHT, w: 1, h: REORDER_HEIGHT },
      };
    });
    return;
  }
  if (mode === "full_width") {
    order.forEach((tile, i) => {
      const y = i * REORDER_HEIGHT;
      tile.layouts = {
        sm: { x: 0, y, w: GRID_COLUMNS, h: REORDER_HEIGHT },
        xs: { x: 0, y, w: 1, h: REORDER_HEIGHT },
      };
    });
    return;
  }
  const heights = new Array<number>(GRID_COLUMNS).fill(0);
  let xsY = 0;
  for (const tile of order) {
    const sm = isDict(tile.layouts) && isDict(tile.layouts.sm) ? tile.layouts.sm : {};
    const ew = typeof sm.w === "number" && Number.isInteger(sm.w) && sm.w > 0 ? sm.w : REORDER_WIDTH;
    const eh = typeof sm.h === "number" && Number.isInteger(sm.h) && sm.h > 0 ? sm.h : REORDER_HEIGHT;
    const w = Math.max(1, Math.min(ew, GRID_COLUMNS));
    const h = Math.max(1, eh);
    let bestX = 0;
    let bestY = Math.max(...heights.slice(0, w));
    for (let x = 1; x <= GRID_COLUMNS - w; x++) {
      const top = Math.max(...heights.slice(x, x + w));
      if (top < bestY) {
        bestX = x;
        bestY = top;
      }
    }
    tile.layouts = { sm: { x: bestX, y: bestY, w, h }, xs: { x: 0, y: xsY, w: 1, h } };
    for (let k = bestX; k < bestX + w; k++) heights[k] = bestY + h;
    xsY += h;
  }
}

function reorderTiles(ctx: Ctx): DashboardRecord {
  const d = editableDashboard(ctx);
  const body = asBody(ctx.body);
  let ids: number[] = [];
  let mode: "preserve" | "two_column" | "full_width" = "preserve";
  const steps = collectInvalid();
  steps.step(() => {
    if (!("tile_order" in body)) throw required("tile_order");
    const list = body.tile_order;
    if (!Array.isArray(list))
      throw invalid(
        `Expected a list of items but got type "${typeof list === "string" ? "str" : "dict"}".`,
        "tile_order",
        "not_a_list",
      );
    if (list.length < 1)
      throw invalid("Ensure this field has at least 1 elements.", "tile_order", "min_length");
    ids = list.map((v) => parseInteger(v, "tile_order") ?? 0);
  });
  if ("layout" in body)
    steps.step(
      () => (mode = parseChoice(body.layout, "layout", ["preserve", "two_column", "full_width"] as const)),
    );
  steps.done();
  if (new Set(ids).size !== ids.length) {
    throw new ApiError(400, { detail: "tile_order must contain unique tile IDs" });
  }
  const live = new Map(d.tiles.filter((t) => t.deleted !== true).map((t) => [t.id, t]));
  const missing = ids.filter((id) => !live.has(id)).sort((a, b) => a - b);
  if (missing.length > 0) {
    throw new ApiError(404, { detail: `Tile IDs not found on this dashboard: [${missing.join(", ")}]` });
  }
  applyReorder(
    ids.map((id) => live.get(id) as TileRecord),
    mode,
  );
  return d;
}

export function registerTileActions(
  router: Router,
  renderDashboard: (ctx: Ctx, d: DashboardRecord) => unknown,
): void {
  const write = "dashboard:write";
  router.add({ method: "POST", pattern: `${BASE}/create_text_tile`, scope: write, handler: createTextTile });
  router.add({ method: "POST", pattern: `${BASE}/update_text_tile`, scope: write, handler: updateTextTile });
  router.add({ method: "POST", pattern: `${BASE}/delete_tile`, scope: write, handler: deleteTile });
  router.add({ method: "POST", pattern: `${BASE}/update_tile`, scope: write, handler: updateTile });
  router.add({
    method: "POST",
    pattern: `${BASE}/reorder_tiles`,
    scope: write,
    handler: (ctx) => {
      return { status: 200, body: renderDashboard(ctx, reorderTiles(ctx)) };
    },
  });
}
