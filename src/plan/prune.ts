/**
 * --prune: live objects of a project that no file declares (by id or name; tombstones count as
 * declared) are deleted, only for the kinds the project's files list, never those whose name matches
 * the project's `ignore` globs for that kind. How an object is deleted is its kind's business.
 */
import { globMatcher } from "../config/ignore.js";
import type { KindPlanContext, PlanKind } from "./kinds.js";
import type { ObjectRef } from "./types.js";

export function planPrune(
  kind: PlanKind,
  globs: readonly string[],
  ctx: KindPlanContext,
  claimed: ReadonlySet<number | string>,
): void {
  const ignored = matcher(globs);
  const counts = new Map<string, number>();
  for (const object of ctx.live.objects) {
    const name = object.name ?? "";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const object of ctx.live.objects) {
    const name = object.name ?? "";
    if (claimed.has(object.id) || ignored(name)) continue;
    // A live name shared by several pruned objects gets its id appended, so each has its own key.
    const unique = (counts.get(name) ?? 0) <= 1;
    const ref: ObjectRef = {
      kind: kind.name,
      project: ctx.project,
      name: unique ? name : `${name} (id ${object.id})`,
      id: object.id,
    };
    ctx.sink.actions.push(kind.prune(object, ref, ctx));
  }
}

function matcher(globs: readonly string[]): (name: string) => boolean {
  return globs.length === 0 ? () => false : globMatcher(globs);
}
