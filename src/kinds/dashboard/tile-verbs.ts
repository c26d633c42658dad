/**
 * A dashboard's tile verbs (SPEC §3 "Dashboard tiles") and the requests that carry them out:
 * - an insight tile is added or removed through the insight's `dashboards`, the replace-set of the
 *   dashboards it is on (service-api.md §11: the dashboard PATCH never adds an insight): the set is read
 *   fresh, changed by one dashboard and written back, one insight at a time (two dashboards gaining the
 *   same insight in one apply must not overwrite each other's change). Removing a tile never deletes
 *   the insight;
 * - a text tile is added through the dashboard PATCH (an entry with `text` and no id), a create: never
 *   repeated after a lost answer before the dashboard is read again and the card looked for
 *   (`addTextCard`); it is removed by marking its tile deleted;
 * - a layout, or a text card's body, changes through the dashboard PATCH by tile id.
 * Actions name tiles by their insight's name or their text's first line; tile ids are never in a plan:
 * apply finds the tile in the dashboard as it is right before the write (by its insight, or its text).
 *
 * An action's sides: `{ insight, layout? }` for an insight tile (the insight's name, empty for an
 * insight without one) or `{ text, layout? }` for a text card. The insight's id is plan data: an
 * added tile `requires` its insight (apply hands on the id of one this apply creates), and a removed
 * or moved tile's `preconditions.insight_id` is how apply finds it.
 */
import type { Executed, ReferencedIds } from "../../apply/kinds.js";
import { UserError } from "../../errors.js";
import type { Action } from "../../plan/types.js";
import type { ServiceClient } from "../../service/client.js";
import { ServiceError, UnknownOutcomeError } from "../../service/errors.js";
import { plural } from "../../words.js";
import type { Insight } from "../insight/answers.js";
import { insightsApi } from "../insight/service.js";
import type { Verb } from "../kind.js";
import type { TileWrite } from "./answers.js";
import { dashboardsApi } from "./service.js";
import { excerpt, type Layout } from "./tiles-declare.js";
import { type LiveTile, movedLayouts } from "./tiles-diff.js";
import { liveTiles } from "./tiles-live.js";

/** One side of a tile action. */
export type TileSide = {
  insight?: string;
  text?: string;
  layout?: Layout;
};

const sideOf = (action: Action, which: "before" | "after"): TileSide => (action[which] ?? {}) as TileSide;

/** The live id of a tile's insight the plan knows: a removed or moved tile's lookup, an added one's requirement. */
function knownInsightId(action: Action): number | undefined {
  const lookup = action.preconditions?.insight_id;
  if (typeof lookup === "number") return lookup;
  const required = action.requires?.find((r) => r.kind === "insight")?.id;
  return required === undefined ? undefined : Number(required);
}

/** How outputs name a tile: `insight "Weekly signups"`, `insight #812`, `text "## Notes"`. */
export function tileName(side: TileSide, action?: Action): string {
  if (side.text !== undefined) return `text "${excerpt(side.text)}"`;
  if (side.insight !== undefined && side.insight !== "") return `insight "${side.insight}"`;
  return `insight #${(action && knownInsightId(action)) ?? "?"}`;
}

/** Where a tile goes: ` at x 0, y 5 (6×5)`, or nothing when the service places it. */
function placed(side: TileSide): string {
  const l = side.layout;
  return l === undefined ? "" : ` at x ${l.x}, y ${l.y} (${l.w}×${l.h})`;
}

const sameText = (a: string | null, b: string) => (a ?? "").replace(/\n+$/, "") === b.replace(/\n+$/, "");

/** Writes of one insight's dashboards, one at a time per client, project and insight. */
const queues = new WeakMap<ServiceClient, Map<string, Promise<unknown>>>();

async function oneAtATime<T>(client: ServiceClient, key: string, work: () => Promise<T>): Promise<T> {
  let queue = queues.get(client);
  if (queue === undefined) {
    queue = new Map();
    queues.set(client, queue);
  }
  const run = (queue.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
  queue.set(key, run);
  try {
    return await run;
  } finally {
    if (queue.get(key) === run) queue.delete(key);
  }
}

/** The dashboards an insight is on: its tiles that are not deleted. */
function dashboardsOf(insight: Insight): number[] {
  return [...new Set(insight.dashboard_tiles.filter((t) => t.deleted !== true).map((t) => t.dashboard_id))];
}

/** The insight an insight tile shows: the id the plan knew, else the one this apply created. */
function insightIdOf(action: Action, side: TileSide, referenced: ReferencedIds | undefined): number {
  const id =
    knownInsightId(action) ??
    (side.insight === undefined ? undefined : referenced?.idOf({ kind: "insight", name: side.insight }));
  if (id === undefined) {
    throw new UserError(
      `${action.action} ${tileName(side, action)} on dashboard "${action.object.name}": the insight has no id yet (it was not created by this apply); apply its create first, or run plan again`,
    );
  }
  return Number(id);
}

/** Puts the insight on (or takes it off) the dashboard through its replace-set; the tile's id, if on it. */
async function changeMembership(
  client: ServiceClient,
  project: number,
  insightId: number,
  dashboardId: number,
  on: boolean,
): Promise<{ tileId: number | undefined; changed: boolean }> {
  return oneAtATime(client, `${project}/${insightId}`, async () => {
    let insight: Insight;
    try {
      insight = await insightsApi(client).get(project, insightId);
    } catch (error) {
      // An insight deleted since the plan is on no dashboard: nothing to take off.
      if (!on && error instanceof ServiceError && error.status === 404)
        return { tileId: undefined, changed: false };
      throw error;
    }
    const current = dashboardsOf(insight);
    const tileOn = (answer: Insight) =>
      answer.dashboard_tiles.find((t) => t.dashboard_id === dashboardId && t.deleted !== true)?.id;
    if (current.includes(dashboardId) === on) return { tileId: tileOn(insight), changed: false };
    const dashboards = on ? [...current, dashboardId] : current.filter((d) => d !== dashboardId);
    const answer = await insightsApi(client).update(project, insightId, { dashboards });
    return { tileId: tileOn(answer), changed: true };
  });
}

/** The dashboard's insight and text tiles as they are now. */
async function tilesNow(client: ServiceClient, project: number, dashboardId: number): Promise<LiveTile[]> {
  return liveTiles((await dashboardsApi(client).getWithTiles(project, dashboardId)).tiles);
}

/** The live tile an action's side names: by its insight's id, or the first card with its text. */
function findTile(tiles: readonly LiveTile[], side: TileSide, insightId?: number): LiveTile | undefined {
  if (side.text !== undefined)
    return tiles.find((t) => t.textId !== null && sameText(t.text, side.text as string));
  return tiles.find((t) => t.insightId === insightId);
}

const smOnly = (layout: Layout) => ({ sm: { x: layout.x, y: layout.y, w: layout.w, h: layout.h } });

async function patchTiles(client: ServiceClient, project: number, dashboardId: number, tiles: TileWrite[]) {
  await dashboardsApi(client).update(project, dashboardId, { tiles });
}

/**
 * Adds a text card through the dashboard PATCH, a create the service answers once: never sent again
 * blindly. The cards with its text are counted first; when the answer is lost, the dashboard is read
 * again, and a card more than before is this one; only when there is none is the PATCH sent again.
 */
async function addTextCard(
  client: ServiceClient,
  project: number,
  dashboardId: number,
  side: TileSide,
): Promise<string[]> {
  const text = side.text as string;
  const cards = async () =>
    (await tilesNow(client, project, dashboardId)).filter((t) => t.textId !== null && sameText(t.text, text))
      .length;
  const before = await cards();
  const tile: TileWrite = { text: { body: text }, ...(side.layout ? { layouts: smOnly(side.layout) } : {}) };
  const send = () => dashboardsApi(client).addTiles(project, dashboardId, [tile]);
  try {
    await send();
    return [];
  } catch (error) {
    if (!(error instanceof UnknownOutcomeError)) throw error;
    if ((await cards()) > before) return ["the answer was lost; the card was found on the dashboard"];
    await send();
    return ["the first add was not committed (its answer was lost); sent again"];
  }
}

export const ADD_TILE: Verb = {
  name: "add_tile",
  symbol: "+",
  word: "add tile",
  phrase: (n) => `${n} ${plural(n, "tile")} to add`,
  step: 3,
  destructive: false,
  sides: { before: "absent", after: "required" },
  detail: (action) => ({
    text: `${tileName(sideOf(action, "after"), action)}${placed(sideOf(action, "after"))}`,
  }),
  refreshes: () => [["tiles"]],
  // The insight a tile shows is created, restored or changed first (SPEC §3 "Apply order"): `requires`.
  async send(client, action, id, _body, referenced): Promise<Executed> {
    const project = action.object.project;
    const dashboardId = Number(id);
    const side = sideOf(action, "after");
    if (side.text !== undefined) return { id, notes: await addTextCard(client, project, dashboardId, side) };
    const insightId = insightIdOf(action, side, referenced);
    const { tileId, changed } = await changeMembership(client, project, insightId, dashboardId, true);
    const notes = changed ? [] : ["the insight was already on the dashboard"];
    if (side.layout !== undefined) {
      if (tileId === undefined) {
        throw new UserError(
          `add_tile ${tileName(side, action)} on dashboard "${action.object.name}": the service did not report the new tile, so its layout was not set; run plan again`,
        );
      }
      await patchTiles(client, project, dashboardId, [{ id: tileId, layouts: smOnly(side.layout) }]);
    }
    return { id, notes };
  },
};

export const REMOVE_TILE: Verb = {
  name: "remove_tile",
  symbol: "-",
  word: "remove tile",
  phrase: (n) => `${n} ${plural(n, "tile")} to remove`,
  step: 2,
  // A text card's removal deletes its text (the plan says so per action); an insight's only detaches it.
  destructive: "depends",
  sides: { before: "required", after: "absent" },
  detail: (action) => ({ text: tileName(sideOf(action, "before"), action) }),
  refreshes: () => [["tiles"]],
  async send(client, action, id): Promise<Executed> {
    const project = action.object.project;
    const dashboardId = Number(id);
    const side = sideOf(action, "before");
    if (side.text === undefined) {
      const insightId = knownInsightId(action);
      if (insightId === undefined)
        throw new UserError(`remove_tile ${tileName(side, action)}: the plan lost the insight's id`);
      const { changed } = await changeMembership(client, project, insightId, dashboardId, false);
      return { id, notes: changed ? [] : ["the tile was already gone"] };
    }
    const tile = findTile(await tilesNow(client, project, dashboardId), side);
    if (tile === undefined) return { id, notes: ["the tile was already gone"] };
    await patchTiles(client, project, dashboardId, [{ id: tile.id, deleted: true }]);
    return { id, notes: [] };
  },
};

/** `before` / `after`: the tile's side with its live / declared layout and text; `changes` say which. */
export const UPDATE_TILE: Verb = {
  name: "update_tile",
  symbol: "~",
  word: "update tile",
  phrase: (n) => `${n} ${plural(n, "tile")} to update`,
  step: 3,
  destructive: false,
  sides: { before: "required", after: "required" },
  detail: (action) => ({ text: tileName(sideOf(action, "after"), action) }),
  refreshes: () => [["tiles"]],
  async send(client, action, id): Promise<Executed> {
    const project = action.object.project;
    const dashboardId = Number(id);
    const before = sideOf(action, "before");
    const after = sideOf(action, "after");
    const tile = findTile(await tilesNow(client, project, dashboardId), before, knownInsightId(action));
    if (tile === undefined) {
      throw new UserError(
        `update_tile ${tileName(before, action)} on dashboard "${action.object.name}": the tile is no longer on the dashboard; run plan again`,
      );
    }
    const write: TileWrite = { id: tile.id };
    if (after.layout !== undefined) write.layouts = movedLayouts(tile, after.layout);
    if (after.text !== undefined && before.text !== undefined && !sameText(before.text, after.text)) {
      write.text = { id: tile.textId as number, body: after.text };
    }
    await patchTiles(client, project, dashboardId, [write]);
    return { id, notes: [] };
  },
};

export const TILE_VERBS: readonly Verb[] = [ADD_TILE, REMOVE_TILE, UPDATE_TILE];
