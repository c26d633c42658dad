/**
 * `apply` when the files declare environments (SPEC §9): `--env NAME` (repeatable) or `--all` (one
 * environment declared needs neither), applied one after another in `promote_from` order, stopping at
 * the first environment that fails or is refused. In each: its own key and host; before anything else,
 * the confirmation that the key reads its project on that host; then the plan (or the saved plan,
 * bound to that environment), its `protect` and `limits` settings, and the apply itself.
 */
import type { SavedPlan } from "../apply/saved-plan.js";
import { promotionOrder } from "../config/environments/declaration.js";
import { markedDeclarations } from "../config/environments/document.js";
import type { LoadResult } from "../config/index.js";
import type { EnvironmentConfig } from "../config/load-types.js";
import { labelEnvironmentDrift } from "../drift/environments.js";
import { isUserError, UserError } from "../errors.js";
import { exitCodeForSignal, type Io, type StopSignalName } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { withOrigins } from "../plan/origins.js";
import type { LiveProject, Plan } from "../plan/types.js";
import { withPeople } from "../read/people.js";
import { flat } from "../text.js";
import { plural } from "../words.js";
import { type ApplyFlags, carryOut, resultJson, savedPlanAgain } from "./apply-steps.js";
import { readConfig } from "./config.js";
import type { Session } from "./connect.js";
import {
  configurationError,
  confirmProject,
  environmentConnection,
  environmentHeading,
  environmentRefusal,
  selectEnvironments,
} from "./environments.js";
import { progressFor } from "./progress.js";
import { failIfUnsafe } from "./reconcile.js";
import { planChosen } from "./scope.js";
import { chooseEnvironmentBases, type EnvironmentBase } from "./scope-environments.js";

export async function applyEnvironments(
  flags: ApplyFlags,
  io: Io,
  saved: readonly SavedPlan[] | undefined,
  loaded?: LoadResult,
): Promise<number> {
  const desired =
    loaded ?? (await readConfig(saved?.[0]?.config.paths ?? flags.args, flags, io, "plan", "apply"));
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
  const order = promotionOrder(selected.map((e) => ({ ...e, promoteFrom: e.entry.promoteFrom })));
  for (const [i, environment] of order.entries()) {
    const log = json ? io.stderr : io.stdout;
    log.write(
      `${i > 0 ? "\n" : ""}${environmentHeading(environment, environment.entry.host ?? io.env.POSTHOG_HOST)}\n\n`,
    );
    const plan = saved?.find((s) => s.environment === environment.name);
    const done = await applyEnvironment(environment, flags, io, bases.get(environment.name) ?? {}, plan);
    results.push({ name: environment.name, project: environment.entry.project, ...done.document });
    if (done.code !== 0) {
      code = done.code;
      const rest = order.slice(i + 1).map((e) => e.name);
      if (rest.length > 0) {
        io.stderr.write(
          `Stopped after environment ${environment.name}: ${rest.join(", ")} ${plural(rest.length, "was", "were")} not applied.\n`,
        );
      }
      break;
    }
  }
  if (json) io.stdout.write(resultJson({ format_version: "1", environments: results }));
  return code;
}

/** The environments to apply: those of the saved plan, else --env or --all (one declared needs neither). */
function choose(
  desired: LoadResult,
  flags: ApplyFlags,
  saved: readonly SavedPlan[] | undefined,
): EnvironmentConfig[] {
  const names = (desired.environments?.list ?? []).map((e) => e.name);
  const wanted = flags.env ?? [];
  if (flags.all && wanted.length > 0) throw new UserError("give --env NAME or --all, not both");
  if (saved !== undefined) {
    const planned = saved.map((s) => s.environment ?? "");
    for (const name of wanted) {
      if (!planned.includes(name)) {
        throw new UserError(
          `the saved plan is for ${planned.join(", ")}, not ${name}: make a plan for ${name} with plan --env ${name} --out FILE`,
          "plan_refused",
        );
      }
    }
    for (const name of planned) {
      if (!names.includes(name)) {
        throw new UserError(
          `the saved plan is for environment ${name}, which the files no longer declare`,
          "plan_refused",
        );
      }
    }
    const chosen = wanted.length > 0 ? wanted : planned;
    return selectEnvironments(desired, { env: chosen, host: flags.host, project: flags.project });
  }
  if (!flags.all && wanted.length === 0 && names.length > 1) {
    throw new UserError(
      `the files declare ${plural(names.length, "environment")} ${names.join(", ")}: apply needs --env NAME (repeatable) or --all`,
    );
  }
  return selectEnvironments(desired, { env: wanted, host: flags.host, project: flags.project });
}

interface Applied {
  code: number;
  /** What the JSON result says of this environment. */
  document: { host?: string; result?: object; error?: string };
}

/** One environment: connect, confirm the key reads its project, plan (or check the saved plan), apply. */
async function applyEnvironment(
  environment: EnvironmentConfig,
  flags: ApplyFlags,
  io: Io,
  base: EnvironmentBase,
  saved: SavedPlan | undefined,
): Promise<Applied> {
  const failed = (error: unknown, host?: string): Applied => {
    if (!isUserError(error)) throw error;
    io.stderr.write(`error: environment ${environment.name}: ${flat(error.message)}\n`);
    return { code: error.exitCode, document: { ...(host ? { host } : {}), error: flat(error.message) } };
  };
  const invalid = configurationError(environment);
  if (invalid !== undefined) return failed(invalid);
  const progress = progressFor(io, { quiet: flags.quiet === true });
  const logLine = (line: string) => progress.io.stderr.write(`${line}\n`);
  let connection: ReturnType<typeof environmentConnection>;
  try {
    connection = environmentConnection(environment, flags, io, logLine, progress);
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
    progress.step(`confirming the key of ${environment.name}`);
    await confirmProject(environment, connection);
    progress.step("reading live state");
    const { plan, live } = saved
      ? await fromSaved(session, environment, saved)
      : await planHere(session, environment, flags, base);
    const refusal = environmentRefusal(environment, plan, flags);
    if (refusal !== undefined) throw new UserError(`${refusal}; nothing was applied`, "plan_refused");
    progress.stop();
    const end = await carryOut(
      session,
      { plan, live },
      flags,
      io,
      stop.signal,
      () => signal,
      environment.name,
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
    if (flags.verbose) io.stderr.write(`${environment.name}: ${connection.client.describeStats()}\n`);
    await connection.client.close();
  }
}

/** The environment's plan, as `plan --env` makes it. */
async function planHere(
  session: Session,
  environment: EnvironmentConfig,
  flags: ApplyFlags,
  base: EnvironmentBase,
): Promise<{ plan: Plan; live: LiveProject[] }> {
  const made = await planChosen(
    session.client,
    environment.config,
    flags,
    base,
    session.io,
    environment.name,
  );
  failIfUnsafe(made, flags);
  let plan = decorate(environment)(await withPeople(made.plan, made.live, made.members, KINDS));
  if (flags.base !== undefined)
    plan = labelEnvironmentDrift(plan, flags.base, base.change, environment.config, made.live);
  return { plan, live: made.live };
}

/** A saved plan of this environment, checked and derived again from the files and live state. */
async function fromSaved(
  session: Session,
  environment: EnvironmentConfig,
  saved: SavedPlan,
): Promise<{ plan: Plan; live: LiveProject[] }> {
  const again = await savedPlanAgain(
    session,
    saved,
    environment.config,
    environment.entry.project,
    decorate(environment),
    environment.name,
  );
  const { people } = saved.plan;
  return { ...again, plan: { ...again.plan, ...(people !== undefined ? { people } : {}) } };
}

/** What an environment's plan carries besides the planner's: where its values came from. */
function decorate(environment: EnvironmentConfig): (plan: Plan) => Plan {
  const declarations = markedDeclarations(environment.document, KINDS);
  return (plan) => withOrigins(plan, declarations);
}
