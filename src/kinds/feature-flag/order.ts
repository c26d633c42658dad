/**
 * Apply order across flags (SPEC §3): a flag others depend on is created, restored or enabled before
 * them (the service refuses a dependency on a flag that is missing or disabled), and they are turned
 * off, archived or deleted before it (it refuses to disable or delete a flag active flags depend on).
 * The references come from the actions themselves: the filters an action writes, and `depends_on`,
 * what the live flag depended on when the plan was made.
 */
import type { Action } from "../../plan/types.js";
import { flagReferences } from "./dependencies.js";

const DOWN = new Set(["soft_delete", "archive"]);

function goesDown(action: Action): boolean {
  return DOWN.has(action.action) || (action.action === "update" && action.after?.active === false);
}

function referencesOf(actions: readonly Action[]): Set<string> {
  const refs = new Set<string>();
  for (const action of actions) {
    for (const ref of flagReferences(action.after?.filters)) refs.add(ref.key);
    const before = action.before?.depends_on;
    if (Array.isArray(before)) for (const key of before) if (typeof key === "string") refs.add(key);
  }
  return refs;
}

/** For the plan's flags of one project (actions by object key): the objects each must wait for. */
export function flagWaits(objects: ReadonlyMap<string, readonly Action[]>): Map<string, string[]> {
  const steps = [...objects].map(([object, actions]) => ({
    object,
    key: actions[0]?.object.name ?? "",
    refs: referencesOf(actions),
    down: actions.some(goesDown),
  }));
  const waits = new Map<string, string[]>();
  for (const step of steps) {
    const before = step.down
      ? steps.filter((other) => other !== step && other.down && other.refs.has(step.key))
      : steps.filter((other) => other !== step && !other.down && step.refs.has(other.key));
    if (before.length > 0)
      waits.set(
        step.object,
        before.map((s) => s.object),
      );
  }
  return waits;
}
