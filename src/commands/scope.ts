/**
 * `--changed-only` (with `--base REF`), for `plan` and `apply` (SPEC §3 "Change-scoped plans", "Live
 * edits"): read and plan only what the change from REF touches, so a pull request's plan costs
 * requests in proportion to the change and a merge-time apply leaves every other object as it is live.
 *
 * Decided in two steps. Before the service is read: `--prune` (it must see every live object), a REF
 * git cannot read (a shallow clone), a changed file-level key or a REF file that does not load mean
 * the full read. Then the read stage may still ask for it when the change costs more requests than the
 * lists. Whichever way, the plan's `scope` says what was read and why.
 */
import type { LoadResult } from "../config/index.js";
import { type Changes, changesSince } from "../drift/changes.js";
import { resolveBase, systemGit } from "../drift/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import type { PlanScope } from "../plan/types.js";
import type { MadePlan } from "../read/make-plan.js";
import { readAndPlanChange } from "../read/make-plan.js";
import type { ServiceClient } from "../service/index.js";
import { projectChoice } from "./project.js";
import { buildOptions, failOnErrors, planOrFail, type ReconcileFlags } from "./reconcile.js";
import type { ReviewFlags } from "./review.js";

export interface ScopeFlags extends ReconcileFlags, ReviewFlags {
  /** `--changed-only`: only the change from `--base`. */
  changedOnly?: boolean;
}

/** What `--base` and `--changed-only` decided before the service is read. */
export interface BaseChoice {
  /** The commit `--base` names, for drift labels; undefined without `--base`, or when git cannot read it. */
  commit?: string;
  /** With `--changed-only`: the change to read, or why the full read. */
  scope?: { base: string; declarations: number } & (Changes | { full: string });
}

/** Checks `--base` (and with `--changed-only`, works out the change) before anything is read. */
export async function chooseBase(flags: ScopeFlags, desired: LoadResult, io: Io): Promise<BaseChoice> {
  if (flags.base === undefined) {
    if (flags.changedOnly) {
      throw new UserError("--changed-only needs --base REF: the revision the change is measured from");
    }
    return {};
  }
  const git = systemGit(io.cwd, io.env);
  if (!flags.changedOnly) return { commit: await resolveBase(git, flags.base, io.cwd) };
  const base = flags.base;
  const declarations = desired.projects.reduce(
    (n, p) => n + Object.values(p.objects).reduce((m, list) => m + list.length, 0),
    0,
  );
  const full = (reason: string, commit?: string): BaseChoice => ({
    ...(commit !== undefined ? { commit } : {}),
    scope: { base, declarations, full: reason },
  });
  let commit: string;
  try {
    commit = await resolveBase(git, base, io.cwd);
  } catch (error) {
    // A CI checkout without the base (a shallow clone): the full read is always right, only slower.
    if (!(error instanceof UserError)) throw error;
    return full(error.message);
  }
  if (flags.prune) return full("--prune reads every live object, to find those no file declares", commit);
  const choice = projectChoice(flags, io);
  const change = await changesSince({
    kinds: KINDS,
    base,
    commit,
    git,
    cwd: io.cwd,
    paths: flags.args,
    desired,
    load: {
      env: io.env,
      ...(choice.project !== undefined ? { defaultProject: choice.project } : {}),
      ...(choice.from !== undefined ? { defaultProjectFrom: choice.from } : {}),
    },
  });
  if ("full" in change) return full(change.full, commit);
  return { commit, scope: { base, declarations, ...change } };
}

/** The plan, read and made as `choice` says; `scope` is set whenever `--changed-only` was given. */
export async function planChosen(
  client: ServiceClient,
  desired: LoadResult,
  flags: ScopeFlags,
  choice: BaseChoice,
  io: Io,
): Promise<MadePlan & { planned?: string[] }> {
  const scope = choice.scope;
  if (scope === undefined) return planOrFail(client, desired, flags, io);
  const fullPlan = async (reason: string) => {
    const made = await planOrFail(client, desired, flags, io);
    const read: PlanScope = {
      read: "full",
      base: scope.base,
      declarations: scope.declarations,
      planned: scope.declarations,
      reason,
    };
    return { ...made, plan: { ...made.plan, scope: read } };
  };
  if ("full" in scope) return fullPlan(scope.full);
  const change = { changed: new Set(scope.changed.keys()), removed: scope.removed };
  const made = await readAndPlanChange(KINDS, client, desired.projects, buildOptions(flags, io), change);
  if ("full" in made) return fullPlan(made.full);
  failOnErrors(made.errors, io);
  const read: PlanScope = {
    read: "changes",
    base: scope.base,
    declarations: scope.declarations,
    planned: made.planned.length,
  };
  if (made.removed.length > 0) {
    read.removed = made.removed.map(({ kind, project, name, live }) => ({
      kind,
      project,
      name,
      ...(live !== undefined ? { live } : {}),
    }));
  }
  return { ...made, plan: { ...made.plan, scope: read } };
}
