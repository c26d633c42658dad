/**
 * What an apply comes to: one outcome per action, then the check for names created twice. The same
 * value is the library's `applyPlan` result and what `apply --format json` prints
 * (schemas/apply.schema.json, `applySchema`).
 */
import type { Plan } from "../plan/types.js";
import { type ActionResult, type ApplyDeps, applyPlan } from "./apply.js";
import { type Duplicate, findDuplicates } from "./duplicates.js";

/** "2": each result carries its action in the plan's format 2. */
export const APPLY_FORMAT_VERSION = "2";

export interface ApplyResult {
  /** Bumped on any incompatible change to this shape. */
  format_version: typeof APPLY_FORMAT_VERSION;
  /** Every action succeeded and no created name has several live objects. */
  ok: boolean;
  /** One per action of the plan, in the order their outcomes became known. */
  results: ActionResult[];
  /**
   * Names this apply created that now have several live objects of their kind in their project (another
   * apply created the same at the same moment), with their ids: pin one with `id:`, delete the others.
   */
  duplicates: Duplicate[];
  /** Why the created names could not all be checked for duplicates (a list request failed, a stop). */
  unchecked?: string;
}

/**
 * Applies the plan, then checks the names it created for duplicates; a run stopped by `deps.signal`
 * reads nothing more (the check is then `unchecked`). Never throws for a failed action: see `ok`.
 */
export async function applyAndCheck(plan: Plan, deps: ApplyDeps): Promise<ApplyResult> {
  const results = await applyPlan(plan, deps);
  const stopped = deps.signal?.aborted === true;
  const check = stopped
    ? results.some((r) => r.action.action === "create" && r.outcome === "ok")
      ? { duplicates: [], unchecked: "the run was stopped before the created names were checked" }
      : { duplicates: [] }
    : await findDuplicates(plan, results, deps);
  const ok = results.every((r) => r.outcome === "ok") && check.duplicates.length === 0;
  return { format_version: APPLY_FORMAT_VERSION, ok, results, ...check };
}
