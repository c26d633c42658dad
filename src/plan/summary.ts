import type { PlanKind } from "./kinds.js";
import type { Action, PlanSummary } from "./types.js";

/** Counts per action kind, the total, and whether anything destructive is planned. */
export function summarise(actions: readonly Action[]): PlanSummary {
  const counts: PlanSummary["counts"] = {};
  for (const a of actions) counts[a.action] = (counts[a.action] ?? 0) + 1;
  return { counts, total: actions.length, destructive: actions.some((a) => a.destructive) };
}

/**
 * True when the organization's paid features could change the plan (some kind says so of its actions):
 * the read stage then looks them up and plans again, so writes the service would silently ignore become
 * notes instead of changes planned forever.
 */
export function featureLookupNeeded(kinds: readonly PlanKind[], actions: readonly Action[]): boolean {
  return kinds.some((kind) => {
    const own = actions.filter((a) => a.object.kind === kind.name);
    return own.length > 0 && kind.needsFeatures?.(own) === true;
  });
}
