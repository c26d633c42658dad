/**
 * The error taxonomy. A `UserError` is something the user can act on (bad input, a refused plan, a
 * service refusal, a path that cannot be written): it carries a stable `code` for code that branches on
 * it and the exit code the CLI ends with; the CLI prints its message as one line. Anything else that
 * reaches the entry point is a bug: `describeFailure` still gives one line (the stack only on request).
 * Messages never contain secrets or the API key.
 */
import { flat } from "./text.js";

/** Stable codes, part of the library's contract. */
export type ErrorCode =
  /** Bad command-line input or options. */
  | "invalid_input"
  /** The configuration files have errors (diagnostics were reported). */
  | "invalid_config"
  /** The plan cannot be made or is refused (planning errors, the prune guard, a stale saved plan). */
  | "plan_refused"
  /** A secret the plan sends comes from an unset environment variable. */
  | "missing_secret"
  /** The service answered with an error. */
  | "service_error"
  /** No answer from the service. */
  | "network_error"
  /** A write whose answer was lost: it may or may not have happened. */
  | "unknown_outcome"
  /** A 2xx answer whose body is not what the tool needs. */
  | "unexpected_answer"
  /** A file or folder cannot be read or written. */
  | "file_error"
  /** The user declined, or input ended, at a prompt. */
  | "cancelled"
  /** SIGINT / SIGTERM stopped the command. */
  | "interrupted";

/** A place in a configuration file an error is about (printed `file:line:column: error: …`). */
export interface ErrorPlace {
  file: string;
  line: number;
  column: number;
}

export class UserError extends Error {
  override name = "UserError";
  readonly code: ErrorCode;
  readonly exitCode: number;
  readonly at: ErrorPlace | undefined;

  constructor(
    message: string,
    code: ErrorCode = "invalid_input",
    options: { exitCode?: number; cause?: unknown; at?: ErrorPlace } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.exitCode = options.exitCode ?? 1;
    this.at = options.at;
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** The exit code of a command that failed with `error`: a user error's own, else 1. */
export function exitCodeOf(error: unknown): number {
  return isUserError(error) ? error.exitCode : 1;
}

/**
 * The one line the CLI prints for a failure: `error: …` for a user error; for anything else, that it is
 * a bug and how to see the stack (`POSTHOG_GITOPS_DEBUG=1`), which `stack` adds when asked for.
 */
export function describeFailure(error: unknown, options: { stack?: boolean } = {}): string {
  // One line: a message may quote a file name or the service's words, which must not start lines.
  if (isUserError(error)) {
    const at = error.at ? `${flat(error.at.file)}:${error.at.line}:${error.at.column}: ` : "";
    return `${at}error: ${flat(error.message)}`;
  }
  const internal = error instanceof Error ? error : new Error(String(error));
  const head = `internal error (a bug in posthog-gitops, please report it): ${flat(internal.message)}`;
  return options.stack && internal.stack
    ? `${head}\n${internal.stack}`
    : `${head} (set POSTHOG_GITOPS_DEBUG=1 to see where)`;
}
