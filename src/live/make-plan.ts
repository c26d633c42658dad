/**
 * Read live state, then plan. When the plan would write tags or add collaborators, the organization's
 * paid features are looked up and the plan is made again, so writes the service would silently ignore
 * become notes instead of changes planned forever (no perpetual diffs).
 */
import type { DesiredProject } from "../config/types.js";
import { type BuildOptions, buildPlan, featureLookupNeeded, type PlanError } from "../plan/index.js";
import type { LiveProject, Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/index.js";
import { fetchFeatures, fetchLiveState, type ReadSet } from "./fetch.js";

export interface MadePlan {
  plan: Plan;
  errors: PlanError[];
  live: LiveProject[];
  reads: ReadSet[];
}

export async function makePlan(
  client: ServiceClient,
  desired: readonly DesiredProject[],
  options: BuildOptions,
): Promise<MadePlan> {
  const { live, reads } = await fetchLiveState(client, desired);
  const first = buildPlan(desired, live, options);
  if (!featureLookupNeeded(first.plan)) return { ...first, live, reads };
  const projects = new Set(first.plan.actions.map((a) => a.object.project));
  await Promise.all(
    live
      .filter((p) => projects.has(p.project))
      .map(async (p) => {
        p.features = await fetchFeatures(client, p.project);
      }),
  );
  return { ...buildPlan(desired, live, options), live, reads };
}
