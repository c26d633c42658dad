/**
 * The pure planner: desired projects + live projects → one sorted `Plan`, with every error collected
 * (the command prints them all and exits 1). No I/O: the read stage hands in live state, the apply stage
 * executes the result.
 */
import type { DesiredProject } from "../config/types.js";
import { planBatchExports } from "./batch-exports.js";
import { type BuildOptions, newSink, type PlanError, type PlanSink } from "./context.js";
import { planDashboards } from "./dashboards.js";
import { fingerprintActions } from "./fingerprint.js";
import { matchObjects } from "./match.js";
import { planPrune } from "./prune.js";
import { sortActions, sortNotes } from "./sort.js";
import { summarise } from "./summary.js";
import { narrowToTargets } from "./targets.js";
import { type LiveProject, PLAN_FORMAT_VERSION, type Plan } from "./types.js";

export type { BuildOptions, PlanError } from "./context.js";

export function buildPlan(
  desired: readonly DesiredProject[],
  live: readonly LiveProject[],
  options: BuildOptions,
): { plan: Plan; errors: PlanError[] } {
  const sink = newSink();
  const liveByProject = new Map(live.map((p) => [p.project, p]));
  const projects = new Set<number>();
  for (const project of desired) {
    if (project.project === undefined) {
      const file = project.files[0];
      sink.errors.push({
        message: "no project id: set `project:` in the files, --project, or POSTHOG_PROJECT_ID",
        ...(file ? { source: { file, line: 1, column: 1 } } : {}),
      });
      continue;
    }
    const liveProject = liveByProject.get(project.project);
    if (!liveProject) {
      sink.errors.push({ message: `no live state was read for project ${project.project}` });
      continue;
    }
    projects.add(project.project);
    planProject(project, liveProject, options, sink);
  }
  let actions = sink.actions;
  let notes = sink.notes;
  if (options.targets !== undefined) {
    ({ actions, notes } = narrowToTargets(sink, desired, live, options.targets));
  }
  actions = sortActions(actions);
  notes = sortNotes(notes);
  const plan: Plan = {
    format_version: PLAN_FORMAT_VERSION,
    created_at: options.now.toISOString(),
    projects: [...projects].sort((a, b) => a - b),
    actions,
    notes,
    fingerprints: fingerprintActions(actions, live),
    summary: summarise(actions),
  };
  return { plan, errors: sink.errors };
}

function planProject(
  project: DesiredProject,
  live: LiveProject,
  options: BuildOptions,
  sink: PlanSink,
): void {
  const dashboards = matchObjects(project.dashboards, live.dashboards, "dashboard", sink.errors);
  const exports = matchObjects(project.batchExports, live.batchExports, "batch export", sink.errors);
  planDashboards(dashboards, live, sink);
  planBatchExports(exports, live, options, sink);
  if (options.prune) {
    planPrune(project, live, { dashboards: dashboards.claimed, batchExports: exports.claimed }, sink);
  }
}
