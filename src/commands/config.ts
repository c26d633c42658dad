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
  type LoadMode,
  type LoadResult,
  loadConfig,
} from "../config/index.js";
import { SecretValue } from "../config/secret.js";
import type { Diagnostic } from "../config/types.js";
import { UserError } from "../errors.js";
import type { Io, SecretScrubber } from "../io.js";
import { KINDS } from "../kinds/index.js";
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
  paths: readonly string[],
  flags: ConnectionFlags,
  io: Io,
  mode: LoadMode,
): Promise<LoadResult> {
  const choice = projectChoice(flags, io);
  const result = await loadConfig(paths, {
    env: io.env,
    cwd: io.cwd,
    kinds: KINDS,
    mode,
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
 * Who shows the note about unset secret variables: it concerns what `apply` will send, so `plan`
 * (line and, in GitHub Actions, the one annotation of the run) and `apply` (line only: the action's
 * apply step follows its plan step) show it, unless `--quiet`; other commands drop it.
 */
export type SecretsNote = "plan" | "apply" | "none";

/** The diagnostics a command shows: without the unset-secrets note unless it is one that shows it. */
export function shownDiagnostics(result: LoadResult, note: SecretsNote = "none"): Diagnostic[] {
  return note === "none" ? result.diagnostics.filter((d) => d !== result.secretsNote) : result.diagnostics;
}

/** Loads and reports; throws `invalid_config` when any diagnostic is an error, so nothing is ever sent. */
export async function readConfig(
  paths: readonly string[],
  flags: ConnectionFlags,
  io: Io,
  mode: LoadMode,
  note: SecretsNote = "none",
): Promise<LoadResult> {
  const result = await loadFiles(paths, flags, io, mode);
  const shown = shownDiagnostics(result, flags.quiet === true ? "none" : note);
  const annotated = note === "plan" ? shown : shown.filter((d) => d !== result.secretsNote);
  for (const d of shown) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (inGitHubActions(io)) io.stderr.write(diagnosticAnnotations(annotated, workspacePath(io)));
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
 * For the operations commands: the files of `--config PATH`, else of `posthog/` when that folder
 * exists, else none (they then work from the live list and --project alone).
 */
export async function readOptionalConfig(
  configPath: string | undefined,
  flags: ConnectionFlags,
  io: Io,
): Promise<LoadResult | undefined> {
  if (configPath === undefined && !existsSync(resolve(io.cwd, "posthog"))) return undefined;
  return readConfig([configPath ?? "posthog"], flags, io, "plan");
}

/**
 * The one project an operations command works on, with the precedence of every command: the files in
 * `posthog/` (or --config) read like plan reads them (a file's `project:` governs it; an explicit
 * --project that disagrees is an error), and they must name one project; without files, --project,
 * else POSTHOG_PROJECT_ID.
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
