/**
 * `--changed-only` (with `--base REF`), for `plan` and `apply` (SPEC §3 "Change-scoped plans", "Live
 * edits"): read and plan only what the change from REF touches, so a pull request's plan costs
 * requests in proportion to the change and a merge-time apply leaves every other object as it is live.
 *
 * Decided in two steps. Before the service is read: `--prune` (it must see every live object), a REF
 * git cannot read (a shallow clone), a changed file-level key or a REF file that does not load mean
 * the full read. Then the read stage reads the lists whole when the change costs more requests than
 * they do, and still plans only the change. Whichever way, the plan's `scope` says what was read and
 * why.
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

/**
 * `plan` shows what it could not scope, reading and planning everything; `apply` must write only the
 * change, so a change it cannot tell (REF unreadable) is refused, and a file it cannot tell
 * declaration by declaration counts whole. (Both read the lists whole, and plan only the change, when
 * that costs fewer requests.)
 */
export type ScopeMode = "plan" | "apply";

/** Checks `--base` (and with `--changed-only`, works out the change) before anything is read. */
export async function chooseBase(
  flags: ScopeFlags,
  desired: LoadResult,
  io: Io,
  mode: ScopeMode,
): Promise<BaseChoice> {
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
    if (!(error instanceof UserError)) throw error;
    // A CI checkout without the base (a shallow clone): a plan reads everything, only slower; an apply
    // would revert every live edit, which --changed-only is there to prevent.
    if (mode === "plan") return full(error.message);
    throw baseUnknownForApply(error);
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
  if (change.unsure !== undefined && mode === "plan") return full(change.unsure, commit);
  return { commit, scope: { base, declarations, ...change } };
}

/** The plan, read and made as `choice` says; `scope` is set whenever `--changed-only` was given. */
export async function planChosen(
  client: ServiceClient,
  desired: LoadResult,
  flags: ScopeFlags,
  choice: BaseChoice,
  io: Io,
  /** The environment planned (SPEC §9), for its errors' lines. */
  environment?: string,
): Promise<MadePlan & { planned?: string[] }> {
  const scope = choice.scope;
  if (scope === undefined) return planOrFail(client, desired, flags, io, environment);
  const { base, declarations } = scope;
  if ("full" in scope)
    return fullPlan(
      await planOrFail(client, desired, flags, io, environment),
      base,
      declarations,
      scope.full,
    );
  const change = { changed: new Set(scope.changed.keys()), removed: scope.removed };
  const options = buildOptions(flags, io);
  const made = await readAndPlanChange(KINDS, client, desired.projects, options, change);
  failOnErrors(made.errors, io, environment);
  const read: PlanScope = { read: "changes", base, declarations, planned: made.planned.length };
  // What was read or counted beyond the change, and why.
  const reasons = [
    ...(scope.unsure !== undefined
      ? [`${scope.unsure}: every declaration of that file counts as changed`]
      : []),
    ...(made.whole !== undefined ? [`every list was read, since ${made.whole}`] : []),
  ];
  if (reasons.length > 0) read.reason = reasons.join("; ");
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

/** The full plan, saying why it is not change-scoped. */
function fullPlan(made: MadePlan, base: string, declarations: number, reason: string): MadePlan {
  const read: PlanScope = { read: "full", base, declarations, planned: declarations, reason };
  return { ...made, plan: { ...made.plan, scope: read } };
}

/** Why `apply --changed-only` stops when REF cannot be read (a plan reads everything instead). */
export function baseUnknownForApply(error: UserError): UserError {
  return new UserError(
    `${error.message}. apply --changed-only applies nothing it cannot tell from that revision: fetch it, or apply everything on purpose without --changed-only`,
  );
}
