/**
 * Connecting: the client from POSTHOG_HOST / POSTHOG_API_KEY and the connection options, with the
 * progress it reports on stderr (progress.ts). Only the commands that talk to the service load this
 * module, and with it the HTTP client.
 */
import { nowDate } from "posthog-gitops-shared/clock";
import type { Io } from "../io.js";
import { type Connection, clientFromEnv, type ServiceClient } from "../service/index.js";
import { type Progress, progressFor } from "./progress.js";

export interface ConnectionFlags {
  host?: string;
  project?: string;
  concurrency?: string;
  verbose?: boolean;
  /** No progress line, no wait or retry lines on stderr. */
  quiet?: boolean;
}

/** A command's time with the service: the client, the progress it reports, and the Io to write through. */
export interface Session extends Connection {
  progress: Progress;
  /** The command's Io, writing clear of the progress line. */
  io: Io;
}

/** Runs `work` with a connection and always closes it; with --verbose, prints the request statistics. */
export async function withConnection<T>(
  flags: ConnectionFlags,
  io: Io,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const progress = progressFor(io, { quiet: flags.quiet === true });
  const log = (line: string) => progress.io.stderr.write(`${line}\n`);
  const connection = clientFromEnv(io.env, flags, log, io.clock, {
    onEvent: (e) => progress.onEvent(e),
    ...(io.scrubber ? { hideSecret: (value: string, label: string) => io.scrubber?.add(value, label) } : {}),
  });
  try {
    return await work({ ...connection, progress, io: progress.io });
  } finally {
    progress.stop();
    if (flags.verbose) io.stderr.write(`${connection.client.describeStats()}\n`);
    await connection.client.close();
  }
}

/** What an operations command works with. */
export interface OpsContext {
  client: ServiceClient;
  io: Io;
  now: Date;
  progress: Progress;
}

/** `withConnection` for the operations commands: their step is reading from the service. */
export function withService<T>(
  flags: ConnectionFlags,
  io: Io,
  work: (ctx: OpsContext) => Promise<T>,
): Promise<T> {
  return withConnection(flags, io, ({ client, progress, io: out }) => {
    progress.step("reading from the service");
    return work({ client, io: out, now: nowDate(io.clock), progress });
  });
}
