/**
 * What the client tells its caller while it works, so the CLI can say on stderr what takes time
 * (SPEC §4): "waiting 41 s for the service's rate limit", "GET dashboards answered 502, retry 2 of 5
 * in 3 s", "GET dashboards: no answer yet after 10 s", and a count of objects read.
 *
 * Every event names the request by method and short path (`dashboards`, `dashboards/42/sharing`, as
 * error messages do): never the host, the query or the key. Events arrive in the order things happen.
 * A listener that throws is ignored: progress output must never break a run.
 */
import type { WaitReason } from "./budget.js";
import { shortPath } from "./errors.js";

export type ClientEvent = WaitEvent | RetryEvent | SlowEvent | AnswerEvent;

/**
 * A request is about to wait at least `notice.waitMs` (default 1 s) before it may be sent: its
 * budget's windows are full (`rate-limit`), or the service answered 429 and asked to wait
 * (`retry-after`). One event per wait: requests queued behind the same wait do not repeat it, and a
 * 429's Retry-After is announced once (by the request that got it), not again by the budget's pause.
 */
export interface WaitEvent {
  type: "wait";
  reason: WaitReason;
  /** How long the wait is, from now. */
  ms: number;
  method: string;
  path: string;
}

/**
 * An attempt failed in a way that is retried (429, 502/503/504, a reset, a timeout, a refused
 * connection). `status` is set when the service answered, `what` when it did not (an error code such
 * as `ECONNRESET`, or `total deadline`).
 */
export interface RetryEvent {
  type: "retry";
  method: string;
  path: string;
  status?: number;
  what?: string;
  /** This retry's number, from 1, of at most `of` (ClientOptions.maxRetries). */
  attempt: number;
  of: number;
  /** Time until the retry is sent: backoff, or Retry-After plus backoff. */
  inMs: number;
}

/**
 * An attempt has been in flight `elapsedMs` without an answer: emitted when it crosses
 * `notice.slowMs` (default 5 s) and again at each doubling (10 s, 20 s, 40 s …) until it ends.
 * `elapsedMs` is the threshold crossed.
 */
export interface SlowEvent {
  type: "slow";
  method: string;
  path: string;
  elapsedMs: number;
}

/**
 * A request is complete: the service's final answer (retries behind it), with a 2xx already checked
 * against its shape (a wrong shape throws instead). `items` is the number of objects on a list page
 * (or in the collaborators list), absent for other answers. `ms` is the last attempt's duration.
 */
export interface AnswerEvent {
  type: "answer";
  method: string;
  path: string;
  status: number;
  ms: number;
  items?: number;
}

/** Thresholds for `wait` and `slow` events. */
export interface NoticeOptions {
  /** Waits shorter than this are not reported; default 1,000 ms. */
  waitMs?: number;
  /** First `slow` event after this long in flight; default 5,000 ms. */
  slowMs?: number;
}

/** Timers for `slow` events; the default is Node's, unref'd so a pending one never holds a process open. */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const nodeTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Emits events for one client; holds the state that keeps one wait from being announced twice. */
export class Notifier {
  readonly #listener: ((event: ClientEvent) => void) | undefined;
  readonly #waitMs: number;
  readonly #slowMs: number;
  readonly #timers: Timers;
  /** Clock time until which a wait has been announced. */
  #announcedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    listener: ((event: ClientEvent) => void) | undefined,
    notice: NoticeOptions = {},
    timers: Timers = nodeTimers,
  ) {
    this.#listener = listener;
    this.#waitMs = notice.waitMs ?? 1_000;
    this.#slowMs = notice.slowMs ?? 5_000;
    this.#timers = timers;
  }

  get active(): boolean {
    return this.#listener !== undefined;
  }

  emit(event: ClientEvent): void {
    if (!this.#listener) return;
    try {
      this.#listener(event);
    } catch {
      // A progress printer's bug must not fail the request that reported progress.
    }
  }

  /**
   * A wait of `ms` starting at `now`. Reported when noticeable and when it ends noticeably (by
   * `waitMs`) later than every wait reported before: requests queued behind one wait, a 429's pause
   * seen by the budget after the request that got the 429 announced it, or the 429s of requests that
   * were in flight together (each asking for about the same wait) stay quiet.
   */
  wait(reason: WaitReason, ms: number, now: number, method: string, path: string): void {
    if (!this.#listener || ms < this.#waitMs) return;
    const until = now + ms;
    if (until < this.#announcedUntil + this.#waitMs) return;
    this.#announcedUntil = until;
    this.emit({ type: "wait", reason, ms: Math.round(ms), method, path: shortPath(path) });
  }

  /** Starts the `slow` notices of one attempt; the returned function stops them (call it always). */
  watch(method: string, path: string): () => void {
    if (!this.#listener || !(this.#slowMs > 0 && Number.isFinite(this.#slowMs))) return () => {};
    let threshold = this.#slowMs;
    let handle: unknown;
    let stopped = false;
    const arm = () => {
      const previous = threshold === this.#slowMs ? 0 : threshold / 2;
      handle = this.#timers.set(() => {
        if (stopped) return;
        this.emit({ type: "slow", method, path: shortPath(path), elapsedMs: threshold });
        threshold *= 2;
        arm();
      }, threshold - previous);
    };
    arm();
    return () => {
      stopped = true;
      this.#timers.clear(handle);
    };
  }
}
