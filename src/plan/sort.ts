/**
 * The one order of a plan, used by every output and by fingerprints: objects by project, kind (the
 * registry's order), name; per object by the step of each action's verb (create/restore, update, the
 * kinds' own verbs such as collaborator removes then adds, sharing, pause/unpause), then the verb's own
 * key; deletes of every object after all the rest.
 */
import type { PlanKind } from "./kinds.js";
import type { Action, PlanNote } from "./types.js";
import { compareText } from "./values.js";
import type { PlanVerb } from "./verbs.js";

/** A kind's place among the kinds (its index in the registry, unknown kinds last) and its verbs. */
export interface KindOrder {
  kind(name: string): number;
  verb(name: string): PlanVerb | undefined;
}

export function kindOrder(kinds: readonly Pick<PlanKind, "name" | "verbs">[]): KindOrder {
  const index = new Map(kinds.map((k, i) => [k.name, i]));
  const verbs = new Map<string, PlanVerb>();
  for (const kind of kinds)
    for (const verb of kind.verbs) if (!verbs.has(verb.name)) verbs.set(verb.name, verb);
  return { kind: (kind) => index.get(kind) ?? kinds.length, verb: (name) => verbs.get(name) };
}

export function compareActions(a: Action, b: Action, order: KindOrder): number {
  const va = order.verb(a.action);
  const vb = order.verb(b.action);
  const key = (v: PlanVerb | undefined, action: Action) => v?.sortKey?.(action) ?? "";
  return (
    Number(va?.deletes === true) - Number(vb?.deletes === true) ||
    a.object.project - b.object.project ||
    order.kind(a.object.kind) - order.kind(b.object.kind) ||
    compareText(a.object.name, b.object.name) ||
    (va?.step ?? 0) - (vb?.step ?? 0) ||
    compareText(key(va, a), key(vb, b))
  );
}

/** A sorted copy; the sort is stable, so equal keys keep the order the planner produced. */
export function sortActions(actions: readonly Action[], order: KindOrder): Action[] {
  return [...actions].sort((a, b) => compareActions(a, b, order));
}

/** Notes in object order (plan-wide notes first), so outputs do not depend on file order. */
export function sortNotes(notes: readonly PlanNote[], order: KindOrder): PlanNote[] {
  const key = (n: PlanNote): [number, number, string] =>
    n.object ? [n.object.project, order.kind(n.object.kind), n.object.name] : [0, -1, ""];
  return [...notes].sort((a, b) => {
    const [pa, ka, na] = key(a);
    const [pb, kb, nb] = key(b);
    return pa - pb || ka - kb || compareText(na, nb);
  });
}
