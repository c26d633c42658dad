/**
 * The declarations a change-scoped plan plans (SPEC §3 "Change-scoped plans"): those of the change,
 * and those it takes a live object from. A declaration the change pins claims its live object; an
 * unchanged, unpinned declaration that bore that object's name is left without one, and the full plan
 * would create its object again: it is planned with the change. One rule, asked by the read stage
 * (which names to read as well) and the planner (what to plan).
 */
import type { Declared } from "../config/types.js";
import { declarationKey } from "./context.js";
import type { LiveObject } from "./types.js";

/** The unpinned declarations outside `scope` whose name a live object pinned by one inside it bears. */
export function displaced(
  project: number,
  declared: readonly Declared[],
  scope: ReadonlySet<string>,
  live: readonly LiveObject[],
): Declared[] {
  const pins = new Set(
    declared.flatMap((d) => (d.id !== undefined && scope.has(declarationKey(project, d)) ? [d.id] : [])),
  );
  const taken = new Set(live.filter((o) => pins.has(o.id)).map((o) => o.name ?? ""));
  return declared.filter(
    (d) => d.id === undefined && taken.has(d.name) && !scope.has(declarationKey(project, d)),
  );
}
