/**
 * Live dashboards of a project: the list (one read, 100 per page), plus collaborators only for
 * dashboards whose declaration lists `collaborators` and sharing only where the declared switch differs
 * from the list's `is_shared` (SPEC §6: nothing per unchanged object beyond that). The comparable state
 * of the list's fields is the field table's (fields.ts); these details are added to it.
 */
import { UserError } from "../../errors.js";
import { matchObjects, type PlanError } from "../../plan/index.js";
import type { LiveKind } from "../../plan/types.js";
import { compareText } from "../../plan/values.js";
import type { ServiceClient } from "../../service/index.js";
import type { Collaborator, DashboardBasic, SharingConfiguration } from "../../service/types.js";
import type { DesiredDashboard } from "./fields.js";

export interface LiveDashboards extends LiveKind {
  objects: DashboardBasic[];
  /** By dashboard id, read only for dashboards whose `collaborators` are declared. */
  collaborators: Record<number, Collaborator[]>;
  /** By dashboard id, read only where the declared sharing switch differs from `is_shared`. */
  sharing: Record<number, SharingConfiguration>;
}

/** What was read besides the list: dashboard ids whose collaborators / sharing were read. */
export interface DashboardReads {
  collaborators: number[];
  sharing: number[];
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
  const reads: DashboardReads = { collaborators: [], sharing: [] };
  for (const { desired, live } of pairs) {
    if (!live || desired.deleted) continue;
    if (desired.collaborators) reads.collaborators.push(live.id);
    // The list's is_shared mirrors the sharing switch; the sharing GET only confirms a difference, so a
    // plan with nothing to change sends no request per dashboard for sharing.
    if (desired.sharing && desired.sharing.enabled !== live.is_shared) reads.sharing.push(live.id);
  }
  return reads;
}

export async function readDashboards(
  client: ServiceClient,
  project: number,
  declared: readonly DesiredDashboard[],
): Promise<{ live: LiveDashboards; read: DashboardReads }> {
  const objects = await client.dashboards.listAll(project);
  const reads = detailReads(declared, objects);
  return { live: await withDetails(client, project, objects, reads), read: reads };
}

export async function rereadDashboards(
  client: ServiceClient,
  project: number,
  read: unknown,
): Promise<LiveDashboards> {
  const reads = read as Partial<DashboardReads> | null;
  const ids = (v: unknown) => Array.isArray(v) && v.every((id) => Number.isSafeInteger(id) && id > 0);
  if (!reads || !ids(reads.collaborators) || !ids(reads.sharing)) {
    throw new UserError("the saved plan's record of what was read for dashboards is damaged");
  }
  return withDetails(client, project, await client.dashboards.listAll(project), reads as DashboardReads);
}

async function withDetails(
  client: ServiceClient,
  project: number,
  objects: DashboardBasic[],
  reads: DashboardReads,
): Promise<LiveDashboards> {
  const live: LiveDashboards = { objects, collaborators: {}, sharing: {} };
  // The client bounds concurrency and paces requests; issuing them together lets it fill its slots.
  await Promise.all([
    ...reads.collaborators.map(async (id) => {
      live.collaborators[id] = await client.collaborators.list(project, id);
    }),
    ...reads.sharing.map(async (id) => {
      live.sharing[id] = await client.sharing.get(project, id);
    }),
  ]);
  return live;
}
