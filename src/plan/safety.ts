/**
 * The plan's guards, both lifted by --force: a plan that deletes more than max(5, 20%) of a project's
 * live objects of one kind (deletes counted whatever asked for them: prune, tombstones, replacement),
 * and any action its kind guards (`Action.guard`: a feature flag live in production turned off,
 * deleted, archived or re-keyed).
 */
import type { PlanKind } from "./kinds.js";
import { type LiveProject, liveOf, liveTotal, type Plan } from "./types.js";

export const DELETE_FLOOR = 5;
export const DELETE_RATIO = 0.2;

/** The largest number of deletes of one kind allowed without --force, given the live count. */
export function deleteLimit(liveCount: number): number {
  return Math.max(DELETE_FLOOR, Math.floor(liveCount * DELETE_RATIO));
}

/** An error message naming the counts when the plan deletes too much, else undefined. */
export function checkSafety(
  kinds: readonly Pick<PlanKind, "name" | "words" | "verbs">[],
  plan: Pick<Plan, "actions">,
  live: readonly LiveProject[],
  options: { force: boolean },
): string | undefined {
  if (options.force) return undefined;
  const deletes = new Map<string, { project: number; kind: string; count: number }>();
  for (const action of plan.actions) {
    const kindOf = kinds.find((k) => k.name === action.object.kind);
    if (!kindOf?.verbs.some((v) => v.name === action.action && v.deletes)) continue;
    const key = `${action.object.project}/${action.object.kind}`;
    const entry = deletes.get(key) ?? { project: action.object.project, kind: action.object.kind, count: 0 };
    entry.count += 1;
    deletes.set(key, entry);
  }
  const problems: string[] = [];
  for (const { project, kind, count } of deletes.values()) {
    const liveProject = live.find((p) => p.project === project);
    // A change-scoped read knows the kind's count only when it asked for it (many deletes).
    const kindLive = liveProject ? liveOf(liveProject, kind) : undefined;
    const liveCount = kindLive ? (liveTotal(kindLive) ?? kindLive.objects.length) : 0;
    const limit = deleteLimit(liveCount);
    if (count > limit) {
      const label = kinds.find((k) => k.name === kind)?.words.many ?? kind;
      problems.push(`${count} of ${liveCount} ${label} in project ${project} (limit ${limit})`);
    }
  }
  const guarded = plan.actions.filter((a) => a.guard !== undefined);
  const lines: string[] = [];
  if (problems.length > 0) {
    lines.push(
      `refusing a plan that deletes ${problems.join(" and ")}: more than max(${DELETE_FLOOR}, ${DELETE_RATIO * 100}%) of the live objects; check the plan and rerun with --force if it is intended`,
    );
  }
  if (guarded.length > 0) {
    const label = (kind: string) => kinds.find((k) => k.name === kind)?.words.one ?? kind;
    const reasons = guarded.map(
      (a) => `${label(a.object.kind)} "${a.object.name}" in project ${a.object.project}: ${a.guard}`,
    );
    lines.push(
      `refusing a plan with ${guarded.length === 1 ? "a change" : `${guarded.length} changes`} that need${guarded.length === 1 ? "s" : ""} --force: ${[...new Set(reasons)].join("; ")}; check the plan and rerun with --force if it is intended`,
    );
  }
  return lines.length === 0 ? undefined : lines.join("; also ");
}
