/**
 * The connection every operations command shares: the client from the environment and the connection
 * options, the project id, and one place that turns a `UserError` (a `ServiceError` included) into one
 * line on stderr and its exit code. The client is always closed, also on error.
 */
import { nowDate } from "../clock.js";
import { type ConnectionFlags, defaultProject, withConnection } from "../commands/common.js";
import { isUserError } from "../errors.js";
import type { Io } from "../io.js";
import type { ServiceClient } from "../service/index.js";

export type ConnectionOptions = ConnectionFlags;

export interface OpsContext {
  client: ServiceClient;
  /** From --project or POSTHOG_PROJECT_ID; files may supply one instead. */
  project: number | undefined;
  now: Date;
  io: Io;
}

/** Builds the context, runs `body`, and maps user errors to one `error:` line and their exit code. */
export async function withService(
  options: ConnectionOptions,
  io: Io,
  body: (ctx: OpsContext) => Promise<number>,
): Promise<number> {
  return guarded(io, async () => {
    const project = defaultProject(options, io);
    return withConnection(options, io, ({ client }) => body({ client, project, now: nowDate(io.clock), io }));
  });
}

/** Runs `body` mapping user errors like `withService`, for checks made before any connection. */
export async function guarded(io: Io, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!isUserError(error)) throw error;
    io.stderr.write(`error: ${scrub(error.message, io.env.POSTHOG_API_KEY)}\n`);
    return error.exitCode;
  }
}

/** The key never reaches output, even if some message were to carry it. */
function scrub(text: string, key: string | undefined): string {
  const k = key?.trim();
  return k && k.length >= 4 ? text.split(k).join("[api key]") : text;
}
