/**
 * What `startEmulator` takes, and the same options as command-line text (`optionsFromFlags`, used by
 * this package's bin and by the tool's `posthog-gitops emulator` command).
 */
import { type Clock, systemClock } from "posthog-gitops-shared/clock";
import type { Window } from "./rate-limit.js";
import type { ServiceOptions } from "./service.js";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Other addresses need `allowNonLoopback`. */
  host?: string;
  allowNonLoopback?: boolean;
  /** A seed object, or the path of a JSON seed file. Default: the built-in seed. */
  seed?: unknown;
  /** Persist the store to this file (loaded at start when it exists). */
  stateFile?: string;
  /** The key accepted with every scope (replaces the seed's `phx_emulator`). Default `phx_emulator`. */
  apiKey?: string;
  latencyMs?: number;
  errorRate?: number;
  errorStatus?: number;
  /** `480/minute,4800/hour` style, `none` to disable, or windows. Default: the service's limits. */
  rateLimit?: string | Window[];
  /**
   * Where the emulator's time comes from: each request's "now", the default seed's dates, throttling.
   * Default: the system clock. Tests pass the clock their CLI runs use.
   */
  clock?: Clock;
  /**
   * Which service to behave like (see README.md, "The service switch"): e.g.
   * `{ rules: "2025" }` for the older rules, `{ legacy_routes: false }` to drop the routes the newest
   * service removed, `{ feature_flags: { "high-frequency-batch-exports": true } }`. Applies to the
   * default seed and to every seed without its own `service` keys (start seed, `POST /_emulator/seed`).
   */
  service?: ServiceOptions;
  /** Called with unexpected handler errors (answered as 500). */
  onError?: (error: unknown) => void;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The options as text, the way a command line gives them (every one optional). */
export interface EmulatorFlags {
  port?: string;
  host?: string;
  seed?: string;
  state?: string;
  apiKey?: string;
  latencyMs?: string;
  errorRate?: string;
  errorStatus?: string;
  rateLimit?: string;
}

/** An option value the emulator cannot take; its message names the option and the accepted range. */
export class EmulatorUsageError extends Error {
  override name = "EmulatorUsageError";
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
    throw new EmulatorUsageError(
      `--${name} must be ${integer ? "an integer" : "a number"} between ${min} and ${max}, got "${value}"`,
    );
  }
  return n;
}

/**
 * `EmulatorOptions` from option text: port 8010 and host 127.0.0.1 unless given, any host allowed
 * (the caller warns about one that is not loopback). Throws `EmulatorUsageError` for a bad number.
 */
export function optionsFromFlags(flags: EmulatorFlags, clock: Clock = systemClock): EmulatorOptions {
  return {
    port: number(flags.port ?? "8010", "port", 0, 65535),
    host: flags.host ?? "127.0.0.1",
    allowNonLoopback: true,
    seed: flags.seed,
    stateFile: flags.state,
    apiKey: flags.apiKey,
    latencyMs: number(flags.latencyMs, "latency-ms", 0, 60_000),
    errorRate: number(flags.errorRate, "error-rate", 0, 1, false),
    errorStatus: number(flags.errorStatus, "error-status", 400, 599),
    rateLimit: flags.rateLimit,
    clock,
  };
}
