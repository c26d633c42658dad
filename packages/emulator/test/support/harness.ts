/**
 * The emulator's test harness: `useEmulator(options)` starts one real emulator per test file (loopback,
 * port 0) with the given options (clock, seed, key, latency, error rate, rate limit, service rules),
 * resets it before each test, and offers `api` / `control` over loopback with shortcuts for the control
 * surface (state, request log, seed, reseed, faults). The tool's harness (test/support/emulator.ts at the
 * repository's root) builds on this one with the CLI and the leak scan.
 */

import type { Clock } from "posthog-gitops-shared/clock";
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  type EmulatorOptions,
  type RunningEmulator,
  type StoreData,
  startEmulator,
} from "../../src/index.js";
import { testClock } from "./clock.js";

export { POSTGRES_EXPORT_ID, S3_EXPORT_ID, USER_UUIDS } from "../../src/default-seed.js";

/**
 * The key every harness emulator accepts with every scope (it takes the place of the seed's
 * `phx_emulator`): made of no ordinary word, so that the tool's leak scan can look for any piece of it.
 */
export const KEY = "phx_harness_Tq4mXv81LzW";
/** The API prefix of the default seed's first project. */
export const P = "/api/projects/12345";

// biome-ignore lint/suspicious/noExplicitAny: emulator state and API bodies are inspected freely in tests
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: Json;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  fault?: string;
}

/** The state seen loosely, for `reseed` calls that add partial records: each list by name. */
export type PartialState = Record<string, unknown[]>;

export interface EmulatorHarness {
  readonly url: string;
  /** The clock the emulator (and, in the tool's harness, every in-process run of this file) uses. */
  readonly clock: Clock;
  /** The key the emulator accepts (`options.apiKey`, default KEY). */
  readonly key: string;
  /** A request to the API; `key: null` sends no Authorization header. */
  api(
    method: string,
    path: string,
    body?: unknown,
    init?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  /** A request to the control surface, `/_emulator/<path>`. */
  control(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  state(): Promise<Json>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  /** Replaces the store with `data`. */
  seed(data: unknown): Promise<void>;
  /**
   * Replaces the store with the current state changed by `mutate` (e.g. to add keys or switch
   * features). Records added may be partial, as in any seed: name a looser `S` to add such records.
   */
  reseed<S = StoreData>(mutate: (state: S) => void): Promise<void>;
  /** Sets the fault rules (`POST /_emulator/faults`). */
  faults(body: unknown): Promise<void>;
}

/** A kept-alive connection the server had closed: the request never reached it. */
function connectionReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return error instanceof TypeError && ["ECONNRESET", "UND_ERR_SOCKET"].includes(cause?.code ?? "");
}

/**
 * One request. A control request (`control: true`: reset, seed, faults, the log, the state, all of
 * which set or read state and can be sent again) is sent once more, on a new connection, when the
 * kept-alive one turns out to be closed; on a loaded machine the idle socket of a long test is
 * sometimes reset just as the next test's set-up reuses it. API requests are never sent twice.
 */
async function call(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
  control = false,
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, init).catch((error: unknown) => {
    if (!control || !connectionReset(error)) throw error;
    return fetch(url, init); // the closed socket is gone: this one opens a new connection
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** The emulator's options: the harness adds nothing of its own. */
export type HarnessOptions = EmulatorOptions;

/** Starts one emulator for the test file and resets it before each test. */
export function useEmulator(options: HarnessOptions = {}): EmulatorHarness {
  let emulator: RunningEmulator | undefined;
  let url = "";
  const clock = options.clock ?? testClock();
  const key = options.apiKey ?? KEY;
  const ok = async (what: string, res: Promise<ApiResponse>) => {
    const answer = await res;
    if (answer.status >= 300) throw new Error(`${what} refused: ${answer.status} ${answer.text}`);
  };
  const h: EmulatorHarness = {
    get url() {
      return url;
    },
    clock,
    key,
    api: (method, path, body, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      const sent = init.key === undefined ? key : init.key;
      if (sent !== null) headers.Authorization = `Bearer ${sent}`;
      return call(`${url}${path}`, method, body, headers);
    },
    control: (method, path, body) => call(`${url}/_emulator/${path}`, method, body, {}, true),
    state: async () => (await h.control("GET", "state")).body,
    requests: async () => (await h.control("GET", "requests")).body.requests,
    clearRequests: () => ok("clearing the request log", h.control("DELETE", "requests")),
    seed: (data) => ok("seed", h.control("POST", "seed", data)),
    async reseed<S>(mutate: (state: S) => void) {
      const state = (await h.state()) as S;
      mutate(state);
      await h.seed(state);
    },
    faults: (body) => ok("faults", h.control("POST", "faults", body)),
  };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options, apiKey: key, clock });
    url = emulator.url;
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    await ok("reset", h.control("POST", "reset"));
  });
  return h;
}
