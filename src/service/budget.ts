/**
 * Client-side pacing: a sliding-window budget per key and a small semaphore bounding concurrency.
 *
 * The budget counts a request from the moment it is sent until `window` after its answer arrived:
 * the service counts it somewhere in between, so no window the service can draw holds more requests
 * than the limit (the service may count fixed or sliding windows, or refill a token bucket; a sliding
 * window on the client's side is at least as strict as each). A 429 despite that (another process using
 * the same key) pauses the whole budget until `Retry-After` has passed. A run can start from what
 * earlier runs spent (`seed`, `snapshot`; budget-file.ts keeps them between processes).
 */

import type { Clock } from "posthog-gitops-shared/clock";
import { StoppedError, type StopSignal } from "./stop.js";

export interface RateWindow {
  limit: number;
  ms: number;
}

/** Why a request waits: the client's own windows, or a pause the service asked for (429 Retry-After). */
export type WaitReason = "rate-limit" | "retry-after";
export type WaitListener = (ms: number, reason: WaitReason) => void;

/** One slot: `end` is Infinity while the request is in flight, then the time its answer arrived. */
interface Slot {
  end: number;
}

export class RateBudget {
  readonly #windows: RateWindow[];
  readonly #clock: Clock;
  #slots: Slot[] = [];
  #pausedUntil = 0;
  #queue: Promise<void> = Promise.resolve();
  #released: Array<() => void> = [];
  readonly #stop: StopSignal | undefined;

  constructor(windows: RateWindow[], clock: Clock, stop?: StopSignal) {
    for (const w of windows) {
      if (!(w.limit >= 1 && w.ms > 0)) throw new RangeError(`invalid rate window ${w.limit}/${w.ms}ms`);
    }
    this.#windows = windows;
    this.#clock = clock;
    this.#stop = stop;
  }

  /**
   * Waits (first come, first served) until one more request fits every window; returns a function to
   * call when the answer arrived (or the attempt failed) and the time spent waiting. `onWait` hears
   * of each timed wait before it starts (not of waits for an answer in flight, whose length is unknown).
   */
  acquire(onWait?: WaitListener): Promise<{ done: () => void; waitedMs: number }> {
    const turn = this.#queue.then(() => this.#take(onWait));
    this.#queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** Stops every new request until `until` (a clock time), e.g. after a 429 with Retry-After. */
  pauseUntil(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }

  /** The longest window: how far back an answer can still matter. */
  get horizonMs(): number {
    return Math.max(...this.#windows.map((w) => w.ms));
  }

  /**
   * Counts the answers of earlier runs with the same key (epoch ms, from a budget file) as if this
   * budget had sent them: those still inside a window take room in it. Only the newest `limit` of
   * the largest window can matter, so no more are kept; times ahead of the clock count as now.
   */
  seed(answers: readonly number[], pausedUntil = 0): void {
    const now = this.#clock.now();
    const keep = Math.max(...this.#windows.map((w) => w.limit));
    const recent = answers
      .filter((t) => Number.isFinite(t) && t > now - this.horizonMs)
      .map((t) => Math.min(t, now))
      .sort((a, b) => a - b)
      .slice(-keep);
    this.#slots.push(...recent.map((end) => ({ end })));
    if (pausedUntil > now) this.pauseUntil(pausedUntil);
  }

  /** What a later run needs to know: answer times still inside the longest window, and any pause. */
  snapshot(): { answers: number[]; pausedUntil: number } {
    const now = this.#clock.now();
    const answers = this.#slots
      .map((s) => (s.end === Number.POSITIVE_INFINITY ? now : s.end))
      .filter((t) => t > now - this.horizonMs)
      .sort((a, b) => a - b);
    return { answers, pausedUntil: this.#pausedUntil > now ? this.#pausedUntil : 0 };
  }

  async #take(onWait: WaitListener | undefined): Promise<{ done: () => void; waitedMs: number }> {
    const started = this.#clock.now();
    for (;;) {
      // A stopping client sends nothing more: the caller names the request in the error.
      if (this.#stop?.stopped) throw new StoppedError("", "");
      const { ms: wait, reason } = this.#waitNeeded(this.#clock.now());
      if (wait === 0) break;
      if (Number.isFinite(wait)) {
        onWait?.(wait, reason);
        await (this.#stop ? this.#stop.sleep(this.#clock, wait) : this.#clock.sleep(wait));
      } else {
        const released = new Promise<void>((resolve) => this.#released.push(resolve));
        await (this.#stop ? Promise.race([released, this.#stop.whenStopped()]) : released);
      }
    }
    const slot: Slot = { end: Number.POSITIVE_INFINITY };
    this.#slots.push(slot);
    const done = () => {
      if (slot.end !== Number.POSITIVE_INFINITY) return;
      slot.end = this.#clock.now();
      const waiters = this.#released;
      this.#released = [];
      for (const wake of waiters) wake();
    };
    return { done, waitedMs: this.#clock.now() - started };
  }

  /**
   * 0 when a request may go now; Infinity when only an in-flight request finishing can make room.
   * `reason` says what binds: a pause after a 429, or the windows.
   */
  #waitNeeded(now: number): { ms: number; reason: WaitReason } {
    const longest = Math.max(0, ...this.#windows.map((w) => w.ms));
    this.#slots = this.#slots.filter((s) => s.end === Number.POSITIVE_INFINITY || s.end + longest > now);
    const paused = Math.max(0, this.#pausedUntil - now);
    let wait = 0;
    for (const w of this.#windows) {
      const live = this.#slots.filter((s) => s.end + w.ms > now);
      if (live.length < w.limit) continue;
      // Room opens when enough of the oldest answered slots leave this window.
      const ends = live
        .map((s) => s.end)
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      const needed = live.length - w.limit + 1;
      const end = ends[needed - 1];
      wait = Math.max(wait, end === undefined ? Number.POSITIVE_INFINITY : end + w.ms - now);
    }
    return paused >= wait ? { ms: paused, reason: "retry-after" } : { ms: wait, reason: "rate-limit" };
  }
}

/** A counting semaphore; `run` holds one permit for the duration of `task`. */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(permits: number) {
    if (!(Number.isInteger(permits) && permits >= 1)) throw new RangeError(`invalid concurrency ${permits}`);
    this.#free = permits;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}
