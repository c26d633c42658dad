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
import { fetchFeatures, fetchLiveState, type ReadSet } from "./fetch.js";
import type { ReadKind } from "./kinds.js";
import { type ChangeToRead, changeOnLive, fetchChangedState, type RemovedLive } from "./scoped.js";

export interface MadePlan {
  plan: Plan;
  errors: PlanError[];
  live: LiveProject[];
  reads: ReadSet[];
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
 * cost fewer requests than the change, `whole` says what then: `plan` answers `full` (the caller makes
 * the full plan), `change` reads the lists whole and still plans only the change (an apply that must
 * leave every other object as it is).
 */
export async function readAndPlanChange(
  kinds: readonly (PlanKind & ReadKind)[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  options: BuildOptions,
  change: ChangeToRead,
  whole: "plan" | "change",
): Promise<MadeChangePlan | { full: string }> {
  const read = await fetchChangedState(kinds, client, desired, change);
  if ("full" in read) {
    if (whole === "plan") return read;
    const all = await fetchLiveState(kinds, client, desired);
    const { planned, removed } = changeOnLive(kinds, desired, change, all.live);
    const made = await planFromLive(kinds, client, desired, all.live, { ...options, scope: planned });
    return { ...made, ...all, planned, removed, whole: read.full };
  }
  const planned = await planFromLive(kinds, client, desired, read.live, { ...options, scope: read.planned });
  return { ...planned, live: read.live, reads: read.reads, planned: read.planned, removed: read.removed };
}

export async function readAndPlan(
  kinds: readonly (PlanKind & ReadKind)[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  options: BuildOptions,
): Promise<MadePlan> {
  const { live, reads } = await fetchLiveState(kinds, client, desired);
  return { ...(await planFromLive(kinds, client, desired, live, options)), live, reads };
}

/**
 * Plans against live state already read, looking the organizations' features up (and planning again)
 * only when some kind's plan depends on them. `live` gains the features it looked up.
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
  await Promise.all(
    live
      .filter((p) => projects.has(p.project) && p.features === undefined)
      .map(async (p) => {
        p.features = await fetchFeatures(client, p.project);
      }),
  );
  return buildPlan(kinds, desired, live, options);
}
