/**
 * The read stage: live state for the projects the files declare, with the fewest requests (SPEC §6):
 * one list read per managed kind (100 per page, the pages after the first in parallel), collaborators and sharing only for dashboards that
 * declare them, and the organization's features only when the plan would otherwise depend on them.
 * Sends GET requests only.
 */
import type { DesiredProject } from "../config/types.js";
import { UserError } from "../errors.js";
import { detailRequests } from "../plan/index.js";
import type { LiveProject } from "../plan/types.js";
import { featureKeys, type ServiceClient, ServiceError } from "../service/index.js";
import type { Collaborator, DashboardBasic, SharingConfiguration } from "../service/types.js";

/**
 * What was read for one project. Saved with a plan, so `apply --plan` reads exactly the same things
 * again and its fingerprints compare like with like.
 */
export interface ReadSet {
  project: number;
  dashboards: boolean;
  batch_exports: boolean;
  /** Dashboard ids whose collaborators / sharing were read. */
  collaborators: number[];
  sharing: number[];
}

export interface LiveRead {
  live: LiveProject[];
  reads: ReadSet[];
}

/** Live state for what the files declare. */
export async function fetchLiveState(
  client: ServiceClient,
  desired: readonly DesiredProject[],
): Promise<LiveRead> {
  const projects = desired.filter((p): p is DesiredProject & { project: number } => p.project !== undefined);
  const read = await Promise.all(
    projects.map((p) =>
      inProject(p.project, () =>
        fetchProject(client, p.project, p.manages, (dashboards) => detailRequests(p, dashboards)),
      ),
    ),
  );
  return { live: read.map((r) => r.live), reads: read.map((r) => r.read) };
}

/** Live state read again exactly as recorded (for a saved plan). */
export async function refetchLiveState(
  client: ServiceClient,
  reads: readonly ReadSet[],
): Promise<LiveProject[]> {
  const read = await Promise.all(
    reads.map((r) =>
      inProject(r.project, () =>
        fetchProject(
          client,
          r.project,
          { dashboards: r.dashboards, batch_exports: r.batch_exports },
          () => r,
        ),
      ),
    ),
  );
  return read.map((r) => r.live);
}

/**
 * Names the project in a service error: "Project not found." or a 403 on one of several projects says
 * nothing about which one without it.
 */
async function inProject<T>(project: number, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ServiceError) throw new UserError(`reading project ${project}: ${error.message}`);
    throw error;
  }
}

async function fetchProject(
  client: ServiceClient,
  project: number,
  manages: DesiredProject["manages"],
  details: (dashboards: DashboardBasic[]) => { collaborators: number[]; sharing: number[] },
): Promise<{ live: LiveProject; read: ReadSet }> {
  const [dashboards, batchExports] = await Promise.all([
    manages.dashboards ? client.dashboards.listAll(project) : [],
    manages.batch_exports ? client.batchExports.listAll(project) : [],
  ]);
  const wanted = details(dashboards);
  const collaborators: Record<number, Collaborator[]> = {};
  const sharing: Record<number, SharingConfiguration> = {};
  // The client bounds concurrency and paces requests; issuing them together lets it fill its slots.
  await Promise.all([
    ...wanted.collaborators.map(async (id) => {
      collaborators[id] = await client.collaborators.list(project, id);
    }),
    ...wanted.sharing.map(async (id) => {
      sharing[id] = await client.sharing.get(project, id);
    }),
  ]);
  return {
    live: { project, dashboards, collaborators, sharing, batchExports },
    read: {
      project,
      dashboards: manages.dashboards,
      batch_exports: manages.batch_exports,
      collaborators: [...wanted.collaborators],
      sharing: [...wanted.sharing],
    },
  };
}

/**
 * The organization's paid features for a project: two GETs (project → organization), made only when a
 * plan changes tags or adds collaborators, so a no-op plan never pays for them.
 */
export async function fetchFeatures(
  client: ServiceClient,
  project: number,
): Promise<NonNullable<LiveProject["features"]>> {
  const { organization } = await client.organizations.getProject(project);
  const keys = featureKeys(await client.organizations.get(String(organization)));
  return { tagging: keys.has("tagging"), advanced_permissions: keys.has("advanced_permissions") };
}
