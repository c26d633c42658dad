/**
 * `startEmulator(options)`: a real `node:http` server on loopback that behaves like the service
 * (see the package's README.md). Resolves to `{ url, port, close() }` once listening.
 * The `latencyMs` / `errorRate` / `errorStatus` options are baseline faults: `POST /_emulator/faults {}`
 * and `POST /_emulator/reset` return to them.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { systemClock } from "posthog-gitops-shared/clock";
import { parseRecalculateOptions, recalculateCohorts, upgradeCohortBytecode } from "./cohort-calculation.js";
import { handleControl, hostAllowed } from "./control.js";
import { defaultSeed } from "./default-seed.js";
import { FaultState, type Faults } from "./faults.js";
import { type EmulatorOptions, isLoopback } from "./options.js";
import { readStateFile, StatePersister } from "./persist.js";
import { parseUpgradeOptions, upgradeStoredQueries } from "./query-upgrades.js";
import { parseRateLimit, RateLimiter } from "./rate-limit.js";
import { buildRouter } from "./routes/index.js";
import { normaliseSeed } from "./seed.js";
import { handleRequest, type ServerState } from "./server.js";
import { defaultService, mergeService, type ServiceSettings } from "./service.js";
import { openSession } from "./sessions.js";
import { Store } from "./store.js";
import type { LogEntry, StoreData } from "./types.js";

export interface RunningEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
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
          recalculateCohorts: (body) =>
            recalculateCohorts(store, new Date(clock.now()), parseRecalculateOptions(body)),
          upgradeCohortBytecode: (body) => upgradeCohortBytecode(store, new Date(clock.now()), body),
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

/** The default seed, and the ids and keys of its objects (a published interface, see README.md). */
export {
  ACME_ID,
  ACTION_IDS,
  BOB_KEY,
  COHORT_IDS,
  defaultSeed,
  FLAG_IDS,
  GLOBEX_ID,
  INTEGRATION_IDS,
  OLD_RUN_ID,
  POSTGRES_EXPORT_ID,
  S3_EXPORT_ID,
  SAMPLE_ENCRYPTED_PAYLOAD,
  SEED_CREDENTIALS,
  USER_UUIDS,
} from "./default-seed.js";
export {
  type EmulatorFlags,
  type EmulatorOptions,
  EmulatorUsageError,
  isLoopback,
  optionsFromFlags,
} from "./options.js";
export type { FeatureFlag, Rules, ServiceOptions, ServiceSettings } from "./service.js";
export type { Seed, StoreData } from "./types.js";
