/**
 * Stopping a client (the user pressed Ctrl-C, or SIGTERM): from then on no request starts, not a
 * retry, not the POST of a create whose lookup just finished; requests already sent finish (or time
 * out) as usual; every wait (rate budget, backoff, Retry-After) ends at once, its timer released so
 * the process can exit.
 */
import type { Clock } from "posthog-gitops-shared/clock";
import { UserError } from "../errors.js";
import { shortPath } from "./errors.js";

export class StopSignal {
  readonly #controller = new AbortController();

  get stopped(): boolean {
    return this.#controller.signal.aborted;
  }

  stop(): void {
    this.#controller.abort();
  }

  /** Sleeps `ms`, or less when the client stops meanwhile. */
  sleep(clock: Clock, ms: number): Promise<void> {
    return clock.sleep(ms, this.#controller.signal);
  }

  /** Resolves when the client stops (for waits without an end of their own). */
  whenStopped(): Promise<void> {
    const signal = this.#controller.signal;
    return signal.aborted
      ? Promise.resolve()
      : new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  }

  /** Throws when stopped: call right before a request would be sent. */
  check(method: string, path: string): void {
    if (this.stopped) throw new StoppedError(method, path);
  }
}

/** A request that was not sent because the client was stopping. It did not reach the service. */
export class StoppedError extends UserError {
  override name = "StoppedError";

  constructor(
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${shortPath(path)}: not sent, the run is stopping`, "interrupted");
  }
}
