/**
 * Groups a plan's actions by project, then kind, then object, keeping the plan's order within each
 * group (the planner sorts once; renderers never re-sort actions of one object).
 */
import type { Action, ObjectRef, Plan } from "../plan/types.js";
import { objectKey } from "../plan/types.js";
import type { Vocabulary } from "./kinds.js";

export interface ObjectGroup {
  object: ObjectRef;
  actions: Action[];
}

export interface KindGroup {
  kind: string;
  objects: ObjectGroup[];
}

export interface ProjectGroup {
  project: number;
  kinds: KindGroup[];
}

/** The object sections, in plan order of each object's first action. */
export function objectGroups(actions: readonly Action[]): ObjectGroup[] {
  const byKey = new Map<string, ObjectGroup>();
  for (const action of actions) {
    const key = objectKey(action.object);
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, { object: action.object, actions: [action] });
    else group.actions.push(action);
  }
  return [...byKey.values()];
}

/** Projects in `plan.projects` order (then any other project an action names), kinds in registry order. */
export function projectGroups(plan: Plan, vocab: Vocabulary): ProjectGroup[] {
  const objects = objectGroups(plan.actions);
  const projects = [...new Set([...plan.projects, ...objects.map((o) => o.object.project)])];
  const kindNames = [...new Set(objects.map((o) => o.object.kind))].sort(
    (a, b) => vocab.order(a) - vocab.order(b),
  );
  const out: ProjectGroup[] = [];
  for (const project of projects) {
    const kinds: KindGroup[] = [];
    for (const kind of kindNames) {
      const inKind = objects.filter((o) => o.object.project === project && o.object.kind === kind);
      if (inKind.length > 0) kinds.push({ kind, objects: inKind });
    }
    if (kinds.length > 0) out.push({ project, kinds });
  }
  return out;
}
