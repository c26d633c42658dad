/**
 * posthog-gitops as a library (SPEC §7). The CLI is a thin layer over these functions. Nothing here
 * exits the process, prints, or reads the environment unless it is handed in: `env` is explicit.
 *
 *   const config = await loadConfig(["posthog/"], { env: process.env });
 *   if (!config.ok) console.error(config.diagnostics);
 *   const client = createClient({ host, apiKey });
 *   const plan = await makePlan(config, client, { prune: false });
 *   console.log(renderPlan(plan, "markdown"));
 *   const result = await applyPlan(plan, client, { env: process.env });
 */

import { type Clock, nowDate, systemClock } from "posthog-gitops-shared/clock";
import type { ActionResult } from "./apply/apply.js";
import { type ApplyResult, applyAndCheck } from "./apply/result.js";
import {
  countBySeverity,
  type EnvironmentConfig,
  type InMemoryFiles,
  type LoadMode,
  type LoadResult,
  loadConfig as load,
} from "./config/index.js";
import { UserError } from "./errors.js";
import { KINDS, type Kind } from "./kinds/index.js";
import { checkSafety } from "./plan/index.js";
import type { LiveProject, Plan } from "./plan/types.js";
import { type PulledFile, pullFiles } from "./pull/pull.js";
import { readAndPlan } from "./read/make-plan.js";
import { type PlanFormat, renderPlan as render } from "./render/index.js";
import { type ClientOptions, checkApiKey, checkHost, ServiceClient } from "./service/index.js";
import { PUBLISHED_SCHEMA } from "./version.js";

export type { Clock } from "posthog-gitops-shared/clock";
export type { ActionResult, Outcome } from "./apply/apply.js";
export type { Duplicate } from "./apply/duplicates.js";
export type { ApplyResult } from "./apply/result.js";
export type {
  Declared,
  DesiredProject,
  Diagnostic,
  EnvironmentConfig,
  Environments,
  SourceRef,
} from "./config/index.js";
export { type ErrorCode, UserError } from "./errors.js";
export type { Kind } from "./kinds/index.js";
export type {
  Action,
  ActionKind,
  FieldChange,
  ObjectRef,
  Plan,
  PlanNote,
  PlanSummary,
  SecretRef,
} from "./plan/types.js";
export type { PulledFile } from "./pull/pull.js";
export type { PlanFormat } from "./render/index.js";
export { NetworkError, ServiceClient, ServiceError, UnknownOutcomeError } from "./service/index.js";

/** Loaded configuration: desired state and every diagnostic, and the kinds it was read with. */
export interface Config extends LoadResult {
  /** No diagnostic is an error: the configuration may be planned. */
  ok: boolean;
  kinds: readonly Kind[];
  /** With `environment` asked for: that environment (its entry: project, host, key variable; its merged document). */
  environment?: EnvironmentConfig;
}

export interface LoadConfigOptions {
  /** Where `${NAME}` references are looked up. Default: none (nothing is read from process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Paths are resolved from here. Default: the process's working folder. */
  cwd?: string;
  /** For files without `project:`. */
  defaultProject?: number;
  /** `validate` tolerates what `plan` does not (a file without a project); `apply` needs every secret. */
  mode?: LoadMode;
  /** Resource kinds; default the built-in ones. */
  kinds?: readonly Kind[];
  /**
   * With files that declare environments (SPEC §9): the configuration of this one, merged (its one
   * project, its diagnostics and the files' own), ready for `makePlan` with a client of its key and
   * host (`config.environment`).
   */
  environment?: string;
}

/** Reads configuration files (paths: files or folders; default `posthog/`) or in-memory files. */
export async function loadConfig(
  input: readonly string[] | InMemoryFiles,
  options: LoadConfigOptions = {},
): Promise<Config> {
  const kinds = options.kinds ?? KINDS;
  const result = await load(input, {
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    kinds,
    mode: options.mode ?? "plan",
    ...(options.defaultProject !== undefined ? { defaultProject: options.defaultProject } : {}),
  });
  if (options.environment === undefined) {
    return { ...result, ok: countBySeverity(result.diagnostics).error === 0, kinds };
  }
  const environment = result.environments?.list.find((e) => e.name === options.environment);
  if (environment === undefined) {
    const names = result.environments?.list.map((e) => e.name) ?? [];
    throw new UserError(
      `no environment ${options.environment}: ${names.length > 0 ? `the files declare ${names.join(", ")}` : "the files declare none"}`,
    );
  }
  const diagnostics = [...(result.environments?.diagnostics ?? []), ...environment.config.diagnostics];
  return {
    ...environment.config,
    diagnostics,
    environments: result.environments as NonNullable<typeof result.environments>,
    environment,
    ok: countBySeverity(diagnostics).error === 0,
    kinds,
  };
}

export interface CreateClientOptions extends Omit<ClientOptions, "host"> {
  /** e.g. https://eu.posthog.com; plain http:// only to loopback addresses. */
  host: string;
}

/** A client for one host and key. Close it with `client.close()` when done. */
export function createClient(options: CreateClientOptions): ServiceClient {
  checkApiKey(options.apiKey);
  return new ServiceClient({ ...options, host: checkHost(options.host) });
}

export interface MakePlanOptions {
  /** Delete live objects that no file declares (kinds the files list). */
  prune?: boolean;
  /** Allow a prune above the safety threshold, and replacements. */
  force?: boolean;
  /** Send secret fields again even when nothing else changes. */
  rotateSecrets?: boolean;
  /** `KIND/NAME` targets. */
  targets?: string[];
  clock?: Clock;
}

/**
 * Reads live state (GET requests only) and plans. Throws `UserError` with code `invalid_config` when the
 * configuration has errors, and `plan_refused` when the plan cannot be made or deletes more than the
 * safety threshold allows.
 */
export async function makePlan(
  config: Config,
  client: ServiceClient,
  options: MakePlanOptions = {},
): Promise<Plan> {
  if (!config.ok) throw new UserError("the configuration has errors; see its diagnostics", "invalid_config");
  const made = await readAndPlan(config.kinds, client, config.projects, {
    prune: options.prune === true,
    force: options.force === true,
    rotateSecrets: options.rotateSecrets === true,
    now: nowDate(options.clock ?? systemClock),
    ...(options.targets !== undefined ? { targets: options.targets } : {}),
  });
  if (made.errors.length > 0) {
    throw new UserError(
      `the plan cannot be made: ${made.errors.map((e) => e.message).join("; ")}`,
      "plan_refused",
    );
  }
  const unsafe = checkSafety(config.kinds, made.plan, made.live, { force: options.force === true });
  if (unsafe) throw new UserError(unsafe, "plan_refused");
  readFor.set(made.plan, made.live);
  return made.plan;
}

/**
 * The live state each plan of `makePlan` was made from, for `applyPlan`'s look-ups in batches (the
 * list's size decides between name searches and one walk of the list). Kept beside the plan rather
 * than in it: the plan is the documented JSON contract.
 */
const readFor = new WeakMap<Plan, LiveProject[]>();

export interface RenderPlanOptions {
  /** Text only; default false. */
  color?: boolean;
  /** Markdown only: longest output (default GitHub's 65,536). */
  maxLength?: number;
  kinds?: readonly Kind[];
}

/** The plan as text (terminal), markdown (pull-request comment) or JSON (`schemas/plan.schema.json`). */
export function renderPlan(plan: Plan, format: PlanFormat = "text", options: RenderPlanOptions = {}): string {
  return render(plan, format, {
    kinds: options.kinds ?? KINDS,
    ...(options.color !== undefined ? { color: options.color } : {}),
    ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}),
  });
}

export interface ApplyPlanOptions {
  /** Where secret `${NAME}` references are resolved. Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Objects worked on at once; default 4. */
  concurrency?: number;
  /** Called once per action as soon as its outcome is known. */
  onResult?: (result: ActionResult) => void;
  kinds?: readonly Kind[];
}

/**
 * Makes the plan's changes; one result per action, then the names it created are checked for
 * duplicates. Never throws for a failed action: see `ok`. The result is what `apply --format json`
 * prints (schemas/apply.schema.json).
 */
export function applyPlan(
  plan: Plan,
  client: ServiceClient,
  options: ApplyPlanOptions = {},
): Promise<ApplyResult> {
  const live = readFor.get(plan);
  return applyAndCheck(plan, {
    kinds: options.kinds ?? KINDS,
    client,
    env: options.env ?? {},
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.onResult !== undefined ? { onResult: options.onResult } : {}),
    ...(live !== undefined ? { live } : {}),
  });
}

export interface PullProjectOptions {
  project: number;
  kinds?: readonly Kind[];
  /** What each file's schema modeline names; default the published schema of this version. */
  schemaLocation?: string;
}

/**
 * Every live object of a project as configuration files (one per kind), text that plans to no
 * change against the same live state; live `${` is written as `$${`.
 */
export function pullProject(client: ServiceClient, options: PullProjectOptions): Promise<PulledFile[]> {
  const location = options.schemaLocation ?? PUBLISHED_SCHEMA;
  const kinds = options.kinds ?? KINDS;
  return pullFiles(kinds, client, options.project, () => location, [...new Set([...kinds, ...KINDS])]);
}
