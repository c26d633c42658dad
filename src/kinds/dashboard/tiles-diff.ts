/**
 * The tile-set diff (SPEC §3 "Dashboard tiles"): a dashboard's declared `tiles:` against its live
 * tiles, as the whole set. Insight tiles match by the insight's id; text tiles match by their text
 * (identical first, in order), and a declared text that finds no identical one takes the next unmatched
 * live text tile as an edit of its body. What is left over is added or removed. A matched tile whose
 * declared layout differs from its live `sm` layout is moved. A tile is named by its insight's name or
 * its text's first line, never by its id (the id is kept only for apply).
 */
import { excerpt, type Layout } from "./tiles-declare.js";

/** A live tile as the plan reads it from the dashboard's retrieve. */
export interface LiveTile {
  id: number;
  insightId: number | null;
  /** The insight's name as the live side calls it (for labels of removes). */
  insightName: string | null;
  textId: number | null;
  text: string | null;
  /** The raw `layouts` (all breakpoints), kept so a move changes only `sm`. */
  layouts: Record<string, unknown>;
}

/** A declared tile with its insight resolved: `insightId` when the insight is live, else to be created. */
export interface PlannedTile {
  label: string;
  insightId?: number;
  /** The insight's name when it is created by the same apply (no id yet). */
  insightName?: string;
  text?: string;
  layout?: Layout;
}

export interface TileDiff {
  add: PlannedTile[];
  remove: Array<{ live: LiveTile; label: string }>;
  move: Array<{ live: LiveTile; label: string; before: Layout | undefined; after: Layout }>;
  edit: Array<{ live: LiveTile; label: string; before: string; after: string }>;
}

const toNumber = (v: unknown): number | undefined => {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return Number(v);
  return undefined;
};

/** A tile's `sm` layout as four numbers (numeric strings read as numbers), or undefined. */
export function smLayout(layouts: unknown): Layout | undefined {
  if (typeof layouts !== "object" || layouts === null || Array.isArray(layouts)) return undefined;
  const sm = (layouts as Record<string, unknown>).sm;
  if (typeof sm !== "object" || sm === null || Array.isArray(sm)) return undefined;
  const box = sm as Record<string, unknown>;
  const [x, y, w, h] = [box.x, box.y, box.w, box.h].map(toNumber);
  if (x === undefined || y === undefined || w === undefined || h === undefined) return undefined;
  return { x, y, w, h };
}

const sameLayout = (a: Layout | undefined, b: Layout) =>
  a !== undefined && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/** Texts compare without the trailing newline a YAML block adds. */
const sameText = (a: string | null, b: string) => (a ?? "").replace(/\n+$/, "") === b.replace(/\n+$/, "");

export function diffTiles(desired: readonly PlannedTile[], live: readonly LiveTile[]): TileDiff {
  const diff: TileDiff = { add: [], remove: [], move: [], edit: [] };
  const unmatched = new Set(live);
  const matched: Array<[PlannedTile, LiveTile]> = [];
  const take = (found: LiveTile, tile: PlannedTile) => {
    unmatched.delete(found);
    matched.push([tile, found]);
  };
  for (const tile of desired) {
    if (tile.text !== undefined) continue;
    const found =
      tile.insightId === undefined ? undefined : [...unmatched].find((l) => l.insightId === tile.insightId);
    if (found) take(found, tile);
    else diff.add.push(tile);
  }
  const pending: PlannedTile[] = [];
  for (const tile of desired) {
    if (tile.text === undefined) continue;
    const found = [...unmatched].find((l) => l.textId !== null && sameText(l.text, tile.text as string));
    if (found) take(found, tile);
    else pending.push(tile);
  }
  for (const tile of pending) {
    const found = [...unmatched].find((l) => l.textId !== null);
    if (found) {
      take(found, tile);
      diff.edit.push({
        live: found,
        label: tile.label,
        before: found.text ?? "",
        after: tile.text as string,
      });
    } else diff.add.push(tile);
  }
  for (const [tile, l] of matched) {
    if (tile.layout === undefined) continue;
    const before = smLayout(l.layouts);
    if (!sameLayout(before, tile.layout))
      diff.move.push({ live: l, label: tile.label, before, after: tile.layout });
  }
  for (const l of unmatched) {
    const label =
      l.textId !== null
        ? `text "${excerpt(l.text ?? "")}"`
        : `insight "${l.insightName ?? `#${l.insightId}`}"`;
    diff.remove.push({ live: l, label });
  }
  // Adds and moves in the order the file lists their tiles.
  const order = (t: PlannedTile) => desired.indexOf(t);
  diff.add.sort((a, b) => order(a) - order(b));
  return diff;
}

/** The `layouts` a move sends: the live ones with `sm` replaced (other breakpoints and keys kept). */
export function movedLayouts(live: LiveTile, to: Layout): Record<string, unknown> {
  const current = live.layouts.sm;
  const keep = typeof current === "object" && current !== null && !Array.isArray(current) ? current : {};
  return { ...live.layouts, sm: { ...keep, x: to.x, y: to.y, w: to.w, h: to.h } };
}
