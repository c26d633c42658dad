/**
 * What `plan` and `apply` work on when the files declare environments (SPEC §9): each environment, and
 * the single-project files of each project that is no environment's (`Environments.standalone`), one
 * section each. An environment is its entry's host, project and key; a standalone project is planned
 * and applied as before, with the default connection (POSTHOG_HOST or `--host`, POSTHOG_API_KEY) and no
 * `protect` or `limits`. `--env NAME` chooses environments, `--project N` the single-project files of
 * project N (never an environment's: that is `--env`), both together their union; `--host` goes with
 * `--project` only.
 */
import { markedDeclarations } from "../config/environments/document.js";
import type { LoadResult } from "../config/index.js";
import type { EnvironmentConfig, StandaloneProject } from "../config/load-types.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { withOrigins } from "../plan/origins.js";
import type { Plan } from "../plan/types.js";
import type { EnvironmentSection } from "../render/environments.js";
import { type Connection, clientFromEnv } from "../service/index.js";
import { count } from "../words.js";
import type { ConnectionFlags } from "./connect.js";
import {
  configurationError,
  type EnvironmentFlags,
  environmentConnection,
  environmentRefusal,
  type GuardFlags,
} from "./environments.js";
import type { Progress } from "./progress.js";
import { parseProjectId } from "./project.js";

/** One section of a command's work: an environment, or one project's single-project files. */
export type Target =
  | { environment: EnvironmentConfig; standalone?: undefined }
  | { standalone: StandaloneProject; environment?: undefined };

/** How outputs name it: the environment's name, or `project N`. */
export function targetName(target: Target): string {
  return target.environment?.name ?? (target.standalone as StandaloneProject).name;
}

/** How messages name it: `environment staging`, `project 42`. */
export function targetLabel(target: Target): string {
  return target.environment !== undefined ? `environment ${target.environment.name}` : targetName(target);
}

export function targetProject(target: Target): number {
  return target.environment?.entry.project ?? (target.standalone as StandaloneProject).project;
}

/** Its configuration, as a single-project configuration of its project loads. */
export function targetConfig(target: Target): LoadResult {
  return (target.environment ?? (target.standalone as StandaloneProject)).config;
}

/** Its section as outputs show it, before it is planned: name, project, and whether it is an environment. */
export function targetSection(target: Target): EnvironmentSection {
  return {
    name: targetName(target),
    project: targetProject(target),
    ...(target.standalone !== undefined ? { singleProject: true } : {}),
  };
}

/**
 * Its connection: an environment's own (its host, its key from its variable); a standalone project's
 * is the default one, `--host` or POSTHOG_HOST and POSTHOG_API_KEY, as a single-project run's is.
 */
export function targetConnection(
  target: Target,
  flags: ConnectionFlags,
  io: Io,
  log: (line: string) => void,
  progress: Progress,
): Connection {
  if (target.environment !== undefined)
    return environmentConnection(target.environment, flags, io, log, progress);
  return clientFromEnv(
    io.env,
    { host: flags.host, concurrency: flags.concurrency, verbose: flags.verbose },
    log,
    io.clock,
    {
      onEvent: (e) => progress.onEvent(e),
      ...(io.scrubber
        ? { hideSecret: (value: string, label: string) => io.scrubber?.add(value, label) }
        : {}),
    },
  );
}

/** Why its apply would refuse `plan` (an environment's `protect` and `limits`); a standalone project has neither. */
export function targetRefusal(target: Target, plan: Plan, flags: GuardFlags): string | undefined {
  return target.environment === undefined ? undefined : environmentRefusal(target.environment, plan, flags);
}

/** What its plan carries besides the planner's: where an environment's values came from. */
export function decorator(target: Target): (plan: Plan) => Plan {
  if (target.environment === undefined) return (plan) => plan;
  const declarations = markedDeclarations(target.environment.document, KINDS);
  return (plan) => withOrigins(plan, declarations);
}

/** Its errors in the files, as one error for it (its diagnostics are printed already). */
export function targetConfigurationError(target: Target): UserError | undefined {
  if (target.environment !== undefined) return configurationError(target.environment);
  const errors = targetConfig(target).diagnostics.filter((d) => d.severity === "error").length;
  if (errors === 0) return undefined;
  return new UserError(
    `the single-project files of project ${targetProject(target)} have ${count(errors, "error")}; they were not planned`,
    "invalid_config",
  );
}

export interface TargetFlags extends EnvironmentFlags, Pick<ConnectionFlags, "host" | "project"> {}

/**
 * The sections a command works on: the environments `--env` names (in declaration order) and the
 * standalone project `--project` names; neither given, every one (environments first). `--host`
 * changes the default connection, so it goes with `--project` only; an environment's project is
 * chosen by `--env`, never `--project`.
 */
export function selectTargets(loaded: LoadResult, flags: TargetFlags): Target[] {
  const environments = loaded.environments;
  if (environments === undefined) return [];
  const names = environments.list.map((e) => e.name);
  const standalone = environments.standalone;
  const declared = describeSet(loaded);
  const project = parseProjectId(flags.project, "--project");
  if (flags.host !== undefined && project === undefined) {
    throw new UserError(
      `--host does not apply to environments (${names.join(", ")}): each is its own host, project and key, changed in its entry in ${environments.declaredIn}${standalone.length > 0 ? "; with --project N it is the host of that project's single-project files" : ""}`,
    );
  }
  const wanted = flags.env ?? [];
  for (const name of wanted) {
    if (!names.includes(name)) {
      throw new UserError(`--env ${name}: no such environment; ${declared}`);
    }
  }
  let chosen: StandaloneProject | undefined;
  if (project !== undefined) {
    const owner = environments.list.find((e) => e.entry.project === project);
    if (owner !== undefined) {
      throw new UserError(
        `--project ${project} is environment ${owner.name}'s project: choose it with --env ${owner.name} (its host, project and key are its entry's in ${environments.declaredIn})`,
      );
    }
    chosen = standalone.find((s) => s.project === project);
    if (chosen === undefined) throw new UserError(`--project ${project}: no file names it; ${declared}`);
  }
  if (wanted.length === 0 && chosen === undefined) {
    return [
      ...environments.list.map((environment) => ({ environment })),
      ...standalone.map((s) => ({ standalone: s })),
    ];
  }
  return [
    ...environments.list.filter((e) => wanted.includes(e.name)).map((environment) => ({ environment })),
    ...(chosen !== undefined ? [{ standalone: chosen }] : []),
  ];
}

/** `the files declare environments staging, production and single-project files of project 42`. */
export function describeSet(loaded: LoadResult): string {
  const environments = loaded.environments;
  if (environments === undefined) return "the files declare no environments";
  const names = environments.list.map((e) => e.name).join(", ");
  const projects = environments.standalone.map((s) => s.project);
  const files =
    projects.length === 0
      ? ""
      : ` and single-project files of ${projects.length === 1 ? "project" : "projects"} ${projects.join(", ")}`;
  return `the files declare ${environments.list.length === 1 ? "environment" : "environments"} ${names}${files}`;
}
