/**
 * Shared helpers for the emulator suites: one emulator per test file (port 0), `api()` over loopback
 * with the default key, control calls, and ids from the default seed.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Clock } from "../../src/clock.js";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../src/emulator/index.js";
import { testClock } from "../support/io.js";

export { POSTGRES_EXPORT_ID, S3_EXPORT_ID, USER_UUIDS } from "../../src/emulator/default-seed.js";

export const KEY = "phx_emulator";
export const P = "/api/projects/12345";

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely in tests
  body: any;
}

export interface Harness {
  url: string;
  /** The emulator's clock: requests are answered as of this time. */
  clock: Clock;
  api(
    method: string,
    path: string,
    body?: unknown,
    init?: { key?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  control(method: string, path: string, body?: unknown): Promise<ApiResponse>;
}

async function call(
  url: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** Starts one emulator for the file and resets it before each test. */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  let emulator: RunningEmulator | undefined;
  const clock = options.clock ?? testClock();
  const harness: Harness = {
    url: "",
    clock,
    api: (method, path, body, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      const key = init.key === undefined ? KEY : init.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      return call(`${harness.url}${path}`, method, body, headers);
    },
    control: (method, path, body) => call(`${harness.url}/_emulator/${path}`, method, body, {}),
  };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options, clock });
    harness.url = emulator.url;
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    const res = await harness.control("POST", "reset");
    if (res.status !== 204) throw new Error(`reset failed: ${res.status}`);
  });
  return harness;
}

/** Replaces the store with the current state changed by `mutate` (e.g. to add keys or switch features). */
export async function reseed(
  h: Harness,
  mutate: (state: import("../../src/emulator/index.js").StoreData) => void,
) {
  const state = (await h.control("GET", "state")).body;
  mutate(state);
  const res = await h.control("POST", "seed", state);
  if (res.status !== 204) throw new Error(`seed failed: ${res.status} ${res.text}`);
}
