/**
 * The one emulator harness of the tool's test suites: the emulator package's harness
 * (packages/emulator/test/support/harness.ts: one real emulator per test file, reset before each test,
 * `api` / `control` and the control surface's shortcuts) with what the tool adds:
 *
 * - a fresh temp folder for each test (`dir`, `write`);
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
import type { EmulatorOptions } from "posthog-gitops-emulator";
import { afterEach, beforeEach, expect } from "vitest";
import {
  type EmulatorHarness as BareHarness,
  useEmulator as useBareEmulator,
} from "../../packages/emulator/test/support/harness.js";
import { main, runCommand } from "../../src/cli.js";
import type { Io } from "../../src/io.js";
import { childEnv } from "./child-env.js";
import { memoryIo } from "./io.js";
import { describeLeaks, filesUnder, findLeaks, type RecordedRun } from "./leak-scan.js";

export type {
  ApiResponse,
  Json,
  LoggedRequest,
  PartialState,
} from "../../packages/emulator/test/support/harness.js";
export {
  KEY,
  P,
  POSTGRES_EXPORT_ID,
  S3_EXPORT_ID,
  USER_UUIDS,
} from "../../packages/emulator/test/support/harness.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** For the commands that act on one project (status, runs, backfill, …): that project, and no colour. */
export const PROJECT_ENV = { POSTHOG_PROJECT_ID: "12345", NO_COLOR: "1" };

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type RunFn<O> = (options: O, io: Io) => Promise<number>;

export interface HarnessOptions extends EmulatorOptions {
  /** Variables every run gets beside the connection ones (e.g. `POSTHOG_PROJECT_ID`, `NO_COLOR`). */
  env?: Record<string, string | undefined>;
}

export interface EmulatorHarness extends BareHarness {
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
  const bare = useBareEmulator(emulatorOptions);
  const { clock, key } = bare;
  let dir = "";
  /** The files the test wrote itself (its input), by path relative to its folder. */
  const written = new Map<string, string>();
  const h: EmulatorHarness = {
    get url() {
      return bare.url;
    },
    clock,
    key,
    api: bare.api,
    control: bare.control,
    state: bare.state,
    requests: bare.requests,
    clearRequests: bare.clearRequests,
    seed: bare.seed,
    reseed: bare.reseed,
    faults: bare.faults,
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
    env: (extra = {}) => ({
      POSTHOG_HOST: bare.url,
      POSTHOG_API_KEY: key,
      ...extraEnv,
      ...extra,
    }),
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
  };
  beforeEach(() => {
    recorded.length = 0;
    written.clear();
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
