/**
 * What plan, apply, pull and the operations commands share: reading the files (stopping before the
 * network on any error), connecting with the key from the environment, and option parsing.
 */
import { relative, resolve, sep } from "node:path";
import {
  countBySeverity,
  formatDiagnostic,
  type LoadMode,
  type LoadResult,
  loadConfig,
} from "../config/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { type AnnotationPath, diagnosticAnnotations } from "../render/github.js";
import { type Connection, clientFromEnv } from "../service/index.js";

export interface ConnectionFlags {
  host?: string;
  project?: string;
  concurrency?: string;
  verbose?: boolean;
}

/** A positive integer project id, or undefined; anything else is a UserError naming its origin. */
export function parseProjectId(value: string | number | undefined, origin: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const text = String(value).trim();
  if (!/^[1-9]\d{0,15}$/.test(text))
    throw new UserError(`${origin} must be a project id (a positive integer), got "${text}"`);
  return Number(text);
}

/** --project, else POSTHOG_PROJECT_ID (a file's own `project:` wins over both). */
export function defaultProject(flags: ConnectionFlags, io: Io): number | undefined {
  return flags.project !== undefined
    ? parseProjectId(flags.project, "--project")
    : parseProjectId(io.env.POSTHOG_PROJECT_ID, "POSTHOG_PROJECT_ID");
}

/**
 * Loads the files; prints every diagnostic on stderr (and as annotations in GitHub Actions); throws a
 * UserError when any is an error, so nothing is ever sent for a broken configuration.
 */
export async function loadDesired(
  paths: readonly string[],
  flags: ConnectionFlags,
  io: Io,
  mode: LoadMode,
): Promise<LoadResult> {
  const project = defaultProject(flags, io);
  const result = await loadConfig(paths, {
    env: io.env,
    cwd: io.cwd,
    mode,
    ...(project !== undefined ? { defaultProject: project } : {}),
  });
  for (const d of result.diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
  if (io.env.GITHUB_ACTIONS === "true") {
    io.stderr.write(diagnosticAnnotations(result.diagnostics, workspacePath(io)));
  }
  const errors = countBySeverity(result.diagnostics).error;
  if (errors > 0) {
    throw new UserError(`the configuration has ${errors} error${errors === 1 ? "" : "s"}; nothing was sent`);
  }
  return result;
}

/**
 * Annotation paths relative to the repository root (GITHUB_WORKSPACE), where GitHub resolves them,
 * whatever folder the step runs in; as they are when no workspace is known.
 */
export function workspacePath(io: Io): AnnotationPath {
  const root = io.env.GITHUB_WORKSPACE;
  if (!root) return (file) => file;
  return (file) => relative(root, resolve(io.cwd, file)).split(sep).join("/");
}

/** The client, from POSTHOG_HOST / POSTHOG_API_KEY and the flags; `--verbose` logs requests to stderr. */
export function connect(flags: ConnectionFlags, io: Io): Connection {
  return clientFromEnv(io.env, flags, (line) => io.stderr.write(`${line}\n`), io.clock);
}

/** Runs `work` with a connection and always closes it; with --verbose, prints the request statistics. */
export async function withConnection<T>(
  flags: ConnectionFlags,
  io: Io,
  work: (connection: Connection) => Promise<T>,
): Promise<T> {
  const connection = connect(flags, io);
  try {
    return await work(connection);
  } finally {
    if (flags.verbose) io.stderr.write(`${connection.client.describeStats()}\n`);
    await connection.client.close();
  }
}
