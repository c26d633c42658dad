import { KINDS } from "../../src/kinds/index.js";
import { buildPlan } from "../../src/plan/build.js";
import type { BuildOptions } from "../../src/plan/context.js";
import type { Action } from "../../src/plan/types.js";
import {
  type DesiredProjectSpec,
  desiredProject,
  type LiveProjectSpec,
  liveProject,
  options,
} from "../builders.js";

/** Plans one desired project against one live project. */
export function planOne(
  desired: DesiredProjectSpec,
  live: LiveProjectSpec,
  opts: Partial<BuildOptions> = {},
) {
  return buildPlan(KINDS, [desiredProject(desired)], [liveProject(live)], options(opts));
}

/** `action:name` per action, in plan order: compact expectations for table tests. */
export function steps(actions: readonly Action[]): string[] {
  return actions.map((a) => `${a.action}:${a.object.name}`);
}
