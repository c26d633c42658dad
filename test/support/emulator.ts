/**
 * The one emulator harness of the test suites. `useEmulator(options)` starts one real emulator per test
 * file (loopback, port 0) with the given options (clock, seed, key, latency, error rate, rate limit,
 * service rules), resets it and gives each test a fresh temp folder before each test, and offers:
 *
 * - `api` / `control` over loopback, and shortcuts for the control surface (state, request log, seed,
 *   reseed, faults);
 * - `cli(args)`: the real CLI in-process through `main(argv, env, io)` with a recording `Io` on the
 *   harness's clock, in the test's folder;
 * - `run(command, options)`: one command's `run` through `runCommand` with a recording `Io`;
 * - `spawnCli` / `runNode` (plain functions): the built binary in a child process (`npm run build` first).
 *
 * `recordingProxy` puts a loopback proxy in front of it that records request bodies.
 *
 * After each test, the leak scan (leak-scan.ts) searches the output of every CLI run of the test
 * (`cli`, `run`, `spawnCli`, and runs a test hands to `recordRun`) and every file left in its folder
 * for the API key and the secret values the test used: a hit fails the test.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { main, runCommand } from "../../src/cli.js";
import type { Clock } from "../../src/clock.js";
import {
  type EmulatorOptions,
  type RunningEmulator,
  type StoreData,
  startEmulator,
} from "../../src/emulator/index.js";
import type { Io } from "../../src/io.js";
import { childEnv } from "./child-env.js";
import { memoryIo, testClock } from "./io.js";
import { describeLeaks, filesUnder, findLeaks, type RecordedRun } from "./leak-scan.js";

export { POSTGRES_EXPORT_ID, S3_EXPORT_ID, USER_UUIDS } from "../../src/emulator/default-seed.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/**
 * The key every harness emulator accepts with every scope (it takes the place of the seed's
 * `phx_emulator`): made of no ordinary word, so that the leak scan can look for any piece of it.
 */
export const KEY = "phx_harness_Tq4mXv81LzW";
/** The API prefix of the default seed's first project. */
export const P = "/api/projects/12345";
/** For the commands that act on one project (status, runs, backfill, …): that project, and no colour. */
export const PROJECT_ENV = { POSTHOG_PROJECT_ID: "12345", NO_COLOR: "1" };

// biome-ignore lint/suspicious/noExplicitAny: emulator state and API bodies are inspected freely in tests
export type Json = any;

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

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

export type RunFn<O> = (options: O, io: Io) => Promise<number>;

export interface HarnessOptions extends EmulatorOptions {
  /** Variables every run gets beside the connection ones (e.g. `POSTHOG_PROJECT_ID`, `NO_COLOR`). */
  env?: Record<string, string | undefined>;
}

export interface EmulatorHarness {
  readonly url: string;
  /** The clock the emulator and every in-process run of this file share. */
  readonly clock: Clock;
  /** The key the emulator accepts (`options.apiKey`, default KEY). */
  readonly key: string;
  /** The temp folder of the current test (the cwd of `cli`). */
  readonly dir: string;
  /** Writes a file (relative to `dir`) and returns its path relative to `dir`. */
  write(name: string, text: string): string;
  /** The connection variables (host, key), the harness's `env` option, then `extra`. */
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** Runs the CLI in-process in `dir` (or `options.cwd` inside it); `env` adds to `env()`. */
  cli(
    args: string[],
    env?: Record<string, string | undefined>,
    options?: { cwd?: string },
  ): Promise<RunResult>;
  /**
   * Runs one command's `run` with a recording `Io` (cwd a folder that does not exist unless given) and
   * checks that the key appears in neither stream.
   */
  run<O>(
    command: RunFn<O>,
    options: O,
    extra?: { env?: Record<string, string | undefined>; io?: Partial<Io>; cwd?: string },
  ): Promise<RunResult>;
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

/** The CLI runs of the current test (in-process and spawned), for the leak scan after it. */
const recorded: RecordedRun[] = [];

/** Hands a run to the leak scan: `cli`, `run` and `spawnCli` do; a test that calls `main` itself does too. */
export function recordRun(args: readonly string[], env: RecordedRun["env"], result: RunResult): RunResult {
  recorded.push({ label: args.join(" "), env, stdout: result.stdout, stderr: result.stderr });
  return result;
}

/** Starts one emulator for the test file; resets it and makes a fresh temp folder before each test. */
export function useEmulator(options: HarnessOptions = {}): EmulatorHarness {
  const { env: extraEnv = {}, ...emulatorOptions } = options;
  let emulator: RunningEmulator | undefined;
  let url = "";
  let dir = "";
  const clock = options.clock ?? testClock();
  const key = options.apiKey ?? KEY;
  /** The files the test wrote itself (its input), by path relative to its folder. */
  const written = new Map<string, string>();
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
    get dir() {
      return dir;
    },
    write(name, text) {
      const file = join(dir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      written.set(relative(dir, file), text);
      return name;
    },
    env: (extra = {}) => ({ POSTHOG_HOST: url, POSTHOG_API_KEY: key, ...extraEnv, ...extra }),
    async cli(args, env = {}, options = {}) {
      const mem = memoryIo(h.env(env), options.cwd === undefined ? dir : join(dir, options.cwd), clock);
      const code = await main(["node", "posthog-gitops", ...args], mem.io.env, mem.io);
      return recordRun(args, mem.io.env, { code, stdout: mem.stdout, stderr: mem.stderr });
    },
    async run(command, commandOptions, extra = {}) {
      const mem = memoryIo(h.env(extra.env), extra.cwd ?? "/nonexistent-ops-test-dir", clock);
      Object.assign(mem.io, extra.io ?? {});
      const code = await runCommand(command, commandOptions, mem.io);
      const result = recordRun([command.name], mem.io.env, { code, stdout: mem.stdout, stderr: mem.stderr });
      expect(`${result.stdout}${result.stderr}`).not.toContain(key);
      return result;
    },
    api: (method, path, body, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      const sent = init.key === undefined ? key : init.key;
      if (sent !== null) headers.Authorization = `Bearer ${sent}`;
      return call(`${url}${path}`, method, body, headers);
    },
    control: (method, path, body) => call(`${url}/_emulator/${path}`, method, body, {}),
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
    emulator = await startEmulator({ port: 0, ...emulatorOptions, apiKey: key, clock });
    url = emulator.url;
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    recorded.length = 0;
    written.clear();
    await ok("reset", h.control("POST", "reset"));
    dir = mkdtempSync(join(tmpdir(), "posthog-gitops-test-"));
  });
  afterEach(() => {
    const leaks = findLeaks(recorded.splice(0), filesUnder(dir), written);
    rmSync(dir, { recursive: true, force: true });
    if (leaks.length > 0) throw new Error(describeLeaks(leaks));
  });
  return h;
}

/** Runs the built binary (`npm run build` first) with the given variables; resolves on exit. */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  timeoutMs = 20_000,
): Promise<RunResult> {
  const bin = join(ROOT, "bin/posthog-gitops.js");
  return runNode([bin, ...args], env, cwd, timeoutMs).then((result) => recordRun(args, env, result));
}

/** Runs `node ARGS` with `NO_COLOR=1`, what carries the test clock, and `env`; resolves on exit. */
export function runNode(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  timeoutMs: number,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: childEnv({ NO_COLOR: "1", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`node ${args.join(" ")} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * A loopback proxy in front of the emulator that records request bodies (the emulator's log keeps
 * method and path only), for assertions on exactly what was sent; `rewrite` changes the text of its
 * answers (to play a service that sends what the emulator would not).
 */
export async function recordingProxy(target: () => string, rewrite: (text: string) => string = (t) => t) {
  const recorded: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    recorded.push({ method: req.method ?? "", path: req.url ?? "", body });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v;
    }
    const init: RequestInit = { method: req.method ?? "GET", headers };
    if (body !== "") init.body = body;
    const answer = await fetch(`${target()}${req.url}`, init);
    const text = rewrite(await answer.text());
    res.writeHead(answer.status, {
      "content-type": answer.headers.get("content-type") ?? "application/json",
    });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    recorded,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
