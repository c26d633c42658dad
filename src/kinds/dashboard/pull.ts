/**
 * Live dashboards → YAML items: the field table writes every managed field, defaults included (a field
 * left out is not managed, so a later edit in the UI would never show up as drift). Collaborators are
 * read only for dashboards restricted to collaborators (the others cannot have any) and written by
 * email; sharing comes from the list's `is_shared` (no request per dashboard). Tiles are written, as
 * the whole set in the order the dashboard shows them, for every dashboard that shows any, insight or
 * text card: each dashboard is read once (one retrieve: the list does not say which hold text cards),
 * and one without tiles is written without `tiles:`, so the plans of a pulled project read only the
 * dashboards with content (SPEC §6). An insight is named by its name when the insights are pulled too
 * and the name is its own (neither empty nor shared), else by `insight_id:`; a layout is written when
 * its `sm` entry fits the 12-column grid.
 */

import { compareText } from "../../plan/values.js";
import type { PullContext, Pulled } from "../../pull/kinds.js";
import type { ServiceClient } from "../../service/index.js";
import type { InsightBasic } from "../insight/answers.js";
import { insightsApi } from "../insight/service.js";
import type { Collaborator, DashboardBasic } from "./answers.js";
import { COLLABORATOR_LEVEL, dashboardFields } from "./fields.js";
import { collaboratorsApi, dashboardsApi } from "./service.js";
import type { Layout } from "./tiles-declare.js";
import { type LiveTile, smLayout } from "./tiles-diff.js";
import { liveTiles } from "./tiles-live.js";
import { GRID_COLUMNS } from "./tiles-schema.js";

/** The YAML item that declares `live` as it is (collaborators and tiles when they were read). */
export function dashboardItem(
  live: DashboardBasic,
  collaborators?: Collaborator[],
  tiles?: Record<string, unknown>[],
): Record<string, unknown> {
  const item = dashboardFields.item(live);
  if (live.restriction_level === 37 && collaborators) {
    // By email, the way people name each other (SPEC §2); the UUID only for a user without one.
    const named = collaborators.map((c) => ({
      key: c.user.email ? "email" : "user_uuid",
      value: c.user.email ? c.user.email : c.user.uuid,
      level: COLLABORATOR_LEVEL[c.level] ?? "can_view",
    }));
    item.collaborators = named
      .sort((a, b) => compareText(a.value, b.value))
      .map((c) => ({ [c.key]: c.value, level: c.level }));
  }
  item.sharing = { enabled: live.is_shared };
  if (tiles) item.tiles = tiles;
  return item;
}

/** A layout the file can declare: whole numbers on the grid (the schema's bounds). */
function declarable(layout: Layout | undefined): Layout | undefined {
  if (layout === undefined) return undefined;
  const { x, y, w, h } = layout;
  const whole = [x, y, w, h].every(Number.isSafeInteger);
  return whole && x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= GRID_COLUMNS ? { x, y, w, h } : undefined;
}

/**
 * The YAML tiles of a dashboard. `byName` holds the insight ids that may be written by name (their
 * name is their own and the insights are pulled with the dashboards).
 */
export function tileItems(
  tiles: readonly LiveTile[],
  byName: ReadonlyMap<number, string>,
): Record<string, unknown>[] {
  return tiles.map((tile) => {
    const layout = declarable(smLayout(tile.layouts));
    const place = layout ? { layout } : {};
    if (tile.textId !== null) return { text: tile.text ?? "", ...place };
    const id = tile.insightId as number;
    const name = byName.get(id);
    return name !== undefined ? { insight: name, ...place } : { insight_id: id, ...place };
  });
}

export async function pullDashboards(
  client: ServiceClient,
  project: number,
  context?: PullContext,
): Promise<Pulled> {
  const [dashboards, insights] = await Promise.all([
    dashboardsApi(client).listAll(project),
    insightsApi(client).listAll(project),
  ]);
  const restricted = dashboards.filter((d) => d.restriction_level === 37);
  const [collaborators, tiles] = await Promise.all([
    Promise.all(
      restricted.map(async (d) => [d.id, await collaboratorsApi(client).list(project, d.id)] as const),
    ).then((pairs) => new Map(pairs)),
    Promise.all(
      dashboards.map(
        async (d) =>
          [d.id, liveTiles((await dashboardsApi(client).getWithTiles(project, d.id)).tiles)] as const,
      ),
    ).then((pairs) => new Map(pairs)),
  ]);
  const byName = context?.kinds.includes("insight") ? ownNames(insights) : new Map<number, string>();
  return {
    items: dashboards.map((d) => {
      const shown = tiles.get(d.id) ?? [];
      return dashboardItem(
        d,
        collaborators.get(d.id),
        shown.length > 0 ? tileItems(shown, byName) : undefined,
      );
    }),
    variables: [],
  };
}

/** Live insights whose name is their own (not empty, held by no other insight): id → name. */
function ownNames(insights: readonly InsightBasic[]): Map<number, string> {
  const count = new Map<string, number>();
  for (const i of insights) count.set(i.name ?? "", (count.get(i.name ?? "") ?? 0) + 1);
  const out = new Map<number, string>();
  for (const i of insights) {
    const name = i.name ?? "";
    if (name.trim() !== "" && count.get(name) === 1) out.set(i.id, name);
  }
  return out;
}
