/**
 * Live dashboards of a project: the list (one read, 100 per page; in a change-scoped read the
 * dashboards of the change, by id and by search), plus collaborators only for dashboards whose
 * declaration lists `collaborators`, sharing only where the declared switch differs from the list's
 * `is_shared`, the tiles (one retrieve) only of dashboards that declare `tiles:` (SPEC §6: nothing per
 * unchanged object beyond that), and the organization's members only when a declared collaborator is
 * not already on its dashboard (collaborators.ts). The comparable state of the list's fields is the
 * field table's (fields.ts); these details are added to it.
 */
import { UserError } from "../../errors.js";
import { matchObjects, type PlanError } from "../../plan/index.js";
import type { LiveKind } from "../../plan/types.js";
import { compareText } from "../../plan/values.js";
import type { ReadRun } from "../../read/kinds.js";
import type { MembersRead } from "../../read/people.js";
import type { ServiceClient } from "../../service/index.js";
import { insightsApi } from "../insight/service.js";
import { readById } from "../shared/by-id.js";
import type { Collaborator, DashboardBasic, SharingConfiguration } from "./answers.js";
import { unresolved } from "./collaborators.js";
import type { DesiredDashboard } from "./fields.js";
import { collaboratorsApi, dashboardsApi, sharingApi } from "./service.js";
import type { LiveTile } from "./tiles-diff.js";
import { liveTiles, tilesState } from "./tiles-live.js";

export interface LiveDashboards extends LiveKind {
  objects: DashboardBasic[];
  /** By dashboard id, read only for dashboards whose `collaborators` are declared. */
  collaborators: Record<number, Collaborator[]>;
  /** By dashboard id, read only where the declared sharing switch differs from `is_shared`. */
  sharing: Record<number, SharingConfiguration>;
  /** By dashboard id, read only for dashboards whose `tiles` are declared (one retrieve each). */
  tiles: Record<number, LiveTile[]>;
  /** The organization's members, read only when some declared collaborator needed them. */
  members?: MembersRead;
  /**
   * Insights `insight_id:` tiles name that are not on their dashboard yet, each read by id: its name,
   * or null when the project has no such live insight (a plan error at the tile's line).
   */
  insights?: Record<number, string | null>;
}

/** What was read besides the list: dashboard ids whose collaborators / sharing / tiles were read. */
export interface DashboardReads {
  collaborators: number[];
  sharing: number[];
  tiles: number[];
  /** The organization's members list was read (to resolve collaborators). */
  members?: boolean;
  /** Insight ids read one by one for `insight_id:` tiles not on their dashboard yet. */
  insights?: number[];
}

/** State read besides the list: collaborators and sharing, only where they were read. */
export function dashboardDetails(
  live: DashboardBasic,
  kindLive: Partial<LiveDashboards>,
): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  const collaborators = kindLive.collaborators?.[live.id];
  if (collaborators) {
    details.collaborators = collaborators
      .map((c) => ({ user_uuid: c.user.uuid, level: c.level }))
      .sort((a, b) => compareText(a.user_uuid, b.user_uuid));
  }
  const sharing = kindLive.sharing?.[live.id];
  if (sharing) details.sharing = { enabled: sharing.enabled };
  const tiles = kindLive.tiles?.[live.id];
  if (tiles) details.tiles = tilesState(tiles);
  return details;
}

/**
 * Which details to read: the planner's own matching decides identity, so read and plan agree. Apply
 * with a saved plan reads the same set again, or its fingerprints would not match.
 */
export function detailReads(
  declared: readonly DesiredDashboard[],
  dashboards: readonly DashboardBasic[],
): DashboardReads {
  const ignoredErrors: PlanError[] = [];
  const { pairs } = matchObjects(declared, dashboards, "dashboard", ignoredErrors);
  const reads: DashboardReads = { collaborators: [], sharing: [], tiles: [] };
  for (const { desired, live } of pairs) {
    if (!live || desired.deleted) continue;
    if (desired.collaborators) reads.collaborators.push(live.id);
    // The list's is_shared mirrors the sharing switch; the sharing GET only confirms a difference, so a
    // plan with nothing to change sends no request per dashboard for sharing.
    if (desired.sharing && desired.sharing.enabled !== live.is_shared) reads.sharing.push(live.id);
    // SPEC §6: a dashboard's tiles cost one read of it, only where `tiles:` is declared.
    if (desired.tiles) reads.tiles.push(live.id);
  }
  return reads;
}

/**
 * True when some declared collaborator of a dashboard that will be created, or that exists, is not
 * among the collaborators read for it: only the organization's members list can resolve it. (A
 * restored dashboard's collaborators are planned by the next plan.)
 */
export function membersNeeded(
  declared: readonly DesiredDashboard[],
  dashboards: readonly DashboardBasic[],
  collaborators: Readonly<Record<number, Collaborator[]>>,
): boolean {
  const ignoredErrors: PlanError[] = [];
  const { pairs } = matchObjects(declared, dashboards, "dashboard", ignoredErrors);
  return pairs.some(({ desired, live }) => {
    if (desired.deleted || !desired.collaborators || desired.collaborators.length === 0) return false;
    if (live === undefined) return desired.id === undefined;
    return unresolved(desired.collaborators, collaborators[live.id] ?? []).length > 0;
  });
}

export async function readDashboards(
  client: ServiceClient,
  project: number,
  declared: readonly DesiredDashboard[],
  run: ReadRun,
  list: () => Promise<DashboardBasic[]>,
): Promise<{ live: LiveDashboards; read: DashboardReads }> {
  const objects = await list();
  const reads = detailReads(declared, objects);
  const live = await withDetails(client, project, objects, reads);
  if (membersNeeded(declared, objects, live.collaborators)) {
    reads.members = true;
    live.members = await run.members.check(project);
  }
  const insights = tileInsightsToCheck(declared, objects, live.tiles);
  if (insights.length > 0) {
    reads.insights = insights;
    live.insights = await insightsById(client, project, insights);
  }
  return { live, read: reads };
}

/**
 * The insight ids `insight_id:` tiles name that are not on their (live) dashboard yet: whether each is
 * a live insight of the project is known only by reading it (a few requests, none for a plan with
 * nothing to add), so a wrong id is a plan error at its line rather than a failed apply.
 */
export function tileInsightsToCheck(
  declared: readonly DesiredDashboard[],
  dashboards: readonly DashboardBasic[],
  tiles: Readonly<Record<number, LiveTile[]>>,
): number[] {
  const ignoredErrors: PlanError[] = [];
  const { pairs } = matchObjects(declared, dashboards, "dashboard", ignoredErrors);
  const ids = new Set<number>();
  for (const { desired, live } of pairs) {
    if (desired.deleted || !desired.tiles) continue;
    const shown = new Set((live ? (tiles[live.id] ?? []) : []).map((t) => t.insightId));
    for (const tile of desired.tiles) {
      if (tile.type === "insight" && "insight_id" in tile && !shown.has(tile.insight_id))
        ids.add(tile.insight_id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

async function insightsById(
  client: ServiceClient,
  project: number,
  ids: readonly number[],
): Promise<Record<number, string | null>> {
  const found = await Promise.all(
    ids.map((id) => readById(id, (numeric) => insightsApi(client).get(project, numeric))),
  );
  return Object.fromEntries(ids.map((id, i) => [id, found[i] ? (found[i]?.name ?? "") : null]));
}

export async function rereadDashboards(
  client: ServiceClient,
  project: number,
  read: unknown,
  run: ReadRun,
  list: () => Promise<DashboardBasic[]>,
): Promise<LiveDashboards> {
  const reads = read as Partial<DashboardReads> | null;
  const ids = (v: unknown) => Array.isArray(v) && v.every((id) => Number.isSafeInteger(id) && id > 0);
  const members = reads?.members;
  if (
    !reads ||
    !ids(reads.collaborators) ||
    !ids(reads.sharing) ||
    !ids(reads.tiles) ||
    (reads.insights !== undefined && !ids(reads.insights)) ||
    (members !== undefined && members !== true)
  ) {
    throw new UserError("the saved plan's record of what was read for dashboards is damaged");
  }
  const live = await withDetails(client, project, await list(), reads as DashboardReads);
  if (members === true) live.members = await run.members.check(project);
  if (reads.insights !== undefined) live.insights = await insightsById(client, project, reads.insights);
  return live;
}

async function withDetails(
  client: ServiceClient,
  project: number,
  objects: DashboardBasic[],
  reads: DashboardReads,
): Promise<LiveDashboards> {
  const live: LiveDashboards = { objects, collaborators: {}, sharing: {}, tiles: {} };
  // The client bounds concurrency and paces requests; issuing them together lets it fill its slots.
  await Promise.all([
    ...reads.collaborators.map(async (id) => {
      live.collaborators[id] = await collaboratorsApi(client).list(project, id);
    }),
    ...reads.sharing.map(async (id) => {
      live.sharing[id] = await sharingApi(client).get(project, id);
    }),
    ...reads.tiles.map(async (id) => {
      live.tiles[id] = liveTiles((await dashboardsApi(client).getWithTiles(project, id)).tiles);
    }),
  ]);
  return live;
}
