/**
 * One HTTP exchange with the service, paced, bounded and retried; every failure becomes a ServiceError.
 *
 * Retry contract:
 * - 429 is retried for every method (the service refused before doing anything), after at least
 *   `Retry-After`, and the whole budget pauses meanwhile.
 * - A connection that could not be opened (refused, unreachable, connect timeout) is retried for every
 *   method; but while the host has not answered once in this run, only once (two tries, no retry
 *   line), and after that every request fails at once with the same one line: a wrong POSTHOG_HOST
 *   must not cost a dozen retries (issue 21).
 * - 502/503/504, resets, timeouts and lost answers are retried only for retry-safe requests (GET, PUT,
 *   PATCH, DELETE and the POSTs marked `retrySafe`, less the PATCHes marked `retrySafe: false`). Any
 *   other request may have been carried out, so it fails with UnknownOutcomeError and is never sent
 *   twice.
 * - A DELETE answered 404 after an earlier attempt may have reached the service counts as done.
 * Backoff is exponential with full jitter; `maxRetries` bounds the attempts.
 *
 * A 2xx body is parsed and checked against the shape the request names (`expect`, shapes.ts) before
 * anyone reads it; a body of the wrong shape, not JSON, empty where a body is needed, or longer than
 * `maxAnswerBytes` is an UnexpectedAnswerError, never retried and never read as "nothing there".
 * Waits, retries, slow attempts and completed requests are reported through the Notifier.
 */

import type { Clock } from "posthog-gitops-shared/clock";
import type { Dispatcher } from "undici";
import { request } from "undici";
import { API_KEY_LABEL, Scrubber } from "../scrub.js";
import { cut } from "../text.js";
import { count } from "../words.js";
import type { RateBudget, Semaphore } from "./budget.js";
import type { Notifier } from "./client-events.js";
import {
  CHECK_HOST,
  NetworkError,
  NOT_POSTHOG,
  ServiceError,
  shortPath,
  UnexpectedAnswerError,
  UnknownOutcomeError,
} from "./errors.js";
import { buildError, classifyFailure, MAX_RETRY_AFTER_MS, type Outcome, parseRetryAfter } from "./outcome.js";
import { type Query, queryString } from "./query.js";
import type { AnswerShape } from "./shapes.js";
import { StoppedError, type StopSignal } from "./stop.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestSpec {
  method: Method;
  /** Path from the host root, e.g. `/api/projects/1/dashboards/`; or an absolute same-origin URL. */
  path: string;
  query?: Query;
  body?: unknown;
  /**
   * Whether the request is safe to repeat after it may have reached the service. Default: GET, PUT,
   * PATCH and DELETE are, POSTs are not; a POST that is (pause, unpause) says `true`, a PATCH that
   * creates something (a text card added through the dashboard PATCH) says `false`.
   */
  retrySafe?: boolean;
  /**
   * Which budget the request draws from: `events` for the endpoints the service throttles as ClickHouse
   * endpoints (events, insights: 240/minute, 1,200/hour in one scope), `general` for the others.
   */
  budget?: "general" | "events";
  /**
   * The shape a 2xx answer must have (shapes.ts, or a kind's own answers.ts); a body without it is an
   * UnexpectedAnswerError.
   * Without `expect` (DELETE, endpoints whose answer nothing reads) an empty body is accepted.
   */
  expect?: AnswerShape;
}

/** Bounds on one list walk (pages.ts). */
export interface PageLimits {
  /** Pages one list may take; default 10,000 (a million objects at 100 a page). */
  maxPages: number;
  /** Objects one list may hold, and the largest `count` believed; default 1,000,000. */
  maxObjects: number;
}

export interface ClientStats {
  /** Attempts sent, by method (retries included). */
  requests: Record<string, number>;
  retries: number;
  throttled429: number;
  /** Time spent waiting for the budget, for a permit or in backoff. */
  waitedMs: number;
  failures: number;
  unknownOutcomes: number;
}

export interface TransportOptions {
  origin: string;
  apiKey: string;
  dispatcher: Dispatcher;
  budgets: { general: RateBudget; events: RateBudget };
  semaphore: Semaphore;
  maxRetries: number;
  timeouts: { headersMs: number; bodyMs: number; totalMs: number };
  clock: Clock;
  random: () => number;
  log?: ((line: string) => void) | undefined;
  pageLimits: PageLimits;
  /** Where wait, retry, slow and answer events go (client-events.ts). */
  notifier: Notifier;
  /** The longest body read; a longer one is refused, not buffered. */
  maxAnswerBytes: number;
  /** Set when the run stops: no request starts after it, waits end (stop.ts). */
  stop: StopSignal;
}

type Answers = typeof import("./answers.js");
let answers: Promise<Answers> | undefined;
/** The shape checker, loaded with the first answer that needs it (start-up of offline commands). */
const loadAnswers = (): Promise<Answers> => {
  answers ??= import("./answers.js");
  return answers;
};

/** The body as text, or undefined (the rest left unread, the connection dropped) past `max` bytes. */
async function readAtMost(body: AsyncIterable<Buffer> & { destroy(): void }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const describeBytes = (n: number) =>
  n >= 1_048_576
    ? `${Math.round(n / 1_048_576).toLocaleString("en-US")} MB`
    : `${n.toLocaleString("en-US")} bytes`;

const BACKOFF_BASE_MS = 250;
/** The wait before the one second try at a host that has not answered yet. */
const FIRST_CONTACT_RETRY_MS = 300;

/** Connect failures: nothing reached the host (or no host was found). */
const CONNECT_FAILURES = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** A connect failure's code in words. */
function connectProblem(what: string): string {
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ENOTFOUND: "no such host",
    EAI_AGAIN: "the name could not be resolved",
    UND_ERR_CONNECT_TIMEOUT: "connect timed out",
  };
  return words[what] ?? what;
}
const BACKOFF_CAP_MS = 10_000;
export class Transport {
  readonly stats: ClientStats = {
    requests: {},
    retries: 0,
    throttled429: 0,
    waitedMs: 0,
    failures: 0,
    unknownOutcomes: 0,
  };
  readonly #o: TransportOptions;
  /** The key is never in an error or a log line, whoever prints them (the CLI scrubs its output again). */
  readonly #key: Scrubber;
  /** The host gave some HTTP answer in this run: connection failures are then passing trouble. */
  #reached = false;
  /** Why the host is taken for unreachable (it never answered, two connects failed): later requests fail at once. */
  #unreachable: Extract<Outcome, { kind: "failure" }> | undefined;

  constructor(options: TransportOptions) {
    this.#o = options;
    this.#key = new Scrubber().add(options.apiKey, API_KEY_LABEL);
  }

  get pageLimits(): PageLimits {
    return this.#o.pageLimits;
  }

  /** The service's origin (`https://us.posthog.com`): where every request and every `next` link goes. */
  get origin(): string {
    return this.#o.origin;
  }

  /** `text` without the key, for messages that quote what the service sent. */
  scrubbed(text: string): string {
    return this.#scrub(text);
  }

  async send<T>(spec: RequestSpec): Promise<T> {
    const url = this.#url(spec);
    const path = url.pathname;
    const retrySafe = spec.retrySafe ?? spec.method !== "POST";
    const budget = this.#o.budgets[spec.budget ?? "general"];
    const queued = this.#o.clock.now();
    return this.#o.semaphore.run(async () => {
      this.stats.waitedMs += this.#o.clock.now() - queued;
      const { notifier, clock, stop } = this.#o;
      const { method } = spec;
      const onWait = (ms: number, reason: "rate-limit" | "retry-after") =>
        notifier.wait(reason, ms, clock.now(), method, path);
      let mayHaveArrived = false;
      for (let attempt = 0; ; attempt++) {
        stop.check(method, path);
        if (this.#unreachable !== undefined) throw this.#unreachableError(method, path, this.#unreachable);
        const permit = await budget.acquire(onWait).catch((error: unknown) => {
          throw error instanceof StoppedError ? new StoppedError(method, path) : error;
        });
        if (stop.stopped) {
          permit.done();
          stop.check(method, path);
        }
        this.stats.waitedMs += permit.waitedMs;
        const started = clock.now();
        this.stats.requests[method] = (this.stats.requests[method] ?? 0) + 1;
        const stopWatching = notifier.watch(method, path);
        const outcome = await this.#attempt(spec, url).finally(() => {
          stopWatching();
          permit.done();
        });
        const ms = Math.round(clock.now() - started);
        const label = `${method} ${path}${url.search}`;
        if (outcome.kind === "answer") this.#reached = true;
        else if (!this.#reached && CONNECT_FAILURES.has(outcome.what)) {
          // Never answered in this run: one quiet second try, then the host is taken for unreachable.
          this.#log(`${label} ${outcome.what} ${ms}ms: ${attempt === 0 ? "trying once more" : "failed"}`);
          if (attempt === 0 && !outcome.fatal) {
            await stop.sleep(clock, FIRST_CONTACT_RETRY_MS);
            continue;
          }
          this.#unreachable ??= outcome;
          this.stats.failures++;
          throw this.#unreachableError(method, path, outcome);
        }
        const answered = (status: number, items?: number) =>
          notifier.emit({
            type: "answer",
            method,
            path: shortPath(path),
            status,
            ms,
            ...(items === undefined ? {} : { items }),
          });
        const fail = (error: ServiceError): never => {
          this.stats.failures++;
          if (error instanceof UnknownOutcomeError) this.stats.unknownOutcomes++;
          this.#log(`${label} ${outcome.kind === "answer" ? outcome.status : outcome.what} ${ms}ms: failed`);
          if (outcome.kind === "answer" && !(error instanceof UnexpectedAnswerError))
            answered(outcome.status);
          throw error;
        };

        if (outcome.kind === "answer" && outcome.tooLarge) {
          const problem = `the answer is longer than ${describeBytes(this.#o.maxAnswerBytes)}`;
          return fail(new UnexpectedAnswerError({ method, path, status: outcome.status, problem }));
        }
        if (outcome.kind === "answer" && outcome.status >= 300 && outcome.status < 400) {
          // A redirect is never followed (the key would go with it) nor read as the answer.
          const to = outcome.location === undefined ? "" : `, to ${cut(this.#scrub(outcome.location), 200)}`;
          const problem = `it answered ${outcome.status} (a redirect${to}), which is not followed: is the host right?`;
          return fail(new UnexpectedAnswerError({ method, path, status: outcome.status, problem }));
        }
        if (outcome.kind === "answer" && outcome.status < 300) {
          this.#log(
            `${label} ${outcome.status} ${ms}ms${attempt ? ` (after ${count(attempt, "retry", "retries")})` : ""}`,
          );
          const value = await this.#read(spec, path, outcome.status, outcome.text, fail);
          if (notifier.active) {
            const items = spec.expect ? (await loadAnswers()).itemCount(spec.expect, value) : undefined;
            answered(outcome.status, items);
          }
          return value as T;
        }
        if (outcome.kind === "answer" && outcome.status === 404 && method === "DELETE" && mayHaveArrived) {
          this.#log(`${label} 404 ${ms}ms: already gone after a lost answer, counted as done`);
          answered(404);
          return undefined as T;
        }

        const retry = this.#retryDecision(outcome, retrySafe, attempt);
        if (retry.kind === "fail")
          return fail(
            buildError(spec.method, path, outcome, retry.unknown, this.#o.origin, (t) => this.#scrub(t)),
          );
        if (outcome.kind === "failure" && outcome.sent) mayHaveArrived = true;
        if (outcome.kind === "answer" && outcome.status !== 429) mayHaveArrived = true;
        const status = outcome.kind === "answer" ? outcome.status : outcome.what;
        this.#log(
          `${label} ${status} ${ms}ms: retry ${attempt + 1}/${this.#o.maxRetries} in ${retry.waitMs}ms`,
        );
        notifier.emit({
          type: "retry",
          method,
          path: shortPath(path),
          ...(outcome.kind === "answer" ? { status: outcome.status } : { what: outcome.what }),
          attempt: attempt + 1,
          of: this.#o.maxRetries,
          inMs: retry.waitMs,
        });
        if (outcome.kind === "answer" && outcome.status === 429) onWait(retry.waitMs, "retry-after");
        this.stats.retries++;
        this.stats.waitedMs += retry.waitMs;
        await stop.sleep(clock, retry.waitMs);
      }
    });
  }

  #unreachableError(
    method: string,
    path: string,
    outcome: Extract<Outcome, { kind: "failure" }>,
  ): ServiceError {
    return new NetworkError({
      method,
      path,
      status: 0,
      cause: outcome.cause,
      summary: `cannot connect to ${this.#o.origin} (${connectProblem(outcome.what)}): ${CHECK_HOST}`,
    });
  }

  #retryDecision(
    outcome: Outcome,
    retrySafe: boolean,
    attempt: number,
  ): { kind: "fail"; unknown: boolean } | { kind: "retry"; waitMs: number } {
    const backoff = Math.round(this.#o.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
    const exhausted = attempt >= this.#o.maxRetries;
    if (outcome.kind === "answer") {
      const { status, retryAfterMs } = outcome;
      if (status === 429) {
        this.stats.throttled429++;
        const after = retryAfterMs ?? 0;
        if (after > MAX_RETRY_AFTER_MS) return { kind: "fail", unknown: false };
        // Every request of the key waits, this one's retries exhausted or not (and a budget file
        // hands the pause to the next run).
        this.#o.budgets.general.pauseUntil(this.#o.clock.now() + after);
        this.#o.budgets.events.pauseUntil(this.#o.clock.now() + after);
        if (exhausted) return { kind: "fail", unknown: false };
        return { kind: "retry", waitMs: after + backoff };
      }
      if (status === 502 || status === 503 || status === 504) {
        if (!retrySafe) return { kind: "fail", unknown: true };
        return exhausted ? { kind: "fail", unknown: false } : { kind: "retry", waitMs: backoff };
      }
      return { kind: "fail", unknown: false };
    }
    if (outcome.fatal) return { kind: "fail", unknown: false };
    if (outcome.sent && !retrySafe) return { kind: "fail", unknown: true };
    return exhausted ? { kind: "fail", unknown: false } : { kind: "retry", waitMs: backoff };
  }

  async #attempt(spec: RequestSpec, url: URL): Promise<Outcome> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#o.apiKey}`,
      accept: "application/json",
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(spec.body);
    }
    const { headersMs, bodyMs, totalMs } = this.#o.timeouts;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error("total deadline passed")), totalMs);
    let answered = false;
    try {
      const res = await request(url, {
        dispatcher: this.#o.dispatcher,
        method: spec.method,
        headers,
        body,
        headersTimeout: headersMs,
        bodyTimeout: bodyMs,
        signal: deadline.signal,
      });
      answered = true;
      const text = await readAtMost(res.body, this.#o.maxAnswerBytes);
      const retryAfter = res.headers["retry-after"];
      const location = res.headers.location;
      return {
        kind: "answer",
        status: res.statusCode,
        text: text ?? "",
        retryAfterMs: parseRetryAfter(retryAfter, this.#o.clock.now()),
        ...(text === undefined ? { tooLarge: true } : {}),
        ...(typeof location === "string" ? { location } : {}),
      };
    } catch (raw) {
      return classifyFailure(raw, answered, deadline.signal.aborted, (text) => this.#scrub(text));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Parses a 2xx body and checks it against `spec.expect`: never a guess, never "nothing there". */
  async #read(
    spec: RequestSpec,
    path: string,
    status: number,
    text: string,
    fail: (e: ServiceError) => never,
  ): Promise<unknown> {
    const unexpected = (problem: string, hint?: string) =>
      fail(
        new UnexpectedAnswerError({ method: spec.method, path, status, problem, ...(hint ? { hint } : {}) }),
      );
    if (!text.trim()) return spec.expect ? unexpected("the answer is empty") : undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // A web page where JSON belongs: a login page, a proxy, or not PostHog at all.
      return unexpected("the answer is not JSON", `${this.#o.origin} ${NOT_POSTHOG}`);
    }
    if (spec.expect) {
      const problem = (await loadAnswers()).checkAnswer(spec.expect, value);
      if (problem !== undefined) return unexpected(this.#scrub(problem));
    }
    return value;
  }

  /** The absolute URL a spec addresses (refusing another origin), e.g. to recognise a repeated page. */
  urlOf(spec: RequestSpec): URL {
    return this.#url(spec);
  }

  #url(spec: RequestSpec): URL {
    const url = /^https?:\/\//.test(spec.path) ? new URL(spec.path) : new URL(this.#o.origin + spec.path);
    if (url.origin !== new URL(this.#o.origin).origin) {
      throw new ServiceError({
        method: spec.method,
        path: url.pathname,
        status: 0,
        summary: `refusing to follow a link to another origin (${url.origin})`,
      });
    }
    if (spec.query && Object.keys(spec.query).length > 0) url.search = queryString(spec.query);
    return url;
  }

  #scrub(text: string): string {
    return this.#key.scrub(text);
  }

  #log(line: string): void {
    this.#o.log?.(this.#scrub(line));
  }
}
