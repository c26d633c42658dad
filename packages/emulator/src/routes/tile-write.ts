/**
 * `tiles` in a dashboard PATCH, the way the newest `DashboardSerializer._update_tiles` reads each
 * entry (settled from source, service-api.md §11.2):
 * - an entry with a truthy `text` writes a text card: a new one, or the card `text.id` names (which must
 *   be shown on this dashboard), and puts it on the tile the entry's `id` names, or on a new tile when
 *   the entry has none: text tiles *are* added through the PATCH;
 * - any other entry only changes display fields (`layouts`, `color`, `deleted`, `show_description`,
 *   `transparent_background`, `filters_overrides`) of the tile its `id` names on this dashboard
 *   (soft-deleted tiles included); an entry without `id`, or naming a tile of another dashboard, is
 *   skipped without a word: an insight is never added to a dashboard here.
 * The card's author: the caller, unless the entry echoes `text.created_by` (then that user, who must
 * belong to the organization, and the caller is its last modifier).
 */
import { invalid, serverError } from "../errors.js";
import { isDict, parseList } from "../fields.js";
import type { Ctx } from "../router.js";
import type { DashboardRecord, TextRecord, TileRecord } from "../types.js";
import { newTile, textOf } from "./tiles.js";

export const DISPLAY_FIELDS = [
  "color",
  "layouts",
  "filters_overrides",
  "show_description",
  "transparent_background",
  "deleted",
] as const;

const TRUE = new Set<unknown>([true, 1, "t", "True", "true", "1"]);
const FALSE = new Set<unknown>([false, 0, "f", "False", "false", "0"]);

/** Django's BooleanField on save: a value it cannot read fails the request (a 500 there too). */
function modelBool(value: unknown): boolean | null {
  if (value === null) return null;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw serverError();
}

/** Display values as the tile's columns store them. */
function displayValues(entry: Record<string, unknown>): Partial<TileRecord> {
  const out: Partial<TileRecord> = {};
  for (const key of DISPLAY_FIELDS) {
    if (!Object.hasOwn(entry, key)) continue;
    const value = entry[key];
    switch (key) {
      case "color":
        out.color = value === null || value === undefined ? null : String(value);
        break;
      case "layouts":
        out.layouts = structuredClone(value ?? {}) as Record<string, unknown>;
        break;
      case "filters_overrides":
        out.filters_overrides = structuredClone(value ?? null) as Record<string, unknown> | null;
        break;
      default:
        out[key] = modelBool(value);
    }
  }
  return out;
}

function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** The text card's body as `TextSerializer` validates it (at most 4,000 characters, null allowed). */
export function textBody(value: unknown, attr: string): string | null {
  if (value === null) return null;
  if (typeof value !== "string" && typeof value !== "number")
    throw invalid("Not a valid string.", attr, "invalid");
  const body = String(value);
  if (body.length > 4000) throw invalid("Text body cannot exceed 4000 characters", attr, "max_length");
  return body;
}

/** Every tile of the project showing the text card `id` (cards are shared by the tiles that show them). */
function tilesShowing(
  ctx: Ctx,
  teamId: number,
  id: number,
): Array<{ tile: TileRecord; dashboard: DashboardRecord }> {
  const out: Array<{ tile: TileRecord; dashboard: DashboardRecord }> = [];
  for (const dashboard of ctx.store.data.dashboards) {
    if (dashboard.team_id !== teamId) continue;
    for (const tile of dashboard.tiles) if (textOf(tile, dashboard)?.id === id) out.push({ tile, dashboard });
  }
  return out;
}

function writeText(ctx: Ctx, d: DashboardRecord, json: unknown): TextRecord {
  // The service reads the entry with dict methods: anything but an object fails there.
  if (!isDict(json)) throw serverError();
  let createdBy = ctx.user.id;
  let lastModifiedBy: number | null = null;
  if (truthy(json.created_by)) {
    const id = isDict(json.created_by) ? json.created_by.id : undefined;
    const user = typeof id === "number" ? ctx.store.user(id) : undefined;
    if (!user || !ctx.store.isMember(user, ctx.org.id)) throw invalid("User not found in this organization.");
    createdBy = user.id;
    lastModifiedBy = ctx.user.id;
  }
  const hasBody = Object.hasOwn(json, "body");
  const body = hasBody ? textBody(json.body, "text__body") : null;
  const now = ctx.now.toISOString();
  if (truthy(json.id)) {
    const id = Number(json.id);
    const showing = tilesShowing(ctx, d.team_id, id);
    if (showing.length === 0) throw invalid("Text tile not found in this team.", "text");
    if (!d.tiles.some((t) => t.deleted !== true && textOf(t, d)?.id === id))
      throw invalid("Text tile not found.", "text");
    const current = textOf(showing[0]!.tile, showing[0]!.dashboard)!;
    const updated: TextRecord = {
      ...current,
      ...(hasBody ? { body } : {}),
      created_by: createdBy,
      last_modified_by: lastModifiedBy,
      last_modified_at: now,
    };
    for (const { tile } of showing) if (tile !== undefined) tile.text = { ...updated };
    return updated;
  }
  return {
    id: ctx.store.nextTextId(),
    body,
    created_by: createdBy,
    last_modified_by: lastModifiedBy,
    last_modified_at: now,
  };
}

/** Applies a PATCH's `tiles` to the dashboard `d` (a draft the caller commits when nothing failed). */
export function applyTilesPatch(ctx: Ctx, d: DashboardRecord, value: unknown): void {
  const entries = parseList(value, "tiles", true) ?? [];
  for (const raw of entries) {
    if (!isDict(raw)) throw invalid("Tiles must be a list of objects", "tiles");
    const entry = { ...raw };
    delete entry.is_cached;
    delete entry.order;
    const id = typeof entry.id === "number" ? entry.id : undefined;
    const existing = id === undefined ? undefined : d.tiles.find((t) => t.id === id);
    if (truthy(entry.text)) {
      const text = writeText(ctx, d, entry.text);
      const display = displayValues(entry);
      if (existing) Object.assign(existing, display, { text: { ...text } });
      else d.tiles.push(newTile(ctx, { ...display, text: { ...text } }));
      continue;
    }
    if (id === undefined || existing === undefined) continue;
    Object.assign(existing, displayValues(entry));
  }
}
