import type { Action, Plan, PlanSummary } from "./types.js";

/** Counts per action kind, the total, and whether anything destructive is planned. */
export function summarise(actions: readonly Action[]): PlanSummary {
  const counts: PlanSummary["counts"] = {};
  for (const a of actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
  return { counts, total: actions.length, destructive: actions.some((a) => a.destructive) };
}

/**
 * True when the plan writes tags (an update changing them, or a create declaring some): the read stage
 * then looks up the organization's features and plans again, so tags the service would ignore become a
 * note instead of a change planned forever.
 */
export function tagChangesPresent(plan: Pick<Plan, "actions">): boolean {
  return plan.actions.some(
    (a) =>
      a.object.kind === "dashboard" &&
      ((a.action === "update" && a.changes.some((c) => c.path === "tags")) ||
        (a.action === "create" && Array.isArray(a.after?.tags) && a.after.tags.length > 0)),
  );
}

/** True when the organization's features could change the plan: tags (above) or collaborator adds. */
export function featureLookupNeeded(plan: Pick<Plan, "actions">): boolean {
  return tagChangesPresent(plan) || plan.actions.some((a) => a.action === "add_collaborator");
}
