/**
 * `ServiceClient`: one paced, bounded, retrying transport per API key (the budget is the key's, so every
 * caller in a run must share it), with the generic ways to reach any endpoint (`request`, `pages`,
 * `listAll`) and namespaces for the endpoints that belong to no kind (events, organizations and their
 * members and projects, integrations). A kind's own endpoints are in its folder
 * (src/kinds/<kind>/service.ts), built on the generic three.
 * The key lives in a private field only: util.inspect, JSON.stringify, stats and errors never show it.
 */

import { type Clock, systemClock } from "posthog-gitops-shared/clock";
import { Agent, type Dispatcher } from "undici";
import { RateBudget, type RateWindow, Semaphore } from "./budget.js";
import { type BudgetName, budgetFileId, readBudgetFile, writeBudgetFile } from "./budget-file.js";
import { type ClientEvent, type NoticeOptions, Notifier, type Timers } from "./client-events.js";
import { eventsApi, keysApi, organizationsApi } from "./events.js";
import { integrationsApi } from "./integrations.js";
import { collectOffsetPages, type Paging, paginate } from "./pages.js";
import type { Query } from "./query.js";
import type { AnswerShape } from "./shapes.js";
import { StopSignal } from "./stop.js";
import { type ClientStats, type PageLimits, type RequestSpec, Transport } from "./transport.js";

export type {
  AnswerEvent,
  ClientEvent,
  NoticeOptions,
  RetryEvent,
  SlowEvent,
  Timers,
  WaitEvent,
} from "./client-events.js";
export type { Integration } from "./integrations.js";
export { collect, type Paging } from "./pages.js";
export type { ClientStats, PageLimits } from "./transport.js";

export interface ClientOptions {
  /** e.g. https://us.posthog.com or http://127.0.0.1:PORT (origin only). */
  host: string;
  apiKey: string;
  /** Injectable for tests; default: one pooled keep-alive Agent owned (and closed) by the client. */
  dispatcher?: Dispatcher;
  /** Requests in flight at once; default 4. */
  concurrency?: number;
  /** Default 480/minute, 4800/hour. */
  rateLimit?: { perMinute: number; perHour: number };
  /**
   * The ClickHouse-throttled endpoints (events and insights, one scope at the service); default
   * 240/minute, 1200/hour.
   */
  eventsRateLimit?: { perMinute: number; perHour: number };
  /** Arbitrary windows (e.g. 20 per 2 s in tests, or POSTHOG_RATE_LIMIT); win over `rateLimit`. */
  rateWindows?: { general?: RateWindow[]; events?: RateWindow[] };
  /** Retries after the first attempt; default 5. */
  maxRetries?: number;
  /**
   * connectMs applies to the default dispatcher only; headersMs / bodyMs are undici's inactivity
   * timeouts; totalMs bounds one attempt from send to the last body byte. Defaults 10 s / 30 s / 30 s / 120 s.
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; totalMs?: number };
  /** One line per attempt: method, path, status, ms, retries. Never the key. */
  log?: (line: string) => void;
  /** Time for pacing, backoff and Retry-After dates; default the system clock. */
  clock?: Clock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /**
   * Bounds on one list walk, beyond which the list is refused as an unexpected answer (SPEC §8):
   * default 10,000 pages and 1,000,000 objects (a larger `count` is refused before reading on).
   */
  pageLimits?: Partial<PageLimits>;
  /**
   * Hears what takes time, for progress on stderr: noticeable waits (rate limit, Retry-After),
   * retries, slow answers and each completed request (client-events.ts). Never holds the key.
   */
  onEvent?: (event: ClientEvent) => void;
  /** When waits and slow answers become events; default 1 s and 5 s. */
  notice?: NoticeOptions;
  /** Timers behind `slow` events; default Node's (unref'd). Tests inject fake ones. */
  timers?: Timers;
  /**
   * Where to remember the spent budget between runs (budget-file.ts): read when the client starts,
   * written on `close()`. See `defaultBudgetFile` (env.ts) for the user's cache; none by default.
   */
  budgetFile?: string;
  /** The longest answer body read, default 64 MB; a longer one is an UnexpectedAnswerError. */
  maxAnswerBytes?: number;
  /**
   * Learns a secret an answer revealed (a flag's encrypted payload, which a personal API key reads in
   * plain text), so that no output shows it: the run's scrubber (src/scrub.ts).
   */
  hideSecret?: (value: string, label: string) => void;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

export class ServiceClient {
  readonly events;
  readonly organizations;
  readonly integrations;
  readonly keys;
  readonly host: string;
  readonly #transport: Transport;
  readonly #ownAgent: Agent | undefined;
  readonly #budgets: Record<BudgetName, RateBudget>;
  readonly #stop = new StopSignal();
  readonly #clock: Clock;
  readonly #budgetFile: { path: string; id: string } | undefined;
  readonly #hideSecret: ((value: string, label: string) => void) | undefined;
  #closed: Promise<void> | undefined;

  constructor(options: ClientOptions) {
    const host = new URL(options.host);
    if (host.protocol !== "https:" && host.protocol !== "http:") {
      throw new TypeError(`unsupported host protocol ${host.protocol}`);
    }
    this.host = host.origin;
    const concurrency = options.concurrency ?? 4;
    const timeouts = {
      connectMs: 10_000,
      headersMs: 30_000,
      bodyMs: 30_000,
      totalMs: 120_000,
      ...options.timeouts,
    };
    this.#ownAgent = options.dispatcher
      ? undefined
      : new Agent({
          connections: concurrency,
          keepAliveTimeout: 10_000,
          connect: { timeout: timeouts.connectMs },
        });
    const clock = options.clock ?? systemClock;
    const stop = this.#stop;
    const windows = (limit: { perMinute: number; perHour: number }): RateWindow[] => [
      { limit: limit.perMinute, ms: MINUTE },
      { limit: limit.perHour, ms: HOUR },
    ];
    const budgets = {
      general: new RateBudget(
        options.rateWindows?.general ?? windows(options.rateLimit ?? { perMinute: 480, perHour: 4800 }),
        clock,
        stop,
      ),
      events: new RateBudget(
        options.rateWindows?.events ?? windows(options.eventsRateLimit ?? { perMinute: 240, perHour: 1200 }),
        clock,
        stop,
      ),
    };
    this.#budgets = budgets;
    this.#clock = clock;
    this.#hideSecret = options.hideSecret;
    if (options.budgetFile) {
      this.#budgetFile = { path: options.budgetFile, id: budgetFileId(this.host, options.apiKey) };
      const saved = readBudgetFile(this.#budgetFile.path, this.#budgetFile.id, clock.now());
      for (const [name, budget] of Object.entries(budgets) as Array<[BudgetName, RateBudget]>) {
        if (saved) budget.seed(saved[name].answers, saved[name].pausedUntil);
      }
    }
    const t = new Transport({
      origin: this.host,
      apiKey: options.apiKey,
      dispatcher: options.dispatcher ?? (this.#ownAgent as Dispatcher),
      budgets,
      semaphore: new Semaphore(concurrency),
      maxRetries: options.maxRetries ?? 5,
      timeouts,
      clock,
      random: options.random ?? Math.random,
      log: options.log,
      pageLimits: { maxPages: 10_000, maxObjects: 1_000_000, ...options.pageLimits },
      notifier: new Notifier(options.onEvent, options.notice, options.timers),
      maxAnswerBytes: options.maxAnswerBytes ?? 64 * 1_048_576,
      stop,
    });
    this.#transport = t;
    this.events = eventsApi(t);
    this.organizations = organizationsApi(t);
    this.integrations = integrationsApi(t);
    this.keys = keysApi(t);
  }

  /**
   * Any endpoint, paced, retried and turned into errors like every other, its 2xx answer checked
   * against `expect`. `path` is from the host root (`/api/projects/1/notes/`, see `projectPath`).
   */
  request<T>(spec: RequestSpec): Promise<T> {
    return this.#transport.send<T>(spec);
  }

  /**
   * The items of a paged list (limit/offset, cursor or `before=` pages: each names the next), read
   * lazily page by page as the caller iterates, at most `max`; each page checked against `spec.expect`.
   */
  pages<T>(spec: RequestSpec, max?: number): AsyncIterable<T> {
    return paginate<T>(this.#transport, spec, max);
  }

  /**
   * Every item of a limit/offset list at `path` (pages after the first read concurrently), each page
   * checked against `expect` (a `listPage(item)` of shapes.ts), drawn from `budget` (default general),
   * paged as `paging` says (default: 100 a page, following the pages' `next` and `count`).
   */
  listAll<T extends { id: unknown }>(
    path: string,
    query: Query = {},
    expect?: AnswerShape,
    budget?: RequestSpec["budget"],
    paging?: Paging,
  ): Promise<T[]> {
    return collectOffsetPages<T>(
      this.#transport,
      {
        method: "GET",
        path,
        query,
        ...(budget ? { budget } : {}),
        ...(expect ? { expect } : {}),
      },
      100,
      paging,
    );
  }

  /**
   * Stops the client for an interrupt: no request starts from now on (each fails with a StoppedError,
   * code `interrupted`), requests already sent finish, and every wait ends at once.
   */
  stop(): void {
    this.#stop.stop();
  }

  get stopped(): boolean {
    return this.#stop.stopped;
  }

  get stats(): ClientStats {
    return this.#transport.stats;
  }

  /** Hides a secret an answer revealed from every output of the run (`hideSecret`); no-op without one. */
  hideSecret(value: string, label: string): void {
    this.#hideSecret?.(value, label);
  }

  /** One line for `--verbose`: requests by method, retries, 429s, time waited. */
  describeStats(): string {
    const s = this.stats;
    const byMethod = Object.entries(s.requests)
      .map(([m, n]) => `${m} ${n}`)
      .join(", ");
    return `requests: ${byMethod || "none"}; retries ${s.retries}; 429s ${s.throttled429}; waited ${Math.round(s.waitedMs)} ms`;
  }

  /**
   * Closes the client's own connection pool (an injected dispatcher is left to its owner) and, with
   * a `budgetFile`, writes the spent budget there for the next run. Calling it again is harmless.
   */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<void> {
    if (this.#budgetFile) {
      const b = this.#budgets;
      writeBudgetFile(
        this.#budgetFile.path,
        this.#budgetFile.id,
        this.#clock.now(),
        { general: b.general.snapshot(), events: b.events.snapshot() },
        { general: b.general.horizonMs, events: b.events.horizonMs },
      );
    }
    await this.#ownAgent?.close();
  }
}
