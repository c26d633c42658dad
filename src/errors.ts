/**
 * The error taxonomy. A `UserError` is something the user can fix (bad input, refused plan, service
 * refusal): the CLI prints its message as one line, no stack, and exits with its code. Anything else
 * reaching the entry point is an `InternalError` (a bug): printed with its stack and a request to report.
 * Messages never contain secrets or the API key.
 */
export class UserError extends Error {
  override name = "UserError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export class InternalError extends Error {
  override name = "InternalError";
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
