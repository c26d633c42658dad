/**
 * The one way commands read the configuration: the files given (default `posthog/`), the kinds of the
 * registry, the environment for `${NAME}`, and the project precedence (connect.ts). Diagnostics go to
 * stderr (and become annotations in GitHub Actions); any error stops the command before the network
 * (`invalid_config`, exit 1). `validate` reports the same diagnostics as its result instead.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import {
  countBySeverity,
  formatDiagnostic,
  type InMemoryFiles,
  type LoadMode,
  type LoadResult,
  loadConfig,
} from "../config/index.js";
import { missingSecretsNote } from "../config/missing-secrets.js";
import { SecretValue } from "../config/secret.js";
import type { Diagnostic } from "../config/types.js";
import { UserError } from "../errors.js";
import type { Io, SecretScrubber } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { secretVariableUses } from "../plan/secrets.js";
import type { Plan } from "../plan/types.js";
import { diagnosticAnnotations } from "../render/github.js";
import { count } from "../words.js";
import type { ConnectionFlags } from "./connect.js";
import { inGitHubActions, workspacePath } from "./github.js";
import { projectChoice } from "./project.js";

/**
 * Loads the files with the registry's kinds and the project precedence; reports nothing itself. The
 * secrets they resolve join the run's scrubber.
 */
export async function loadFiles(
  paths: readonly string[] | InMemoryFiles,
  flags: ConnectionFlags,
  io: Io,
  mode: LoadMode,
  only?: readonly string[],
): Promise<LoadResult> {
  const choice = projectChoice(flags, io);
  const result = await loadConfig(paths, {
    env: io.env,
    cwd: io.cwd,
    kinds: KINDS,
    mode,
    ...(only !== undefined ? { only } : {}),
    ...(choice.project !== undefined ? { defaultProject: choice.project } : {}),
    ...(choice.from !== undefined ? { defaultProjectFrom: choice.from } : {}),
  });
  if (io.scrubber) hideSecrets(result, io.scrubber);
  return result;
}

/** Every secret value the files resolved is hidden from output from now on (scrub.ts). */
function hideSecrets(result: LoadResult, scrubber: SecretScrubber): void {
  const visit = (value: unknown): void => {
    if (value instanceof SecretValue) {
      if (value.available) scrubber.add(value.reveal(), value.describe());
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (typeof value === "object" && value !== null) {
      for (const item of Object.values(value)) visit(item);
    }
  };
  for (const project of result.projects) visit(project.objects);
  for (const environment of result.environments?.list ?? []) {
    for (const project of environment.config.projects) visit(project.objects);
  }
}

/**
 * The diagnostics a command shows: never the unset-secrets note of the load, which concerns only what
 * a plan sends: `plan` says it after the plan is made (`planSecretsNote`).
 */
export function shownDiagnostics(result: LoadResult): Diagnostic[] {
  return result.diagnostics.filter((d) => d !== result.secretsNote);
}

/** Loads and reports; throws `invalid_config` when any diagnostic is an error, so nothing is ever sent. */
export async function readConfig(
  paths: readonly string[] | InMemoryFiles,
  flags: ConnectionFlags,
  io: Io,
  mode: LoadMode,
  only?: readonly string[],
): Promise<LoadResult> {
  const result = await loadFiles(paths, flags, io, mode, only);
  const shown = shownDiagnostics(result);
  for (const d of shown) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (inGitHubActions(io)) io.stderr.write(diagnosticAnnotations(shown, workspacePath(io)));
  // With environments, a problem of one environment fails it alone (the command says so for it); only
  // the files' own problems stop everything.
  const errors = countBySeverity(result.environments?.diagnostics ?? result.diagnostics).error;
  if (errors > 0) {
    throw new UserError(
      `the configuration has ${count(errors, "error")}; nothing was sent`,
      "invalid_config",
    );
  }
  return result;
}

/**
 * The note about unset secret variables, for a plan: only the variables of the secrets this plan sends
 * (a create, a rotation, a destination change), said after it is made; nothing when it sends none, and
 * nothing with --quiet. In GitHub Actions also one annotation. (`apply` refuses to send a secret whose
 * variable is unset, naming it, so it needs no note.)
 */
export function planSecretsNote(result: LoadResult, plan: Plan, flags: ConnectionFlags, io: Io): void {
  if (flags.quiet === true || result.missingSecretVariables.length === 0) return;
  const missing = new Set(result.missingSecretVariables);
  const uses = [...secretVariableUses(plan.actions.map((a) => a.after))].filter(([name]) =>
    missing.has(name),
  );
  const note = missingSecretsNote(uses, "this plan sends");
  if (note === undefined) return;
  io.stderr.write(`${formatDiagnostic(note)}\n`);
  if (inGitHubActions(io)) io.stderr.write(diagnosticAnnotations([note], workspacePath(io)));
}

/**
 * For the operations commands: the files of `--config PATH`, else of `posthog/` when that folder
 * exists, else none (they then work from the live list and --project alone). Only the lists of the
 * kinds in `only` are read (default none: the files' projects alone), so a problem in another kind's
 * declarations never stops them.
 */
export async function readOptionalConfig(
  configPath: string | undefined,
  flags: ConnectionFlags,
  io: Io,
  only: readonly string[] = [],
): Promise<LoadResult | undefined> {
  if (configPath === undefined && !existsSync(resolve(io.cwd, "posthog"))) return undefined;
  return readConfig([configPath ?? "posthog"], flags, io, "plan", only);
}

/**
 * The one project an operations command works on, with the precedence of every command: the files in
 * `posthog/` (or --config) read like plan reads them (a file's `project:` governs it; an explicit
 * --project that disagrees is an error), and they must name one project; without files, --project,
 * else POSTHOG_PROJECT_ID. Only the files' projects are read, none of their declarations.
 */
export async function configuredProject(
  configPath: string | undefined,
  flags: ConnectionFlags,
  io: Io,
): Promise<number> {
  const loaded = await readOptionalConfig(configPath, flags, io);
  const projects = [
    ...new Set(loaded?.projects.flatMap((p) => (p.project === undefined ? [] : [p.project]))),
  ];
  if (projects.length > 1) {
    throw new UserError(
      `the files name projects ${projects.join(", ")}: point --config at one project's files`,
    );
  }
  const project = projects[0] ?? projectChoice(flags, io).project;
  if (project === undefined) {
    throw new UserError(
      "no project: pass --project, set POSTHOG_PROJECT_ID, or run where posthog/ names one",
    );
  }
  return project;
}
