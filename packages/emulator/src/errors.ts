/**
 * The service's error bodies (`{type, code, detail, attr}`, see service-api.md §6). Route code throws an
 * `ApiError`; the server turns it into the response. Only the first error of a request is reported.
 */

export interface Reply {
  status: number;
  /** JSON body; `undefined` sends an empty body. */
  body?: unknown;
  /** A non-JSON body (CSV), sent as is. */
  text?: string;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof body === "object" && body !== null && "detail" in body ? String(body.detail) : `HTTP ${status}`,
    );
  }

  toReply(): Reply {
    return { status: this.status, body: this.body, headers: this.headers };
  }
}

export function errorBody(type: string, code: string, detail: string, attr: string | null = null) {
  return { type, code, detail, attr };
}

/** 400 validation error; custom messages use code `invalid_input` like the service. */
export function invalid(detail: string, attr: string | null = null, code = "invalid_input"): ApiError {
  return new ApiError(400, errorBody("validation_error", code, detail, attr));
}

export function required(attr: string): ApiError {
  return invalid("This field is required.", attr, "required");
}

export function notFound(detail = "Not found."): ApiError {
  return new ApiError(404, errorBody("invalid_request", "not_found", detail));
}

export function forbidden(detail: string): ApiError {
  return new ApiError(403, errorBody("authentication_error", "permission_denied", detail));
}

export function notAuthenticated(): ApiError {
  return new ApiError(
    401,
    errorBody("authentication_error", "not_authenticated", "Authentication credentials were not provided."),
  );
}

export function authenticationFailed(
  detail = "Personal API key found in request Authorization header is invalid.",
): ApiError {
  return new ApiError(401, errorBody("authentication_error", "authentication_failed", detail));
}

export function methodNotAllowed(method: string): ApiError {
  return new ApiError(
    405,
    errorBody("invalid_request", "method_not_allowed", `Method "${method}" not allowed.`),
  );
}

export function parseError(message: string): ApiError {
  return new ApiError(400, errorBody("invalid_request", "parse_error", `JSON parse error - ${message}`));
}

/** DRF wording: "second" when the wait is exactly one. */
export function throttled(waitSeconds: number): ApiError {
  const unit = waitSeconds === 1 ? "second" : "seconds";
  return new ApiError(
    429,
    errorBody(
      "throttled_error",
      "throttled",
      `Request was throttled. Expected available in ${waitSeconds} ${unit}.`,
    ),
    { "Retry-After": String(waitSeconds) },
  );
}

export function serverError(): ApiError {
  return new ApiError(500, errorBody("server_error", "error", "A server error occurred."));
}

/** The body the service would send for an arbitrary status (used by injected faults). */
export function errorForStatus(status: number, retryAfter = 1): ApiError {
  switch (status) {
    case 400:
      return invalid("Bad request.");
    case 401:
      return authenticationFailed();
    case 403:
      return forbidden("You do not have permission to perform this action.");
    case 404:
      return notFound();
    case 405:
      return methodNotAllowed("GET");
    case 429:
      return throttled(retryAfter);
    default:
      if (status >= 500) {
        const e = serverError();
        return new ApiError(status, e.body);
      }
      return new ApiError(status, errorBody("invalid_request", "error", `HTTP ${status}.`));
  }
}

/**
 * Validation steps run the way the service's serializers run them: every step runs, the first 400 is
 * kept and thrown by `done()`; any other error (a 403 for a feature flag) stops at once.
 */
export function collectInvalid(): { step(fn: () => void): void; done(): void } {
  let first: ApiError | undefined;
  return {
    step(fn) {
      try {
        fn();
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 400) throw error;
        first ??= error;
      }
    },
    done() {
      if (first) throw first;
    },
  };
}
