/**
 * What one attempt produced (an answer, or a failure with or without the request having left this
 * machine), and the ServiceError a final outcome becomes. Causes are fresh Errors holding only the
 * low-level name, code and message, scrubbed of the key: undici's own errors may reference the request.
 */
import { NetworkError, NOT_POSTHOG, parseErrorBody, ServiceError, UnknownOutcomeError } from "./errors.js";

export type Outcome =
  | {
      kind: "answer";
      status: number;
      text: string;
      retryAfterMs: number | undefined;
      /** The body was longer than the client reads (`maxAnswerBytes`); `text` is empty. */
      tooLarge?: boolean;
      /** A redirect's `Location`, as sent. */
      location?: string;
    }
  | { kind: "failure"; sent: boolean; fatal: boolean; cause: Error; what: string };

/** A longer Retry-After means the hourly budget is spent: waiting in CI would look like a hang. */
export const MAX_RETRY_AFTER_MS = 120_000;
/** Codes meaning the request never left this machine: safe to retry for every method. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
/** Codes not worth retrying at all. */
const FATAL = new Set([
  "ENOTFOUND",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_HAS_EXPIRED",
  "UND_ERR_INVALID_ARG",
]);

export function classifyFailure(
  raw: unknown,
  answered: boolean,
  deadlinePassed: boolean,
  scrub: (text: string) => string,
): Outcome {
  const err = raw instanceof Error ? raw : new Error(String(raw));
  const code = (err as { code?: unknown }).code;
  const what = deadlinePassed ? "total deadline" : typeof code === "string" ? code : err.name;
  // A fresh Error: the original may reference the request, its headers and the key.
  const cause = new Error(scrub(`${err.name}${typeof code === "string" ? ` ${code}` : ""}: ${err.message}`));
  const sent = answered || !(typeof code === "string" && NOT_SENT.has(code));
  const fatal = typeof code === "string" && FATAL.has(code);
  return { kind: "failure", sent, fatal, cause, what };
}

export function buildError(
  method: string,
  path: string,
  outcome: Outcome,
  unknown: boolean,
  origin: string,
  scrub: (text: string) => string,
): ServiceError {
  if (outcome.kind === "answer") {
    const body = parseErrorBody(scrub(outcome.text));
    if (unknown) {
      const summary = `${outcome.status} after sending: the service may have carried it out; look the object up before trying again`;
      return new UnknownOutcomeError({ method, path, status: outcome.status, body, summary });
    }
    if (
      outcome.status === 429 &&
      outcome.retryAfterMs !== undefined &&
      outcome.retryAfterMs > MAX_RETRY_AFTER_MS
    ) {
      const summary = `429: rate limited; the service asks to wait ${Math.round(outcome.retryAfterMs / 1000)} s (is another process using this key?)`;
      return new ServiceError({ method, path, status: 429, body, summary });
    }
    if (outcome.status === 404 && body?.type === undefined) {
      // The service's 404s all carry its error shape: this answer came from some other web server.
      const summary = `404: ${body?.detail ?? "Not Found"}: ${origin} ${NOT_POSTHOG}`;
      return new ServiceError({ method, path, status: 404, body, summary });
    }
    return new ServiceError({ method, path, status: outcome.status, body });
  }
  const init = { method, path, status: 0, cause: outcome.cause };
  if (unknown) {
    const summary = `no answer (${outcome.what}) after sending: the service may have carried it out; look the object up before trying again`;
    return new UnknownOutcomeError({ ...init, summary });
  }
  return new NetworkError({ ...init, summary: `no answer from ${origin} (${outcome.what})` });
}

/** `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
