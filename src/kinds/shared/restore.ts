/**
 * The restore of a pinned object that is not in the live list (SPEC §3 "Deletes"): planned as a PATCH of
 * exactly `{"deleted": false}`, with the warning that apply fails if the id never existed (`id`; none
 * when the object was read soft-deleted). The service answers 404 alike for a soft-deleted object and
 * one that never existed, so only the restore tells; when it fails so, the outcome names the pin, the
 * project and what to do (`restoring`).
 */
import { UserError } from "../../errors.js";
import { makeAction } from "../../plan/context.js";
import type { PlanVerb } from "../../plan/kinds.js";
import type { Action, ObjectRef } from "../../plan/types.js";
import { ServiceError } from "../../service/errors.js";
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
        : [
            `id ${id} is not in project ${ref.project}'s live list: soft-deleted, or never there (the service answers alike, so plan cannot tell); apply restores it if it was soft-deleted, and otherwise fails naming the pin`,
          ],
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

/**
 * Runs a restore's request; a 404 (the id is neither live nor soft-deleted in the project) becomes one
 * outcome that names the pin, the project and the fix: the other actions of the apply go on.
 */
export async function restoring(
  action: Action,
  id: number | string,
  one: string,
  send: () => Promise<unknown>,
): Promise<void> {
  try {
    await send();
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      const where = action.object.source
        ? ` (${action.object.source.file}:${action.object.source.line})`
        : "";
      throw new UserError(
        `project ${action.object.project} has no ${one} ${id}, live or soft-deleted: remove the \`id: ${id}\` pin of ${one} "${action.object.name}"${where} to create it anew`,
      );
    }
    throw error;
  }
}
