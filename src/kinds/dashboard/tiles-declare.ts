/**
 * A dashboard's declared `tiles:` → `DesiredTile`s, with the rules a schema cannot say (SPEC §2):
 * each tile is exactly one of `insight:`, `insight_id:` or `text:`; an insight is on a dashboard at most
 * once (the service keeps one tile per insight and dashboard); a layout fits the 12-column grid
 * (x + w ≤ 12). Overlapping layouts, and tiles listed in another order than their layouts show them,
 * are warnings: the dashboard would rearrange or reorder what the file says.
 */
import type { ObjectContext } from "../../config/context.js";
import type { SourceRef } from "../../config/types.js";
import { GRID_COLUMNS } from "./tiles-schema.js";

export interface Layout {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TileInput {
  insight?: string;
  insight_id?: number;
  text?: string;
  layout?: Layout;
}

/** A declared tile. `insight` is a name the plan resolves against the project's insights. */
export type DesiredTile = (
  | { type: "insight"; insight: string }
  | { type: "insight"; insight_id: number }
  | { type: "text"; text: string }
) & { layout?: Layout; source: SourceRef };

const overlaps = (a: Layout, b: Layout) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Reading order of layouts: row, then column (the order a dashboard lists its tiles in). */
export function layoutOrder(a: Layout, b: Layout): number {
  return a.y - b.y || a.x - b.x;
}

/** A short way to name a tile in messages and plans: the insight's name or the text's first line. */
export function tileLabel(tile: { insight?: string; insight_id?: number; text?: string }): string {
  if (tile.text !== undefined) return `text "${excerpt(tile.text)}"`;
  if (tile.insight !== undefined) return `insight "${tile.insight}"`;
  return `insight #${tile.insight_id}`;
}

/** The first non-empty line of a text, at most 40 characters. */
export function excerpt(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > 40 ? `${trimmed.slice(0, 39)}…` : trimmed;
}

export function declareTiles(list: readonly TileInput[], ctx: ObjectContext): DesiredTile[] {
  const out: DesiredTile[] = [];
  const firstByInsight = new Map<string, SourceRef>();
  const where = (s: SourceRef) => `${s.file}:${s.line}:${s.column}`;
  list.forEach((tile, i) => {
    const at = `/tiles/${i}`;
    const source = ctx.at(at);
    const given = (["insight", "insight_id", "text"] as const).filter((k) => tile[k] !== undefined);
    if (given.length !== 1) {
      ctx.error(
        at,
        given.length === 0
          ? `tile ${i + 1} of ${ctx.owner} says neither what it shows: give insight:, insight_id: or text:`
          : `tile ${i + 1} of ${ctx.owner} gives ${given.join(" and ")}: a tile is one insight or one text, give exactly one`,
      );
      return;
    }
    const layout = tile.layout;
    if (layout !== undefined && layout.x + layout.w > GRID_COLUMNS) {
      ctx.error(
        `${at}/layout`,
        `the layout of tile ${i + 1} of ${ctx.owner} passes the grid's right edge: x ${layout.x} + w ${layout.w} is more than ${GRID_COLUMNS} columns`,
      );
    }
    let desired: DesiredTile;
    if (tile.text !== undefined) {
      desired = { type: "text", text: ctx.text(`${at}/text`, tile.text), source };
    } else {
      const key = tile.insight !== undefined ? `name:${tile.insight}` : `id:${tile.insight_id}`;
      const label =
        tile.insight !== undefined ? `insight "${tile.insight}"` : `insight id ${tile.insight_id}`;
      const first = firstByInsight.get(key);
      if (first !== undefined) {
        ctx.error(
          at,
          `${label} is on ${ctx.owner} twice (first at ${where(first)}): a dashboard shows an insight once`,
        );
        return;
      }
      firstByInsight.set(key, source);
      desired =
        tile.insight !== undefined
          ? { type: "insight", insight: ctx.text(`${at}/insight`, tile.insight), source }
          : { type: "insight", insight_id: tile.insight_id as number, source };
    }
    if (layout !== undefined) desired.layout = { x: layout.x, y: layout.y, w: layout.w, h: layout.h };
    out.push(desired);
  });
  warnAboutLayouts(out, ctx);
  return out;
}

function warnAboutLayouts(tiles: readonly DesiredTile[], ctx: ObjectContext): void {
  const placed = tiles.map((t, i) => ({ t, i })).filter(({ t }) => t.layout !== undefined);
  for (let a = 0; a < placed.length; a++) {
    for (let b = a + 1; b < placed.length; b++) {
      const first = placed[a]!;
      const second = placed[b]!;
      if (overlaps(first.t.layout!, second.t.layout!)) {
        ctx.report(
          "warning",
          `/tiles/${second.i}/layout`,
          `tile ${second.i + 1} of ${ctx.owner} overlaps tile ${first.i + 1}: the dashboard pushes one of them down, so it will not show where the file says`,
        );
      }
    }
  }
  for (let k = 1; k < placed.length; k++) {
    const before = placed[k - 1]!;
    const here = placed[k]!;
    if (layoutOrder(before.t.layout!, here.t.layout!) > 0) {
      ctx.report(
        "warning",
        `/tiles/${here.i}`,
        `tile ${here.i + 1} of ${ctx.owner} is listed after tile ${before.i + 1} but its layout puts it first: the dashboard shows tiles by layout (row, then column)`,
      );
      return;
    }
  }
}
