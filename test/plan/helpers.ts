import type { DesiredProject } from "../../src/config/types.js";
import { buildPlan } from "../../src/plan/build.js";
import type { BuildOptions } from "../../src/plan/context.js";
import type { Action, LiveProject } from "../../src/plan/types.js";
import { desiredProject, liveProject, options } from "../builders.js";

/** Plans one desired project against one live project. */
export function planOne(
  desired: Partial<DesiredProject>,
  live: Partial<LiveProject>,
  opts: Partial<BuildOptions> = {},
) {
  return buildPlan([desiredProject(desired)], [liveProject(live)], options(opts));
}

/** `action:name` per action, in plan order: compact expectations for table tests. */
export function steps(actions: readonly Action[]): string[] {
  return actions.map((a) => `${a.action}:${a.object.name}`);
}
