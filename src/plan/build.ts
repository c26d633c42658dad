/**
 * The pure planner: desired projects + live projects → one sorted `Plan`, with every error collected
 * (the command prints them all and exits 1). No I/O: the read stage hands in live state, the apply stage
 * executes the result. Identity, prune, targets, order and fingerprints are the same for every kind;
 * what differs (fields, actions, notes) is each kind's `plan`.
 */
import { type Declared, type DesiredProject, declaredOf } from "../config/types.js";
import {
  type BuildOptions,
  declarationKey,
  declaredRef,
  newSink,
  type PlanError,
  type PlanSink,
} from "./context.js";
import { fingerprintActions } from "./fingerprint.js";
import type { KindPlanContext, PlanKind } from "./kinds.js";
import { matchObjects } from "./match.js";
import { planPrune } from "./prune.js";
import { displaced } from "./scope.js";
import { kindOrder, sortActions, sortNotes } from "./sort.js";
import { summarise } from "./summary.js";
import { narrowToTargets } from "./targets.js";
import { type LiveProject, liveOf, PLAN_FORMAT_VERSION, type Plan } from "./types.js";

export type { BuildOptions, PlanError } from "./context.js";

export function buildPlan(
  kinds: readonly PlanKind[],
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
    planProject(kinds, project, liveProject, options, sink);
  }
  let actions = sink.actions;
  let notes = sink.notes;
  if (options.targets !== undefined) {
    ({ actions, notes } = narrowToTargets(kinds, sink, desired, live, options.targets));
  }
  const order = kindOrder(kinds);
  actions = sortActions(actions, order);
  notes = sortNotes(notes, order);
  const plan: Plan = {
    format_version: PLAN_FORMAT_VERSION,
    created_at: options.now.toISOString(),
    projects: [...projects].sort((a, b) => a - b),
    actions,
    notes,
    fingerprints: fingerprintActions(kinds, actions, live),
    summary: summarise(actions),
  };
  if (options.targets !== undefined && options.targets.length > 0) plan.targets = [...options.targets];
  if (options.undeclared && !options.prune && options.scope === undefined)
    plan.undeclared = sink.undeclared ?? [];
  return { plan, errors: sink.errors };
}

function planProject(
  kinds: readonly PlanKind[],
  project: DesiredProject,
  live: LiveProject,
  options: BuildOptions,
  sink: PlanSink,
): void {
  const scope = options.scope === undefined ? undefined : new Set(options.scope);
  for (const kind of kinds) {
    const kindLive = liveOf(live, kind.name);
    const declared = declaredOf(project, kind.name);
    // A change-scoped plan matches every declaration (pins claim their objects first, as always) and
    // plans those of the change and those it displaces; the others' errors are not its business.
    if (scope !== undefined) {
      for (const d of displaced(live.project, declared, scope, kindLive.objects)) {
        scope.add(declarationKey(live.project, d));
      }
    }
    const planned = (d: Declared) => scope === undefined || scope.has(declarationKey(live.project, d));
    const errors: PlanError[] = [];
    const matching = matchObjects(declared, kindLive.objects, kind.words.one, errors, kind.replaced);
    const own = new Set(declared.filter(planned).map((d) => d.source));
    sink.errors.push(
      ...errors.filter((e) => scope === undefined || e.source === undefined || own.has(e.source)),
    );
    const ctx: KindPlanContext = {
      project: live.project,
      live: kindLive,
      features: live.features,
      options,
      sink,
      others: { declared: (name) => declaredOf(project, name), live: (name) => live.kinds[name] },
    };
    for (const { desired, live: match, replaced } of matching.pairs) {
      if (!planned(desired)) continue;
      // The leftovers of a replacement are deleted with --force, as the replacement itself was.
      if (replaced && !options.force) {
        const ids = [replaced.live, ...replaced.leftovers].map((o) => o.id).join(", ");
        const them = replaced.leftovers.length === 1 ? "it" : "them";
        sink.errors.push({
          message: `${kind.words.one} "${desired.name}": ${replaced.leftovers.length + 1} live objects have this name (ids ${ids}): ${replaced.why}; rerun with --force to delete ${them}`,
          source: desired.source,
        });
        continue;
      }
      kind.plan(desired, match, declaredRef(kind.name, live.project, desired, match), ctx);
      if (replaced === undefined) continue;
      for (const leftover of replaced.leftovers) {
        const action = kind.prune(leftover, declaredRef(kind.name, live.project, desired, leftover), ctx);
        sink.actions.push({ ...action, warnings: [...action.warnings, replaced.why] });
      }
    }
    if (options.prune && scope === undefined && project.manages.includes(kind.name)) {
      planPrune(kind, project.ignore[kind.name] ?? [], ctx, matching.claimed);
    } else if (options.undeclared && scope === undefined && project.manages.includes(kind.name)) {
      // What --prune would delete, named and nothing more: the plan stays read-only.
      const probe = newSink();
      planPrune(kind, project.ignore[kind.name] ?? [], { ...ctx, sink: probe }, matching.claimed);
      sink.undeclared = [...(sink.undeclared ?? []), ...probe.actions.map((a) => a.object)];
    }
  }
}
