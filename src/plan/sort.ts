/**
 * The one order of a plan, used by every output and by fingerprints: objects by project, kind, name;
 * per object create/restore, update, collaborator removes then adds, sharing, pause/unpause; deletes
 * (soft_delete / delete) of every object after all the rest.
 */
import { compareText } from "../kinds/normalise.js";
import type { Action, ActionKind, PlanNote, ResourceKind } from "./types.js";

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

const KIND_ORDER: Record<ResourceKind, number> = { dashboard: 0, batch_export: 1 };

function isDelete(action: Action): boolean {
  return action.action === "soft_delete" || action.action === "delete";
}

function collaboratorOf(action: Action): string {
  const side = action.after ?? action.before;
  return typeof side?.user_uuid === "string" ? side.user_uuid : "";
}

export function compareActions(a: Action, b: Action): number {
  return (
    Number(isDelete(a)) - Number(isDelete(b)) ||
    a.object.project - b.object.project ||
    KIND_ORDER[a.object.kind] - KIND_ORDER[b.object.kind] ||
    compareText(a.object.name, b.object.name) ||
    STEP[a.action] - STEP[b.action] ||
    compareText(collaboratorOf(a), collaboratorOf(b))
  );
}

/** A sorted copy; the sort is stable, so equal keys keep the order the planner produced. */
export function sortActions(actions: readonly Action[]): Action[] {
  return [...actions].sort(compareActions);
}

/** Notes in object order (plan-wide notes first), so outputs do not depend on file order. */
export function sortNotes(notes: readonly PlanNote[]): PlanNote[] {
  const key = (n: PlanNote) =>
    n.object ? [n.object.project, KIND_ORDER[n.object.kind], n.object.name] : [0, -1, ""];
  return [...notes].sort((a, b) => {
    const [pa, ka, na] = key(a) as [number, number, string];
    const [pb, kb, nb] = key(b) as [number, number, string];
    return pa - pb || ka - kb || compareText(na, nb);
  });
}
