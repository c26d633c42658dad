/**
 * End-to-end harness: one real emulator per test file (loopback, port 0), reset before each test, and
 * the real CLI run in-process through `main(argv, env, io)` with a recording `Io`, in a fresh temp
 * folder per test where YAML fixtures are written. `spawnCli` runs the built binary instead.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { main } from "../../src/cli.js";
import type { Clock } from "../../src/clock.js";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../src/emulator/index.js";
import { childEnv } from "../support/child-env.js";
import { memoryIo, testClock } from "../support/io.js";

export { POSTGRES_EXPORT_ID, S3_EXPORT_ID, USER_UUIDS } from "../../src/emulator/default-seed.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const KEY = "phx_emulator";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  fault?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: emulator state and API bodies are inspected freely in tests
export type Json = any;

export interface E2E {
  url: string;
  /** The clock the emulator and every in-process CLI run of this file share. */
  clock: Clock;
  /** The temp folder of the current test (the CLI's cwd). */
  dir: string;
  /** Writes a file (relative to `dir`) and returns its path relative to `dir`. */
  write(name: string, text: string): string;
  /** Runs the CLI in-process; `env` adds to the connection variables. */
  cli(args: string[], env?: Record<string, string | undefined>): Promise<RunResult>;
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  api(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: Json }>;
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  state(): Promise<Json>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  seed(data: unknown): Promise<void>;
  faults(body: unknown): Promise<void>;
}

async function call(url: string, method: string, body: unknown, headers: Record<string, string>) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as Json };
}

export function useE2E(options: EmulatorOptions = {}): E2E {
  let emulator: RunningEmulator | undefined;
  const clock = options.clock ?? testClock();
  const h: E2E = {
    url: "",
    clock,
    dir: "",
    write(name, text) {
      const file = join(h.dir, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return name;
    },
    env: (extra = {}) => ({ POSTHOG_HOST: h.url, POSTHOG_API_KEY: KEY, ...extra }),
    async cli(args, env = {}) {
      const mem = memoryIo(h.env(env), h.dir, clock);
      const code = await main(["node", "posthog-gitops", ...args], mem.io.env, mem.io);
      return { code, stdout: mem.stdout, stderr: mem.stderr };
    },
    api: (method, path, body, key = KEY) =>
      call(`${h.url}${path}`, method, body, { Authorization: `Bearer ${key}` }),
    control: (method, path, body) => call(`${h.url}/_emulator/${path}`, method, body, {}),
    state: async () => (await h.control("GET", "state")).body,
    requests: async () => (await h.control("GET", "requests")).body.requests,
    clearRequests: async () => void (await h.control("DELETE", "requests")),
    async seed(data) {
      const res = await h.control("POST", "seed", data);
      if (res.status >= 300) throw new Error(`seed refused: ${res.status} ${JSON.stringify(res.body)}`);
    },
    async faults(body) {
      const res = await h.control("POST", "faults", body);
      if (res.status >= 300) throw new Error(`faults refused: ${res.status} ${JSON.stringify(res.body)}`);
    },
  };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options, clock });
    h.url = emulator.url;
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(async () => {
    const res = await h.control("POST", "reset");
    if (res.status >= 300) throw new Error(`reset failed: ${res.status}`);
    h.dir = mkdtempSync(join(tmpdir(), "posthog-gitops-e2e-"));
  });
  afterEach(() => {
    rmSync(h.dir, { recursive: true, force: true });
  });
  return h;
}

/** Runs the built binary (`npm run build` first) with the connection variables; resolves on exit. */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  timeoutMs = 20_000,
): Promise<RunResult> {
  const bin = join(ROOT, "bin/posthog-gitops.js");
  return runNode([bin, ...args], env, cwd, timeoutMs);
}

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

/** YAML for one project, from a header and already indented body lines. */
export function yamlFile(project: number, body: string): string {
  return `project: ${project}\n${body}`;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * A loopback proxy in front of the emulator that records request bodies (the emulator's log keeps
 * method and path only), for assertions on exactly what was sent.
 */
export async function recordingProxy(target: () => string) {
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
    const text = await answer.text();
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
