/**
 * The one source of time for the tool and the emulator. Nothing else reads the wall clock: the entry
 * points hand `systemClock` down, and tests hand down a clock that starts at an instant of their
 * choosing, so no result depends on the time of day or the date the suite runs at.
 *
 * `now()` is wall-clock time in epoch milliseconds; `sleep` waits real time (a fake clock in unit tests
 * may advance itself instead), or less: it ends, and lets go of its timer, when `signal` aborts.
 */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });

/** The machine's clock. Only entry points (bin, the emulator command, `startEmulator`'s default) use it. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: realSleep,
};

/**
 * A clock that reads `start` now and then runs at real speed: dates are fixed, durations are real.
 * `start` is an ISO-8601 instant or epoch milliseconds.
 */
export function clockFrom(start: string | number): Clock {
  const origin = typeof start === "number" ? start : Date.parse(start);
  if (!Number.isFinite(origin)) throw new RangeError(`not an instant: ${String(start)}`);
  const began = performance.now();
  return {
    now: () => origin + Math.round(performance.now() - began),
    sleep: realSleep,
  };
}

/** `now()` as a Date. */
export function nowDate(clock: Clock): Date {
  return new Date(clock.now());
}
