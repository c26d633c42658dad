/**
 * `posthog-gitops emulator`: starts the local service stand-in, prints exactly one line
 * `listening on http://HOST:PORT` on stdout, and runs until SIGINT / SIGTERM (or `options.signal`,
 * used by tests), then closes and returns 0. A non-loopback `--host` must be given explicitly and is
 * warned about on stderr.
 */
import { isLoopback, startEmulator } from "../emulator/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";

export interface EmulatorCommandOptions {
  port?: string;
  host?: string;
  seed?: string;
  state?: string;
  apiKey?: string;
  latencyMs?: string;
  errorRate?: string;
  errorStatus?: string;
  rateLimit?: string;
  /** Stops the emulator when aborted (tests); otherwise SIGINT / SIGTERM do. */
  signal?: AbortSignal;
}

function number(
  value: string | undefined,
  name: string,
  min: number,
  max: number,
  integer = true,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new UserError(
      `--${name} must be ${integer ? "an integer" : "a number"} between ${min} and ${max}, got "${value}"`,
    );
  }
  return n;
}

export async function run(options: EmulatorCommandOptions, io: Io): Promise<number> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host)) {
    io.stderr.write(`warning: binding the emulator to ${host}: other machines can reach it\n`);
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      port: number(options.port ?? "8010", "port", 0, 65535),
      host,
      allowNonLoopback: true,
      seed: options.seed,
      stateFile: options.state,
      apiKey: options.apiKey,
      latencyMs: number(options.latencyMs, "latency-ms", 0, 60_000),
      errorRate: number(options.errorRate, "error-rate", 0, 1, false),
      errorStatus: number(options.errorStatus, "error-status", 400, 599),
      rateLimit: options.rateLimit,
      clock: io.clock,
    });
  } catch (error) {
    if (error instanceof UserError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot start the emulator: ${message}`);
  }
  io.stdout.write(`listening on ${emulator.url}\n`);
  await waitForStop(options.signal, io);
  await emulator.close();
  return 0;
}

/** Waits for the abort signal (tests) or the user's request to stop (SIGINT / SIGTERM through `io`). */
function waitForStop(signal: AbortSignal | undefined, io: Io): Promise<void> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | undefined;
    const stop = () => {
      unsubscribe?.();
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener("abort", stop);
    unsubscribe = io.onTerminate?.(stop);
  });
}
