/**
 * The one order of a plan, used by every output and by fingerprints: objects by project, kind (the
 * registry's order), name; per object create/restore, update, collaborator removes then adds, sharing,
 * pause/unpause; deletes (soft_delete / delete) of every object after all the rest.
 */
import type { PlanKind } from "./kinds.js";
import type { Action, ActionKind, PlanNote } from "./types.js";
import { compareText } from "./values.js";

const STEP: Record<ActionKind, number> = {
  create: 0,
  restore: 0,
  update: 1,
  remove_collaborator: 2,
  add_collaborator: 3,
  enable_sharing: 4,
  disable_sharing: 4,
  pause: 5,
  unpause: 5,
  soft_delete: 6,
  delete: 6,
};

/** A kind's place among the kinds: its index in the registry (unknown kinds last). */
export type KindOrder = (kind: string) => number;

export function kindOrder(kinds: readonly Pick<PlanKind, "name">[]): KindOrder {
  const index = new Map(kinds.map((k, i) => [k.name, i]));
  return (kind) => index.get(kind) ?? kinds.length;
}

function isDelete(action: Action): boolean {
  return action.action === "soft_delete" || action.action === "delete";
}

function collaboratorOf(action: Action): string {
  const side = action.after ?? action.before;
  return typeof side?.user_uuid === "string" ? side.user_uuid : "";
}

export function compareActions(a: Action, b: Action, order: KindOrder): number {
  return (
    Number(isDelete(a)) - Number(isDelete(b)) ||
    a.object.project - b.object.project ||
    order(a.object.kind) - order(b.object.kind) ||
    compareText(a.object.name, b.object.name) ||
    STEP[a.action] - STEP[b.action] ||
    compareText(collaboratorOf(a), collaboratorOf(b))
  );
}

/** A sorted copy; the sort is stable, so equal keys keep the order the planner produced. */
export function sortActions(actions: readonly Action[], order: KindOrder): Action[] {
  return [...actions].sort((a, b) => compareActions(a, b, order));
}

/** Notes in object order (plan-wide notes first), so outputs do not depend on file order. */
export function sortNotes(notes: readonly PlanNote[], order: KindOrder): PlanNote[] {
  const key = (n: PlanNote): [number, number, string] =>
    n.object ? [n.object.project, order(n.object.kind), n.object.name] : [0, -1, ""];
  return [...notes].sort((a, b) => {
    const [pa, ka, na] = key(a);
    const [pb, kb, nb] = key(b);
    return pa - pb || ka - kb || compareText(na, nb);
  });
}
