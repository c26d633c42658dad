/**
 * Connecting: the client from POSTHOG_HOST / POSTHOG_API_KEY and the connection options, and the one
 * project precedence every command follows (SPEC §4): a file's `project:` governs that file;
 * `--project`, else POSTHOG_PROJECT_ID, fills in for files that name none; an explicit `--project` that
 * differs from a file's `project:` is an error naming both.
 */
import { nowDate } from "../clock.js";
import type { Io } from "../io.js";
import { type Connection, clientFromEnv, type ServiceClient } from "../service/index.js";

export interface ConnectionFlags {
  host?: string;
  project?: string;
  concurrency?: string;
  verbose?: boolean;
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
