/**
 * The restore of a pinned object that is not in the live list (SPEC §3 "Deletes"): planned as a PATCH of
 * exactly `{"deleted": false}`, with the warning that apply fails if the id never existed.
 */
import { makeAction } from "../../plan/context.js";
import type { Action, ObjectRef } from "../../plan/types.js";
import { RESTORE } from "./verbs.js";

export function restoreAction(ref: ObjectRef, id: number | string | undefined): Action {
  return makeAction(RESTORE, ref, {
    before: { deleted: true },
    after: { deleted: false },
    changes: [{ path: "deleted", before: true, after: false }],
    warnings: [`id ${id} is not in the live list: restored if soft-deleted; apply fails if it never existed`],
  });
}
