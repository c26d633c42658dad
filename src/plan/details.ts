/**
 * Which per-dashboard details the read stage must fetch: collaborators only for live dashboards whose
 * declaration lists `collaborators`, sharing only where `sharing` is declared and the list's `is_shared`
 * differs from it (SPEC §6: nothing per unchanged object beyond that). Uses the planner's own matching so read and plan agree on identity.
 * Apply must fetch the same set again, or fingerprints of saved plans will not match.
 */
import type { DesiredProject } from "../config/types.js";
import type { DashboardBasic } from "../service/types.js";
import type { PlanError } from "./context.js";
import { matchObjects } from "./match.js";

export function detailRequests(
  desired: DesiredProject,
  dashboards: readonly DashboardBasic[],
): { collaborators: number[]; sharing: number[] } {
  const ignoredErrors: PlanError[] = [];
  const { pairs } = matchObjects(desired.dashboards, dashboards, "dashboard", ignoredErrors);
  const collaborators: number[] = [];
  const sharing: number[] = [];
  for (const { desired: d, live } of pairs) {
    if (!live || d.deleted) continue;
    if (d.collaborators) collaborators.push(live.id);
    // The list's is_shared mirrors the sharing switch; the sharing GET only confirms a difference, so a
    // plan with nothing to change sends no request per dashboard for sharing.
    if (d.sharing && d.sharing.enabled !== live.is_shared) sharing.push(live.id);
  }
  return { collaborators, sharing };
}
