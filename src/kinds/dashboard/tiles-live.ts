/**
 * A dashboard's live tiles as the plan reads them from the dashboard's retrieve (the one read a
 * declared `tiles:` costs, SPEC §6): insight tiles and text cards, with their layouts. Tiles of other
 * types (buttons, widgets of newer services) cannot be declared, so the plan leaves them alone.
 */
import { isPlainObject } from "../../plan/values.js";
import type { DashboardTile } from "./answers.js";
import { type LiveTile, smLayout } from "./tiles-diff.js";

/** The insight and text tiles of a retrieve, in the order the dashboard shows them. */
export function liveTiles(tiles: readonly DashboardTile[]): LiveTile[] {
  const out: LiveTile[] = [];
  for (const tile of tiles) {
    const insight = tile.insight ?? null;
    const text = tile.text ?? null;
    if (insight === null && text === null) continue;
    out.push({
      id: tile.id,
      insightId: insight?.id ?? null,
      insightName: insight === null ? null : (insight.name ?? ""),
      textId: insight === null && text !== null ? text.id : null,
      text: insight === null && text !== null ? (text.body ?? "") : null,
      layouts: isPlainObject(tile.layouts) ? tile.layouts : {},
    });
  }
  return out.sort(byPlace);
}

/** Reading order: by the `sm` layout (row, then column); tiles without one after them, by id. */
export function byPlace(a: LiveTile, b: LiveTile): number {
  const la = smLayout(a.layouts);
  const lb = smLayout(b.layouts);
  if (la && lb) return la.y - lb.y || la.x - lb.x || a.id - b.id;
  if (la) return -1;
  if (lb) return 1;
  return a.id - b.id;
}

/** The comparable state of a dashboard's tiles (saved-plan fingerprints): what each shows and where. */
export function tilesState(tiles: readonly LiveTile[]): Array<Record<string, unknown>> {
  return [...tiles]
    .sort((a, b) => a.id - b.id)
    .map((t) => ({
      ...(t.insightId !== null ? { insight_id: t.insightId } : { text: t.text }),
      layout: smLayout(t.layouts) ?? null,
    }));
}
