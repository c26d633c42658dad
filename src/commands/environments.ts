/**
 * What every command does with environments (SPEC §9): which environments it works on (`--env`,
 * `--all`), each environment's connection (its host, its key from its own variable, never another's),
 * the confirmation before any write that the key reads the environment's project on that host, and
 * the `protect` and `limits` settings a plan must pass to be applied.
 */

import type { LoadResult } from "../config/index.js";
import type { EnvironmentConfig } from "../config/load-types.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import type { Plan } from "../plan/types.js";
import { type Connection, clientFromEnv, ServiceError } from "../service/index.js";
import { count, plural } from "../words.js";
import type { ConnectionFlags } from "./connect.js";
import type { Progress } from "./progress.js";

export interface EnvironmentFlags {
  /** `--env NAME`, repeatable. */
  env?: string[];
}

/**
 * The environments a command works on: those `--env` names, in declaration order, else every one.
 * `--host` and `--project` are refused: an environment is changed in its entry.
 */
export function selectEnvironments(
  loaded: LoadResult,
  flags: EnvironmentFlags & Pick<ConnectionFlags, "host" | "project">,
): EnvironmentConfig[] {
  const environments = loaded.environments;
  if (environments === undefined) {
    if (flags.env !== undefined && flags.env.length > 0) {
      throw new UserError(
        `--env ${flags.env[0]}: the files declare no environments (an environments: mapping in one file)`,
      );
    }
    return [];
  }
  const names = environments.list.map((e) => e.name);
  for (const option of ["host", "project"] as const) {
    if (flags[option] !== undefined) {
      throw new UserError(
        `--${option} does not apply when the files declare environments (${names.join(", ")}): each is its own host, project and key, changed in its entry in ${environments.declaredIn}`,
      );
    }
  }
  const wanted = flags.env ?? [];
  for (const name of wanted) {
    if (!names.includes(name)) {
      throw new UserError(`--env ${name}: no such environment; the files declare ${names.join(", ")}`);
    }
  }
  return wanted.length === 0 ? environments.list : environments.list.filter((e) => wanted.includes(e.name));
}

/** The process variable that holds an environment's key. */
export function keyVariable(environment: EnvironmentConfig): string {
  return environment.entry.apiKeyEnv ?? "POSTHOG_API_KEY";
}

/**
 * An environment's connection: its host (else POSTHOG_HOST), its key from its own variable (an unset
 * one is an error for this environment, never a fall-back to another key). The key joins the run's
 * scrubber before anything can print it.
 */
export function environmentConnection(
  environment: EnvironmentConfig,
  flags: ConnectionFlags,
  io: Io,
  log: (line: string) => void,
  progress: Progress,
): Connection {
  const variable = keyVariable(environment);
  const key = io.env[variable];
  if (key === undefined || key.trim() === "") {
    throw new UserError(
      `${variable} is not set: it holds the key of environment ${environment.name} (api_key_env in its entry), and no other key is used for it`,
    );
  }
  io.scrubber?.add(key.trim(), `(secret from $${variable})`);
  const env = {
    ...io.env,
    POSTHOG_API_KEY: key,
    POSTHOG_HOST: environment.entry.host ?? io.env.POSTHOG_HOST,
  };
  return clientFromEnv(env, { concurrency: flags.concurrency, verbose: flags.verbose }, log, io.clock, {
    onEvent: (e) => progress.onEvent(e),
    ...(io.scrubber ? { hideSecret: (value: string, label: string) => io.scrubber?.add(value, label) } : {}),
  });
}

/**
 * Before any write: the key reads the environment's project on its host (one request). A key of
 * another project or organization, or of another host, is refused before anything is sent.
 */
export async function confirmProject(environment: EnvironmentConfig, connection: Connection): Promise<void> {
  const { project } = environment.entry;
  const refuse = (why: string) =>
    new UserError(
      `environment ${environment.name}: the key in $${keyVariable(environment)} ${why}; nothing was sent`,
      "plan_refused",
    );
  try {
    const answer = await connection.client.organizations.getProject(project);
    if (Number(answer.id) !== project) throw refuse(`reads project ${answer.id}, not ${project}`);
  } catch (error) {
    if (error instanceof ServiceError && [401, 403, 404].includes(error.status)) {
      throw refuse(
        `cannot read project ${project} on ${connection.host} (${error.detail ?? `status ${error.status}`})`,
      );
    }
    throw error;
  }
}

export interface GuardFlags {
  force?: boolean;
  allowDestructive?: boolean;
}

/**
 * Why an environment refuses to apply `plan`, or undefined: `protect` refuses destructive actions
 * without --allow-destructive (--auto-approve and --force do not lift it); `limits` refuse more
 * actions or destructive actions than allowed without --force.
 */
export function environmentRefusal(
  environment: EnvironmentConfig,
  plan: Plan,
  flags: GuardFlags,
): string | undefined {
  const { entry } = environment;
  const destructive = plan.actions.filter((a) => a.destructive).length;
  if (entry.protect && destructive > 0 && flags.allowDestructive !== true) {
    return `environment ${entry.name} is protected: the plan has ${count(destructive, "destructive action")}, which ${plural(destructive, "needs", "need")} --allow-destructive (--auto-approve and --force do not lift it)`;
  }
  const limits = entry.limits;
  if (limits === undefined || flags.force === true) return undefined;
  if (limits.changes !== undefined && plan.actions.length > limits.changes) {
    return `environment ${entry.name} allows at most ${count(limits.changes, "change")} per apply (limits.changes), and the plan has ${plan.actions.length}: split the change, or pass --force`;
  }
  if (limits.deletes !== undefined && destructive > limits.deletes) {
    return `environment ${entry.name} allows at most ${count(limits.deletes, "destructive action")} per apply (limits.deletes), and the plan has ${destructive}: split the change, or pass --force`;
  }
  return undefined;
}

/** The environment's errors in the files, as one error for it (its diagnostics are printed already). */
export function configurationError(environment: EnvironmentConfig): UserError | undefined {
  const errors = environment.config.diagnostics.filter((d) => d.severity === "error").length;
  if (errors === 0) return undefined;
  return new UserError(
    `the configuration of environment ${environment.name} has ${count(errors, "error")}; it was not planned`,
    "invalid_config",
  );
}
