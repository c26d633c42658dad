/**
 * Read live state, then plan. When some kind's plan depends on the organization's paid features (tags,
 * collaborators), they are looked up and the plan is made again, so writes the service would silently
 * ignore become notes instead of changes planned forever (no perpetual diffs).
 */
import type { DesiredProject } from "../config/types.js";
import { type BuildOptions, buildPlan, featureLookupNeeded, type PlanError } from "../plan/index.js";
import type { PlanKind } from "../plan/kinds.js";
import type { LiveProject, Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/index.js";
import { fetchFeatures, fetchLiveState, newReadRun, type ReadSet } from "./fetch.js";
import type { ReadKind } from "./kinds.js";
import { isRefusal, type MemberDirectory, organizationRefusal } from "./people.js";
import { type ChangeToRead, changeOnLive, fetchChangedState, type RemovedLive } from "./scoped.js";

export interface MadePlan {
  plan: Plan;
  errors: PlanError[];
  live: LiveProject[];
  reads: ReadSet[];
  /** The run's members directory: naming the plan's people reuses what the read stage read. */
  members: MemberDirectory;
}

/** A change-scoped plan: the change's live state and the plan of its declarations (SPEC §3). */
export interface MadeChangePlan extends MadePlan {
  /** `declarationKey`s of the declarations planned. */
  planned: string[];
  removed: RemovedLive[];
  /** Set when the lists were read whole, since they cost fewer requests than the change: why. */
  whole?: string;
}

/**
 * Reads only what the change needs and plans only its declarations (`options.scope`). When the lists
 * cost fewer requests than reading the change one by one, it reads them whole and still plans only
 * the change (`whole` says why): a plan saved with --changed-only applies only the change, whatever
 * it cost to read.
 */
export async function readAndPlanChange(
  kinds: readonly (PlanKind & ReadKind)[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  options: BuildOptions,
  change: ChangeToRead,
): Promise<MadeChangePlan> {
  const run = newReadRun(client);
  const read = await fetchChangedState(kinds, client, desired, change, run);
  if ("full" in read) {
    const all = await fetchLiveState(kinds, client, desired, run);
    const { planned, removed } = changeOnLive(kinds, desired, change, all.live);
    const made = await planFromLive(kinds, client, desired, all.live, { ...options, scope: planned });
    return { ...made, ...all, members: run.members, planned, removed, whole: read.full };
  }
  const planned = await planFromLive(kinds, client, desired, read.live, { ...options, scope: read.planned });
  return {
    ...planned,
    live: read.live,
    reads: read.reads,
    members: run.members,
    planned: read.planned,
    removed: read.removed,
  };
}

export async function readAndPlan(
  kinds: readonly (PlanKind & ReadKind)[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  options: BuildOptions,
): Promise<MadePlan> {
  const run = newReadRun(client);
  const { live, reads } = await fetchLiveState(kinds, client, desired, run);
  return {
    ...(await planFromLive(kinds, client, desired, live, options)),
    live,
    reads,
    members: run.members,
  };
}

/**
 * Plans against live state already read, looking the organizations' features up (and planning again)
 * only when some kind's plan depends on them. `live` gains the features it looked up; a key the
 * service refuses them to gets a plan note instead of an error.
 */
export async function planFromLive(
  kinds: readonly PlanKind[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  live: LiveProject[],
  options: BuildOptions,
): Promise<{ plan: Plan; errors: PlanError[] }> {
  const first = buildPlan(kinds, desired, live, options);
  if (!featureLookupNeeded(kinds, first.plan.actions)) return first;
  const projects = new Set(first.plan.actions.map((a) => a.object.project));
  let refused: string | undefined;
  await Promise.all(
    live
      .filter((p) => projects.has(p.project) && p.features === undefined)
      .map(async (p) => {
        try {
          p.features = await fetchFeatures(client, p.project);
        } catch (error) {
          // A key that may not read the organization (a project-scoped one) still plans, and says so.
          if (!isRefusal(error)) throw error;
          refused = organizationRefusal(error, "the organization's record", "organization:read");
        }
      }),
  );
  const again = buildPlan(kinds, desired, live, options);
  if (refused !== undefined) {
    again.plan.notes.push({
      severity: "warning",
      message: `the organization's paid features could not be read (${refused}): tags and collaborators are planned as if it has them`,
    });
  }
  return again;
}
