/**
 * Plans a dashboard's declared `tiles:` (SPEC §2 "Tiles", §3 "Dashboard tiles"): the whole set, so
 * tiles the file does not list are removed (their insights stay), missing ones are added, and matched
 * ones whose declared layout or text differs are updated. A tile's `insight:` is resolved through the
 * same matching the planner gives the project's declared insights: the live insight's id, or, for an
 * insight this apply creates, its name (apply runs the create first and hands the id over).
 */
import { type KindPlanContext, makeAction, matchObjects, type PlanError } from "../../plan/index.js";
import type { LiveObject, ObjectRef } from "../../plan/types.js";
import { textChange } from "../shared/text-diff.js";
import type { DashboardBasic } from "./answers.js";
import type { DesiredDashboard } from "./fields.js";
import type { LiveDashboards } from "./live.js";
import { ADD_TILE, REMOVE_TILE, type TileSide, UPDATE_TILE } from "./tile-verbs.js";
import { type DesiredTile, tileLabel } from "./tiles-declare.js";
import { diffTiles, type LiveTile, type PlannedTile, smLayout } from "./tiles-diff.js";

interface InsightIdentity {
  name: string;
  id?: number | string;
  deleted: boolean;
  source: DesiredTile["source"];
}

/** What the plan knows of the project's insights: the declared ones matched to the live ones. */
export interface InsightIndex {
  /** Declared (not deleted) insight name → the live id, or undefined when apply creates it. */
  byName: Map<string, { id: number | undefined; several: boolean }>;
  /** Live insight id → its name. */
  names: Map<number, string>;
  /** False when the project's insights were not read (the files declare none). */
  read: boolean;
}

export function insightIndex(ctx: KindPlanContext): InsightIndex {
  const declared = (ctx.others?.declared("insight") ?? []) as readonly InsightIdentity[];
  const liveKind = ctx.others?.live("insight");
  const live = (liveKind?.objects ?? []) as readonly LiveObject[];
  const ignored: PlanError[] = [];
  const { pairs } = matchObjects(declared, live, "insight", ignored);
  const byName = new Map<string, { id: number | undefined; several: boolean }>();
  for (const { desired, live: match } of pairs) {
    if (desired.deleted) continue;
    const id = match?.id ?? desired.id;
    const known = byName.get(desired.name);
    byName.set(desired.name, {
      id: id === undefined ? undefined : Number(id),
      several: known !== undefined,
    });
  }
  const names = new Map<number, string>();
  for (const object of live) names.set(Number(object.id), object.name ?? "");
  return { byName, names, read: liveKind !== undefined };
}

/** The side of an action for a planned or live tile: the insight's name and id, or the text. */
function plannedSide(tile: PlannedTile): TileSide {
  if (tile.text !== undefined) return { text: tile.text, ...(tile.layout ? { layout: tile.layout } : {}) };
  return {
    ...(tile.insightName !== undefined ? { insight: tile.insightName } : {}),
    ...(tile.insightId !== undefined ? { insight_id: tile.insightId } : {}),
    ...(tile.layout ? { layout: tile.layout } : {}),
  };
}

function liveSide(tile: LiveTile, names: Map<number, string>): TileSide {
  const layout = smLayout(tile.layouts);
  if (tile.textId !== null) return { text: tile.text ?? "", ...(layout ? { layout } : {}) };
  const id = tile.insightId as number;
  const name = names.get(id) ?? tile.insightName ?? "";
  return { insight: name, insight_id: id, ...(layout ? { layout } : {}) };
}

export function planTiles(
  desired: DesiredDashboard,
  current: DashboardBasic | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
): void {
  const tiles = desired.tiles;
  if (tiles === undefined) return;
  const live = ctx.live as LiveDashboards;
  const liveList = current ? live.tiles?.[current.id] : [];
  if (liveList === undefined) return;
  const index = insightIndex(ctx);
  const planned: PlannedTile[] = [];
  for (const tile of tiles) {
    const resolved = resolve(tile, index, desired, ctx);
    if (resolved) planned.push(resolved);
  }
  const diff = diffTiles(planned, liveList);
  const { sink } = ctx;
  for (const { live: tile } of diff.remove) {
    sink.actions.push(makeAction(REMOVE_TILE, ref, { before: liveSide(tile, index.names) }));
  }
  for (const tile of diff.add) {
    sink.actions.push(makeAction(ADD_TILE, ref, { after: plannedSide(tile) }));
  }
  // One update per matched tile whose layout or text differs, in the file's order.
  const updates = new Map<
    LiveTile,
    { layout?: (typeof diff.move)[number]; text?: (typeof diff.edit)[number] }
  >();
  for (const move of diff.move) updates.set(move.live, { ...updates.get(move.live), layout: move });
  for (const edit of diff.edit) updates.set(edit.live, { ...updates.get(edit.live), text: edit });
  const order = (t: LiveTile) => {
    const entry = updates.get(t);
    const label = entry?.layout?.label ?? entry?.text?.label;
    return planned.findIndex((p) => p.label === label);
  };
  for (const tile of [...updates.keys()].sort((a, b) => order(a) - order(b))) {
    const { layout, text } = updates.get(tile) ?? {};
    const before = liveSide(tile, index.names);
    const after: TileSide = { ...before };
    const changes = [];
    if (layout) {
      after.layout = layout.after;
      changes.push({
        path: "layout",
        ...(layout.before ? { before: layout.before } : {}),
        after: layout.after,
      });
    }
    if (text) {
      after.text = text.after;
      changes.push({
        path: "text",
        before: text.before,
        after: text.after,
        ...textChange(text.before, text.after),
      });
    }
    sink.actions.push(makeAction(UPDATE_TILE, ref, { before, after, changes }));
  }
}

/** A declared tile with its insight resolved; undefined (after an error) when it cannot be. */
function resolve(
  tile: DesiredTile,
  index: InsightIndex,
  dashboard: DesiredDashboard,
  ctx: KindPlanContext,
): PlannedTile | undefined {
  const layout = tile.layout ? { layout: tile.layout } : {};
  if (tile.type === "text") return { label: tileLabel({ text: tile.text }), text: tile.text, ...layout };
  if ("insight" in tile) {
    const found = index.byName.get(tile.insight);
    if (found === undefined) {
      // The loader reports a name no file declares; a plan made without it says so too.
      ctx.sink.errors.push({
        message: `a tile of dashboard "${dashboard.name}" shows insight "${tile.insight}", which no file declares for project ${ctx.project}`,
        source: tile.source,
      });
      return undefined;
    }
    if (found.several) {
      ctx.sink.errors.push({
        message: `a tile of dashboard "${dashboard.name}" shows insight "${tile.insight}", a name several declared insights share: name it by insight_id:`,
        source: tile.source,
      });
      return undefined;
    }
    return {
      label: tileLabel({ insight: tile.insight }),
      insightName: tile.insight,
      ...(found.id !== undefined ? { insightId: found.id } : {}),
      ...layout,
    };
  }
  if (index.read && !index.names.has(tile.insightId) && !declaresPinned(ctx, tile.insightId)) {
    ctx.sink.errors.push({
      message: `a tile of dashboard "${dashboard.name}" shows insight id ${tile.insightId}, which is not a live insight of project ${ctx.project}`,
      source: tile.source,
    });
    return undefined;
  }
  const name = index.names.get(tile.insightId);
  return {
    label: name ? tileLabel({ insight: name }) : tileLabel({ insightId: tile.insightId }),
    insightId: tile.insightId,
    ...(name !== undefined && name !== "" ? { insightName: name } : {}),
    ...layout,
  };
}

/** An `insight_id:` that a declared insight pins (restored by this apply when it is not live). */
function declaresPinned(ctx: KindPlanContext, id: number): boolean {
  return (ctx.others?.declared("insight") ?? []).some((d) => !d.deleted && Number(d.id) === id);
}
