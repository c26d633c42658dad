/**
 * The restore of a pinned object that is not in the live list (SPEC §3 "Deletes"): planned as a PATCH of
 * exactly `{"deleted": false}`, with the warning that apply fails if the id never existed (`id`; none
 * when the object was read soft-deleted).
 */
import { makeAction } from "../../plan/context.js";
import type { PlanVerb } from "../../plan/kinds.js";
import type { Action, ObjectRef } from "../../plan/types.js";
import { RESTORE } from "./verbs.js";

export function restoreAction(ref: ObjectRef, id: number | string | undefined): Action {
  return makeAction(RESTORE, ref, {
    before: { deleted: true },
    after: { deleted: false },
    changes: [{ path: "deleted", before: true, after: false }],
    // No id: the object was read soft-deleted (a flag), so it exists.
    warnings:
      id === undefined
        ? []
        : [`id ${id} is not in the live list: restored if soft-deleted; apply fails if it never existed`],
  });
}

/**
 * The update after a restore of an object that was deleted when the plan read it: its live values are
 * unknown (`before` holds the same keys, each null) and it sends every declared field. Its
 * precondition says so (`live: "unknown"`): a kind may read the object back first and send only what
 * differs (dashboards).
 */
export function blindUpdate(
  verb: PlanVerb,
  ref: ObjectRef,
  after: Record<string, unknown>,
  warning: string,
): Action {
  return makeAction(verb, ref, {
    before: Object.fromEntries(Object.keys(after).map((key) => [key, null])),
    after,
    changes: Object.entries(after).map(([path, value]) => ({ path, after: value })),
    preconditions: { live: "unknown" },
    warnings: [warning],
  });
}
