/**
 * Every HTTP failure the client reports is a `ServiceError`: one line a user can act on, plus the
 * service's own `type` / `code` / `detail` / `attr` for code that needs to branch on them.
 *
 * - `status` is the HTTP status; `0` means no answer arrived (`NetworkError`, a subclass).
 * - `UnknownOutcomeError` (status 0 or 502/503/504) is thrown only for requests that create something
 *   (dashboards, batch exports, collaborators, backfills, run retries, ...) when the request may have
 *   reached the service but no answer came back: the object may exist. Callers look it up before
 *   creating again; the client never repeats such a request itself.
 *
 * `path` is the URL path only (never the host or the query). Messages and causes never hold the API
 * key: the transport scrubs them before constructing these errors, and `cause` is always a fresh
 * `Error` carrying the name, code and message of the low-level failure, never the original object
 * (undici errors can reference the request and its headers).
 */
import { type ErrorCode, UserError } from "../errors.js";
import { flat } from "../text.js";
import type { ServiceErrorBody } from "./types.js";

export interface ServiceErrorInit {
  method: string;
  path: string;
  status: number;
  body?: Partial<ServiceErrorBody> | undefined;
  /** Replaces the message built from status and body (network failures, exhausted retries). */
  summary?: string;
  /** Replaces the whole message, `METHOD path:` prefix included. */
  message?: string;
  cause?: Error;
}

/** What to check when the host cannot be reached or is not PostHog. */
export const CHECK_HOST =
  "check POSTHOG_HOST / --host (e.g. https://us.posthog.com or https://eu.posthog.com)";

/** Said of a host whose answers do not have the service's shape (a web page, a proxy's 404). */
export const NOT_POSTHOG = `does not answer like PostHog's API: ${CHECK_HOST}`;

export class ServiceError extends UserError {
  override name = "ServiceError";
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly type: string | undefined;
  /** The service's own error code (e.g. `throttled`); `code` is this tool's stable code. */
  readonly serviceCode: string | undefined;
  readonly detail: string | undefined;
  readonly attr: string | null | undefined;
  /** The change request an approval policy opened instead of the write (a 409 `approval_required`). */
  readonly changeRequestId: string | undefined;

  constructor(init: ServiceErrorInit, code: ErrorCode = "service_error") {
    // One line, control characters visible: the detail is the service's text, and may quote anything.
    super(
      flat(
        init.message ??
          `${init.method} ${shortPath(init.path)}: ${init.summary ?? describeStatus(init.status, init.body)}`,
      ),
      code,
    );
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.type = init.body?.type;
    this.serviceCode = init.body?.code;
    this.detail = init.body?.detail;
    this.attr = init.body?.attr;
    this.changeRequestId = init.body?.change_request_id;
    if (init.cause) this.cause = init.cause;
  }
}

/** No HTTP answer at all (refused, reset, timed out, DNS). `status` is 0. */
export class NetworkError extends ServiceError {
  override name = "NetworkError";

  constructor(init: ServiceErrorInit) {
    super(init, "network_error");
  }
}

/** A create whose answer was lost: the object may or may not exist now. Never retried automatically. */
export class UnknownOutcomeError extends ServiceError {
  override name = "UnknownOutcomeError";

  constructor(init: ServiceErrorInit) {
    super(init, "unknown_outcome");
  }
}

/**
 * A 2xx answer whose body does not have the shape the tool relies on (not JSON, empty, a list where an
 * envelope belongs, `results` missing, an item without `id`, a `count` beyond the cap, a `next` chain
 * that does not end, ...). Never read as "nothing there": an empty live list would make `apply`
 * create duplicates. `status` is the answer's HTTP status; `problem` is the short phrase.
 */
export class UnexpectedAnswerError extends ServiceError {
  override name = "UnexpectedAnswerError";
  readonly problem: string;

  constructor(init: { method: string; path: string; status: number; problem: string; hint?: string }) {
    const hint = init.hint === undefined ? "" : `: ${init.hint}`;
    super(
      {
        method: init.method,
        path: init.path,
        status: init.status,
        message: `unexpected answer from the service for ${init.method} ${shortPath(init.path)}: ${init.problem}${hint}`,
      },
      "unexpected_answer",
    );
    this.problem = init.problem;
  }
}

/**
 * `/api/projects/12345/dashboards/42/` → `dashboards/42`; `/api/projects/12345/` → `projects/12345`;
 * other API paths lose only `/api/`.
 */
export function shortPath(path: string): string {
  const trimmed = path.replace(/^\/api\/(projects|environments)\/[^/]+\//, "").replace(/^\/api\//, "");
  // The project itself (`/api/projects/1/`) keeps its name: `projects/1`.
  return trimmed.replace(/\/+$/, "") || path.replace(/^\/api\//, "").replace(/\/+$/, "") || path;
}

function describeStatus(status: number, body: Partial<ServiceErrorBody> | undefined): string {
  const detail = body?.detail;
  if (status === 401) {
    return `401: the service refused the API key (check POSTHOG_API_KEY)${detail ? `: ${detail}` : ""}`;
  }
  if (status === 403) {
    const scope = detail?.match(/scope '([^']+)'/)?.[1];
    const hint = scope ? ` (give the key the '${scope}' scope)` : "";
    return `403: ${detail ?? "permission denied"}${hint}`;
  }
  const on = body?.attr ? ` on ${body.attr}` : "";
  return `${status}${on}: ${detail ?? statusText(status)}`;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
  };
  return texts[status] ?? "unexpected answer from the service";
}

/**
 * Reads the service's error body. Accepts the standard shape, ad-hoc `{"error": "..."}` bodies and
 * empty or non-JSON bodies (which yield no detail).
 */
export function parseErrorBody(text: string): Partial<ServiceErrorBody> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const detail = str(record.detail) ?? str(record.error) ?? str(record.message);
  const body: Partial<ServiceErrorBody> = {};
  const type = str(record.type);
  const code = str(record.code);
  if (type !== undefined) body.type = type;
  if (code !== undefined) body.code = code;
  if (detail !== undefined) body.detail = detail;
  body.attr = str(record.attr) ?? null;
  const changeRequest = str(record.change_request_id);
  if (changeRequest !== undefined) body.change_request_id = changeRequest;
  return body;
}
