/**
 * Plans a dashboard's declared `tiles:` (SPEC §2 "Tiles", §3 "Dashboard tiles"): the whole set, so
 * tiles the file does not list are removed (their insights stay), missing ones are added, and matched
 * ones whose declared layout or text differs are updated. A tile's `insight:` is a reference the
 * tiles field declares (fields.ts), resolved with the dashboard's other references by the kit
 * (../define/references.ts): the live insight's id, or, for an insight this apply creates, its name
 * (apply runs the create first and hands the id over).
 */
import { type KindPlanContext, makeAction } from "../../plan/index.js";
import type { ObjectLink, ObjectRef } from "../../plan/types.js";
import { liveNameOf } from "../define/resolve.js";
import { textChange } from "../shared/text-diff.js";
import type { DashboardBasic } from "./answers.js";
import type { DesiredDashboard } from "./fields.js";
import type { LiveDashboards } from "./live.js";
import { ADD_TILE, REMOVE_TILE, type TileSide, UPDATE_TILE } from "./tile-verbs.js";
import { type DesiredTile, tileLabel } from "./tiles-declare.js";
import { diffTiles, type LiveTile, type PlannedTile, smLayout } from "./tiles-diff.js";

/**
 * An added tile's side (its insight by name, or its text) and the insight it requires: by its live
 * id, or created in this apply (no id: apply hands the new one on).
 */
function plannedSide(tile: PlannedTile): { after: TileSide; requires?: ObjectLink[] } {
  const layout = tile.layout ? { layout: tile.layout } : {};
  if (tile.text !== undefined) return { after: { text: tile.text, ...layout } };
  const name = tile.insightName ?? "";
  const id = tile.insightId !== undefined ? { id: tile.insightId } : {};
  return { after: { insight: name, ...layout }, requires: [{ kind: "insight", name, ...id }] };
}

/** A live tile's side, and how apply finds it on the dashboard (its insight's id; a card by its text). */
function liveSide(
  tile: LiveTile,
  names: (id: number) => string | undefined,
): { side: TileSide; preconditions?: Record<string, unknown> } {
  const layout = smLayout(tile.layouts);
  if (tile.textId !== null) return { side: { text: tile.text ?? "", ...(layout ? { layout } : {}) } };
  const id = tile.insightId as number;
  const name = names(id) ?? tile.insightName ?? "";
  return { side: { insight: name, ...(layout ? { layout } : {}) }, preconditions: { insight_id: id } };
}

/**
 * `links`: the dashboard's references resolved (its tiles' insights, by name with the live id or
 * none when this apply creates the insight, and by raw id).
 */
export function planTiles(
  desired: DesiredDashboard,
  current: DashboardBasic | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
  links: readonly ObjectLink[],
): void {
  const tiles = desired.tiles;
  if (tiles === undefined) return;
  const live = ctx.live as LiveDashboards;
  const liveList = current ? live.tiles?.[current.id] : [];
  if (liveList === undefined) return;
  const liveName = liveNameOf(ctx);
  // Without the insights' list (the files declare none), the ids the dashboards' read looked up.
  const checked = live.insights ?? {};
  const names = (id: number) => liveName("insight", id) ?? checked[id] ?? undefined;
  const planned: PlannedTile[] = [];
  for (const tile of tiles) {
    if (tile.type === "insight" && "insight_id" in tile && checked[tile.insight_id] === null) {
      if (!declaresPinned(ctx, tile.insight_id)) {
        ctx.sink.errors.push({
          message: `a tile of dashboard "${desired.name}" shows insight id ${tile.insight_id}, which is not a live insight of project ${ctx.project}`,
          source: tile.source,
        });
        continue;
      }
    }
    planned.push(resolved(tile, links, names));
  }
  const diff = diffTiles(planned, liveList);
  const { sink } = ctx;
  for (const { live: tile } of diff.remove) {
    const { side, preconditions } = liveSide(tile, names);
    // An insight tile leaves the dashboard and the insight stays; a text card is deleted, its text
    // with it: destructive, listed first and marked.
    const text = side.text !== undefined;
    sink.actions.push(
      makeAction(REMOVE_TILE, ref, {
        before: side,
        destructive: text,
        ...(text ? { warnings: ["the text card is deleted, and its text with it"] } : {}),
        ...(preconditions ? { preconditions } : {}),
      }),
    );
  }
  for (const tile of diff.add) {
    const { after, requires } = plannedSide(tile);
    sink.actions.push(makeAction(ADD_TILE, ref, { after, ...(requires ? { requires } : {}) }));
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
    const { side: before, preconditions } = liveSide(tile, names);
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
    sink.actions.push(
      makeAction(UPDATE_TILE, ref, { before, after, changes, ...(preconditions ? { preconditions } : {}) }),
    );
  }
}

/** A declared tile with its insight resolved (the references resolved before it). */
function resolved(
  tile: DesiredTile,
  links: readonly ObjectLink[],
  names: (id: number) => string | undefined,
): PlannedTile {
  const layout = tile.layout ? { layout: tile.layout } : {};
  if (tile.type === "text") return { label: tileLabel({ text: tile.text }), text: tile.text, ...layout };
  if ("insight" in tile) {
    const id = links.find((l) => l.kind === "insight" && l.name === tile.insight)?.id;
    return {
      label: tileLabel({ insight: tile.insight }),
      insightName: tile.insight,
      ...(id !== undefined ? { insightId: Number(id) } : {}),
      ...layout,
    };
  }
  const name = names(tile.insight_id);
  return {
    label: name ? tileLabel({ insight: name }) : tileLabel({ insight_id: tile.insight_id }),
    insightId: tile.insight_id,
    ...(name !== undefined && name !== "" ? { insightName: name } : {}),
    ...layout,
  };
}

/** An `insight_id:` that a declared insight pins (restored by this apply when it is not live). */
function declaresPinned(ctx: KindPlanContext, id: number): boolean {
  return (ctx.others?.declared("insight") ?? []).some((d) => !d.deleted && Number(d.id) === id);
}
