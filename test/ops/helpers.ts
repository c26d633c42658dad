/**
 * Shared harness for the operations suites: one emulator per test file (port 0, reset before each
 * test), commands run through their `run` with `memoryIo`, the request log, seeding, and JSON schema
 * validators for the commands' `--format json` documents.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { runCommand } from "../../src/cli.js";
import type { Clock } from "../../src/clock.js";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.js";
import type { Io } from "../../src/io.js";
import { memoryIo, testClock } from "../support/io.js";

export { POSTGRES_EXPORT_ID, S3_EXPORT_ID } from "../../src/emulator/default-seed.js";

export const KEY = "phx_emulator";

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export type RunFn<O> = (options: O, io: Io) => Promise<number>;

export interface OpsHarness {
  readonly url: string;
  /** The clock the emulator and every command of this file share. */
  readonly clock: Clock;
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  run<O>(
    command: RunFn<O>,
    options: O,
    extra?: { env?: Record<string, string | undefined>; io?: Partial<Io>; cwd?: string },
  ): Promise<Result>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Replaces the store with the current state changed by `mutate`. */
  reseed(mutate: (state: Record<string, unknown[]>) => void): Promise<void>;
}

export function useOpsEmulator(options: { clock?: Clock } = {}): OpsHarness {
  let emulator: RunningEmulator | undefined;
  const clock = options.clock ?? testClock();
  const url = () => emulator?.url ?? "";
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url()}/_emulator/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const harness: OpsHarness = {
    get url() {
      return url();
    },
    clock,
    env: (extra = {}) => ({
      POSTHOG_HOST: url(),
      POSTHOG_API_KEY: KEY,
      POSTHOG_PROJECT_ID: "12345",
      NO_COLOR: "1",
      ...extra,
    }),
    async run(command, options, extra = {}) {
      const mem = memoryIo(harness.env(extra.env), extra.cwd ?? "/nonexistent-ops-test-dir", clock);
      Object.assign(mem.io, extra.io ?? {});
      const code = await runCommand(command, options, mem.io);
      const result = { code, stdout: mem.stdout, stderr: mem.stderr };
      expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
      return result;
    },
    async requests() {
      const log = (await control("GET", "requests")) as { requests: LoggedRequest[] };
      return log.requests;
    },
    async clearRequests() {
      await control("DELETE", "requests");
    },
    control,
    async reseed(mutate) {
      const state = (await control("GET", "state")) as Record<string, unknown[]>;
      mutate(state);
      await control("POST", "seed", state);
    },
  };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, clock });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    await control("POST", "reset");
  });
  return harness;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

/** Asserts `text` parses to a document valid against `schemas/<name>.schema.json`; returns it. */
// biome-ignore lint/suspicious/noExplicitAny: documents are inspected freely in tests
export function validJson(name: string, text: string): any {
  const schema = JSON.parse(
    readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), "utf8"),
  );
  const validate = ajv.getSchema(schema.title) ?? ajv.addSchema(schema, schema.title).getSchema(schema.title);
  const doc = JSON.parse(text);
  const ok = validate?.(doc);
  expect(validate?.errors ?? [], `${name} schema errors`).toEqual([]);
  expect(ok).toBe(true);
  return doc;
}
