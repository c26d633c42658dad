/**
 * Connecting: the client from POSTHOG_HOST / POSTHOG_API_KEY and the connection options, and the one
 * project precedence every command follows (SPEC §4): a file's `project:` governs that file;
 * `--project`, else POSTHOG_PROJECT_ID, fills in for files that name none; an explicit `--project` that
 * differs from a file's `project:` is an error naming both.
 */
import { nowDate } from "../clock.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { type Connection, clientFromEnv, type ServiceClient } from "../service/index.js";

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

/** The project for files (and commands) that name none, and where it came from. */
export interface ProjectChoice {
  project: number | undefined;
  /** `--project` when given on the command line; undefined when it came from the environment or nowhere. */
  from: "--project" | undefined;
}

export function projectChoice(flags: ConnectionFlags, io: Io): ProjectChoice {
  if (flags.project !== undefined)
    return { project: parseProjectId(flags.project, "--project"), from: "--project" };
  return { project: parseProjectId(io.env.POSTHOG_PROJECT_ID, "POSTHOG_PROJECT_ID"), from: undefined };
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

/** What an operations command works with. */
export interface OpsContext {
  client: ServiceClient;
  io: Io;
  now: Date;
}

export function withService<T>(
  flags: ConnectionFlags,
  io: Io,
  work: (ctx: OpsContext) => Promise<T>,
): Promise<T> {
  return withConnection(flags, io, ({ client }) => work({ client, io, now: nowDate(io.clock) }));
}
