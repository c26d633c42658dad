/**
 * `apply` when the files declare environments (SPEC §9): `--env NAME` (repeatable), `--project N` (the
 * single-project files of project N, which is no environment's) or `--all` (one section alone needs
 * none), applied one after another: environments in `promote_from` order, then the single-project
 * files, stopping at the first that fails or is refused. In each environment: its own key and host;
 * before anything else, the confirmation that the key reads its project on that host; then the plan
 * (or the saved plan, bound to that environment), its `protect` and `limits` settings, and the apply
 * itself. Single-project files are applied as before: the default connection, their plan, the apply.
 */
import type { SavedPlan } from "../apply/saved-plan.js";
import { promotionOrder } from "../config/environments/declaration.js";
import type { LoadResult } from "../config/index.js";
import { labelEnvironmentDrift } from "../drift/environments.js";
import { isUserError, UserError } from "../errors.js";
import { exitCodeForSignal, type Io, type StopSignalName } from "../io.js";
import { KINDS } from "../kinds/index.js";
import type { LiveProject, Plan } from "../plan/types.js";
import { withPeople } from "../read/people.js";
import { ENVELOPE_FORMAT_VERSION, sectionHeading } from "../render/environments.js";
import { flat } from "../text.js";
import { plural } from "../words.js";
import { type ApplyFlags, carryOut, resultJson, savedPlanAgain } from "./apply-steps.js";
import { readConfig } from "./config.js";
import type { Session } from "./connect.js";
import { confirmProject } from "./environments.js";
import { progressFor } from "./progress.js";
import { failIfUnsafe } from "./reconcile.js";
import { withModified } from "./review.js";
import { planChosen } from "./scope.js";
import { chooseEnvironmentBases, type EnvironmentBase } from "./scope-environments.js";
import {
  decorator,
  describeSet,
  selectTargets,
  type Target,
  targetConfig,
  targetConfigurationError,
  targetConnection,
  targetLabel,
  targetName,
  targetProject,
  targetRefusal,
  targetSection,
} from "./targets.js";

export async function applyEnvironments(
  flags: ApplyFlags,
  io: Io,
  saved: readonly SavedPlan[] | undefined,
  loaded?: LoadResult,
): Promise<number> {
  const desired = loaded ?? (await readConfig(saved?.[0]?.config.paths ?? flags.args, flags, io, "plan"));
  if (desired.environments === undefined) {
    throw new UserError(
      `${flags.plan} holds the plan of an environment, and the files no longer declare environments: make a new plan`,
      "plan_refused",
    );
  }
  const selected = choose(desired, flags, saved);
  const bases = saved
    ? new Map<string, EnvironmentBase>()
    : await chooseEnvironmentBases(flags, desired, selected, io, "apply");
  const json = flags.format === "json";
  const results: object[] = [];
  let code = 0;
  const environments = selected.flatMap((t) => (t.environment ? [t.environment] : []));
  const order: Target[] = [
    ...promotionOrder(environments.map((e) => ({ ...e, promoteFrom: e.entry.promoteFrom }))).map(
      (environment) => ({ environment }),
    ),
    ...selected.filter((t) => t.standalone !== undefined),
  ];
  for (const [i, target] of order.entries()) {
    const log = json ? io.stderr : io.stdout;
    const host = target.environment ? target.environment.entry.host : flags.host;
    log.write(
      `${i > 0 ? "\n" : ""}${sectionHeading({ ...targetSection(target), host: host ?? io.env.POSTHOG_HOST })}\n\n`,
    );
    const plan = saved?.find((s) => savedFor(s, target));
    const done = await applyTarget(target, flags, io, bases.get(targetName(target)) ?? {}, plan);
    const section = targetSection(target);
    results.push({
      name: section.name,
      project: section.project,
      ...(section.singleProject ? { single_project: true } : {}),
      ...done.document,
    });
    if (done.code !== 0) {
      code = done.code;
      const rest = order.slice(i + 1).map(targetName);
      if (rest.length > 0) {
        io.stderr.write(
          `Stopped after ${targetLabel(target)}: ${rest.join(", ")} ${plural(rest.length, "was", "were")} not applied.\n`,
        );
      }
      break;
    }
  }
  if (json) io.stdout.write(resultJson({ format_version: ENVELOPE_FORMAT_VERSION, environments: results }));
  return code;
}

/** Whether a saved plan is this section's: an environment's names it; single-project files' plan is of their one project. */
function savedFor(saved: SavedPlan, target: Target): boolean {
  if (target.environment !== undefined) return saved.environment === target.environment.name;
  return saved.environment === undefined && saved.plan.projects.includes(targetProject(target));
}

/**
 * The sections to apply: those of the saved plan (narrowed by --env / --project), else --env and
 * --project, or --all (one section alone needs none).
 */
function choose(desired: LoadResult, flags: ApplyFlags, saved: readonly SavedPlan[] | undefined): Target[] {
  const choosing = (flags.env ?? []).length > 0 || flags.project !== undefined;
  if (flags.all && choosing) throw new UserError("give --env NAME or --project N, or --all, not both");
  const chosen = selectTargets(desired, flags);
  const same = (a: Target) => (b: Target) => targetName(a) === targetName(b);
  if (saved !== undefined) {
    const every = selectTargets(desired, {});
    const planned = saved.map((s) => {
      const target = every.find((t) => savedFor(s, t));
      if (target === undefined) throw new UserError(savedElsewhere(s, desired), "plan_refused");
      return target;
    });
    if (!choosing) return planned;
    const missing = chosen.find((t) => !planned.some(same(t)));
    if (missing !== undefined) {
      const name = targetName(missing);
      const option = missing.environment ? `--env ${name}` : `--project ${targetProject(missing)}`;
      throw new UserError(
        `the saved plan is for ${planned.map(targetName).join(", ")}, not ${name}: make a plan for ${name} with plan ${option} --out FILE`,
        "plan_refused",
      );
    }
    return planned.filter((p) => chosen.some(same(p)));
  }
  if (!flags.all && !choosing && chosen.length > 1) {
    const standalone = (desired.environments?.standalone.length ?? 0) > 0;
    throw new UserError(
      `${describeSet(desired)}: apply needs --env NAME (repeatable)${standalone ? ", --project N" : ""} or --all`,
    );
  }
  return chosen;
}

/** Why a saved plan matches no section of the files now. */
function savedElsewhere(saved: SavedPlan, desired: LoadResult): string {
  if (saved.environment !== undefined)
    return `the saved plan is for environment ${saved.environment}, which the files no longer declare`;
  const projects = saved.plan.projects;
  const owner = desired.environments?.list.find((e) => projects.includes(e.entry.project));
  if (owner !== undefined) {
    return `the saved plan is for project ${owner.entry.project}, which is environment ${owner.name}'s now: make it again with plan --env ${owner.name} --out FILE`;
  }
  return `the saved plan is for project ${projects.join(", ")}, which no single-project file names now (${describeSet(desired)}): make a new plan`;
}

interface Applied {
  code: number;
  /** What the JSON result says of this environment. */
  document: { host?: string; result?: object; error?: string };
}

/**
 * One section: connect, confirm that an environment's key reads its project, plan (or check the saved
 * plan), apply.
 */
async function applyTarget(
  target: Target,
  flags: ApplyFlags,
  io: Io,
  base: EnvironmentBase,
  saved: SavedPlan | undefined,
): Promise<Applied> {
  const failed = (error: unknown, host?: string): Applied => {
    if (!isUserError(error)) throw error;
    io.stderr.write(`error: ${targetLabel(target)}: ${flat(error.message)}\n`);
    return { code: error.exitCode, document: { ...(host ? { host } : {}), error: flat(error.message) } };
  };
  const invalid = targetConfigurationError(target);
  if (invalid !== undefined) return failed(invalid);
  const progress = progressFor(io, { quiet: flags.quiet === true });
  const logLine = (line: string) => progress.io.stderr.write(`${line}\n`);
  let connection: ReturnType<typeof targetConnection>;
  try {
    connection = targetConnection(target, flags, io, logLine, progress);
  } catch (error) {
    progress.stop();
    return failed(error);
  }
  const session: Session = { ...connection, progress, io: progress.io };
  const stop = new AbortController();
  let signal: StopSignalName | undefined;
  const unsubscribe = io.onTerminate?.((received) => {
    signal = received;
    stop.abort();
    connection.client.stop();
    session.io.stderr.write(
      "\nStopping: no new request is sent; waiting for those already sent (press Ctrl-C again to quit at once).\n",
    );
  });
  try {
    if (target.environment !== undefined) {
      progress.step(`confirming the key of ${target.environment.name}`);
      await confirmProject(target.environment, connection);
    }
    progress.step("reading live state");
    const { plan, live } = saved
      ? await fromSaved(session, target, saved)
      : await planHere(session, target, flags, base);
    const refusal = targetRefusal(target, plan, flags);
    if (refusal !== undefined) throw new UserError(`${refusal}; nothing was applied`, "plan_refused");
    progress.stop();
    const end = await carryOut(
      session,
      { plan, live },
      flags,
      io,
      stop.signal,
      () => signal,
      target.environment?.name ?? targetName(target),
    );
    return {
      code: end.code,
      document: { host: connection.host, ...(end.result ? { result: end.result } : {}) },
    };
  } catch (error) {
    progress.stop();
    if (signal !== undefined) {
      session.io.stderr.write("Apply stopped before any change was made.\n");
      return { code: exitCodeForSignal(signal), document: { host: connection.host, error: "stopped" } };
    }
    return failed(error, connection.host);
  } finally {
    unsubscribe?.();
    progress.stop();
    if (flags.verbose) io.stderr.write(`${targetName(target)}: ${connection.client.describeStats()}\n`);
    await connection.client.close();
  }
}

/** The section's plan, as `plan` makes it. */
async function planHere(
  session: Session,
  target: Target,
  flags: ApplyFlags,
  base: EnvironmentBase,
): Promise<{ plan: Plan; live: LiveProject[] }> {
  const config = targetConfig(target);
  const made = await planChosen(session.client, config, flags, base, session.io, target.environment?.name);
  failIfUnsafe(made, flags);
  let plan = decorator(target)(
    await withPeople(withModified(made.plan, made.live), made.live, made.members, KINDS),
  );
  if (flags.base !== undefined)
    plan = labelEnvironmentDrift(plan, flags.base, base.change, config, made.live);
  return { plan, live: made.live };
}

/** A saved plan of this section, checked and derived again from the files and live state. */
async function fromSaved(
  session: Session,
  target: Target,
  saved: SavedPlan,
): Promise<{ plan: Plan; live: LiveProject[] }> {
  const again = await savedPlanAgain(
    session,
    saved,
    targetConfig(target),
    targetProject(target),
    decorator(target),
    target.environment?.name,
  );
  const { people } = saved.plan;
  return { ...again, plan: { ...again.plan, ...(people !== undefined ? { people } : {}) } };
}
