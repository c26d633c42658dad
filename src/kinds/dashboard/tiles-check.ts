/**
 * Tiles against the insights the files declare for the same project (SPEC §2: "`insight:` names an
 * insight declared in the same project"): a name no file declares, one declared as a tombstone, or one
 * several pinned insights share, is an error at the tile; `insight_id:` may name any live insight,
 * which the plan checks.
 */
import { didYouMean } from "../../config/suggest.js";
import type { SourceRef } from "../../config/types.js";
import type { DesiredTile } from "./tiles-declare.js";

export interface TileProblem {
  source: SourceRef;
  message: string;
}

interface DeclaredInsight {
  name: string;
  id?: number | string;
  deleted: boolean;
}

export function checkTileInsights(
  dashboards: ReadonlyArray<{ name: string; tiles?: readonly DesiredTile[] }>,
  insights: readonly DeclaredInsight[],
): TileProblem[] {
  const live = new Set(insights.filter((i) => !i.deleted).map((i) => i.name));
  const count = new Map<string, number>();
  for (const i of insights) if (!i.deleted) count.set(i.name, (count.get(i.name) ?? 0) + 1);
  const tombstones = new Set(insights.filter((i) => i.deleted).map((i) => i.name));
  const deletedIds = new Set(
    insights.filter((i) => i.deleted && i.id !== undefined).map((i) => Number(i.id)),
  );
  const names = [...live];
  const problems: TileProblem[] = [];
  for (const d of dashboards) {
    for (const tile of d.tiles ?? []) {
      if (tile.type !== "insight") continue;
      const owner = `dashboard "${d.name}"`;
      if ("insight" in tile) {
        if ((count.get(tile.insight) ?? 0) > 1) {
          problems.push({
            source: tile.source,
            message: `a tile of ${owner} shows insight "${tile.insight}", a name ${count.get(tile.insight)} declared insights share: name the one it shows by insight_id:`,
          });
          continue;
        }
        if (live.has(tile.insight)) continue;
        problems.push({
          source: tile.source,
          message: tombstones.has(tile.insight)
            ? `a tile of ${owner} shows insight "${tile.insight}", which the files delete (deleted: true)`
            : `a tile of ${owner} shows insight "${tile.insight}", which no file declares for this project under insights:${didYouMean(tile.insight, names)}`,
        });
      } else if (deletedIds.has(tile.insight_id)) {
        problems.push({
          source: tile.source,
          message: `a tile of ${owner} shows insight id ${tile.insight_id}, which the files delete (deleted: true)`,
        });
      }
    }
  }
  return problems;
}
