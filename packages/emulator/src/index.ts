/**
 * `startEmulator(options)`: a real `node:http` server on loopback that behaves like the service
 * (see src/emulator/README.md). Resolves to `{ url, port, close() }` once listening.
 * The `latencyMs` / `errorRate` / `errorStatus` options are baseline faults: `POST /_emulator/faults {}`
 * and `POST /_emulator/reset` return to them.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Clock, systemClock } from "../clock.js";
import { handleControl, hostAllowed } from "./control.js";
import { defaultSeed } from "./default-seed.js";
import { FaultState, type Faults } from "./faults.js";
import { readStateFile, StatePersister } from "./persist.js";
import { parseUpgradeOptions, upgradeStoredQueries } from "./query-upgrades.js";
import { parseRateLimit, RateLimiter, type Window } from "./rate-limit.js";
import { buildRouter } from "./routes/index.js";
import { normaliseSeed } from "./seed.js";
import { handleRequest, type ServerState } from "./server.js";
import { defaultService, mergeService, type ServiceOptions, type ServiceSettings } from "./service.js";
import { openSession } from "./sessions.js";
import { Store } from "./store.js";
import type { LogEntry, StoreData } from "./types.js";

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
   * Which service to behave like (see src/emulator/README.md, "The service switch"): e.g.
   * `{ rules: "2025" }` for the older rules, `{ legacy_routes: false }` to drop the routes the newest
   * service removed, `{ feature_flags: { "high-frequency-batch-exports": true } }`. Applies to the
   * default seed and to every seed without its own `service` keys (start seed, `POST /_emulator/seed`).
   */
  service?: ServiceOptions;
  /** Called with unexpected handler errors (answered as 500). */
  onError?: (error: unknown) => void;
}

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function serviceBase(options: EmulatorOptions): ServiceSettings {
  const merged = mergeService(defaultService(), options.service);
  if (typeof merged === "string") throw new Error(`invalid service option: ${merged}`);
  return merged;
}

function loadSeed(options: EmulatorOptions, now: Date): StoreData {
  let seed: unknown = options.seed;
  if (typeof seed === "string") seed = JSON.parse(readFileSync(seed, "utf8"));
  const base = serviceBase(options);
  const data = seed === undefined ? defaultSeed(now, base) : normaliseSeed(seed, now, base);
  return withApiKey(data, options.apiKey ?? "phx_emulator");
}

/**
 * Makes sure the emulator's key exists with every scope: it renames the seed's `phx_emulator`, or is
 * added for the first active user. Applied to the start seed and to every `POST /_emulator/seed`.
 */
function withApiKey(data: StoreData, apiKey: string): StoreData {
  if (!data.api_keys.some((k) => k.key === apiKey)) {
    const builtIn = data.api_keys.find((k) => k.key === "phx_emulator");
    if (builtIn) builtIn.key = apiKey;
    else {
      const user = data.users.find((u) => u.is_active);
      if (user) data.api_keys.push({ key: apiKey, user: user.id, scopes: ["*"] });
    }
  }
  return data;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && !options.allowNonLoopback) {
    throw new Error(`refusing to bind the emulator to non-loopback address ${host}`);
  }
  const clock = options.clock ?? systemClock;
  const seedJson = JSON.stringify(loadSeed(options, new Date(clock.now())));
  const fresh = () => JSON.parse(seedJson) as StoreData;
  const saved = options.stateFile ? readStateFile(options.stateFile) : undefined;
  const base = serviceBase(options);
  const store = new Store(saved === undefined ? fresh() : normaliseSeed(saved, new Date(clock.now()), base));
  const persister = options.stateFile ? new StatePersister(options.stateFile, store) : undefined;

  const baseline: Faults = {};
  if (options.latencyMs) baseline.latency_ms = options.latencyMs;
  if (options.errorRate) baseline.error_rate = options.errorRate;
  if (options.errorStatus) baseline.error_status = options.errorStatus;
  let faults = new FaultState(baseline);
  const limiter = new RateLimiter();
  const log: LogEntry[] = [];
  const optionLimits =
    typeof options.rateLimit === "string" ? parseRateLimit(options.rateLimit) : options.rateLimit;

  const state: ServerState = {
    store,
    clock,
    router: buildRouter(),
    limiter,
    faults: () => faults,
    optionLimits,
    log,
    onError: options.onError,
    hostAllowed: (requested) => hostAllowed(requested, !isLoopback(host)),
    control: (req, res, url) =>
      handleControl(
        {
          log,
          getFaults: () => faults.faults,
          setFaults: (f) => {
            faults = new FaultState(Object.keys(f as object).length === 0 ? baseline : (f as Faults));
            limiter.clear();
          },
          reset: () => {
            store.replace(fresh());
            faults = new FaultState(baseline);
            limiter.clear();
            log.length = 0;
          },
          state: () => store.data,
          loadSeed: (seed) => {
            store.replace(
              withApiKey(normaliseSeed(seed, new Date(clock.now()), base), options.apiKey ?? "phx_emulator"),
            );
            limiter.clear();
          },
          upgradeQueries: (body) =>
            upgradeStoredQueries(store, new Date(clock.now()), parseUpgradeOptions(body)),
          openSession: (body) => openSession(store, body, new Date(clock.now())),
        },
        req,
        res,
        url,
      ),
  };

  const server: Server = createServer((req, res) => {
    handleRequest(state, req, res).catch((error) => {
      state.onError?.(error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          type: "server_error",
          code: "error",
          detail: "A server error occurred.",
          attr: null,
        }),
      );
    });
  });
  server.keepAliveTimeout = 5000;
  // A client that stalls mid-request is cut off rather than holding a socket for the default 5 minutes.
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        persister?.flush();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export { defaultSeed } from "./default-seed.js";
export type { FeatureFlag, Rules, ServiceOptions, ServiceSettings } from "./service.js";
export type { Seed, StoreData } from "./types.js";
