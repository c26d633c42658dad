/**
 * Two runs back to back against one key (issue 12 item 7): a CI job runs `plan` then `apply` within
 * a minute, and the service counts both processes' requests. Each run here is a separate process
 * (this file with `--session`) that makes its own ServiceClient and reads everything a plan of the
 * fleet reads: the dashboard and batch export lists (100 a page, the pages after the first in
 * parallel) and the collaborators of every dashboard that has them. The emulator limits the key like
 * the service; the client's budget is set to the same. The figure is the number of 429s the second
 * run draws, without the budget file and with it.
 *
 *   npm run bench:back-to-back                     # the service's limits: 480/minute, 312 requests a run
 *   BENCH_BACK_TO_BACK=small npm run bench:back-to-back   # 60 per 10 s, 39 requests a run (~25 s)
 *
 * Both sizes keep the same proportions: one run is 65% of the per-window limit, two runs 130%.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "posthog-gitops-emulator";
import { batchExportsApi } from "../src/kinds/batch-export/service.js";
import { collaboratorsApi, dashboardsApi } from "../src/kinds/dashboard/service.js";
import { type ClientEvent, ServiceClient } from "../src/service/client.js";
import { parseRateLimit } from "../src/service/env.js";
import { clearLog, getState, requestLog, seedObjects } from "./control.js";
import { type FleetSize, fleetRecords, PROJECT } from "./fleet.js";

const KEY = "phx_emulator";

export interface BackToBackSize {
  name: string;
  /** The emulator's limit and the client's budget, as POSTHOG_RATE_LIMIT spells it. */
  limit: string;
  fleet: FleetSize;
}

export const SIZES: Record<"service" | "small", BackToBackSize> = {
  service: {
    name: "480/minute",
    limit: "480/minute,4800/hour",
    fleet: { dashboards: 1000, collaborators: 300, exports: 200 },
  },
  small: {
    name: "60 per 10 s",
    limit: "60/10s",
    fleet: { dashboards: 200, collaborators: 36, exports: 100 },
  },
};

/** Requests one plan-like read of the fleet takes. */
export function readsPerRun(fleet: FleetSize): number {
  return Math.ceil(fleet.dashboards / 100) + Math.ceil(fleet.exports / 100) + fleet.collaborators;
}

interface SessionResult {
  requests: number;
  throttled: number;
  objects: number;
  wallMs: number;
  waits: Array<{ reason: string; ms: number }>;
  code: number;
}

/** One run, in this process: what a plan of the fleet reads. */
async function session(url: string, limit: string, budgetFile: string | undefined): Promise<SessionResult> {
  const waits: SessionResult["waits"] = [];
  const client = new ServiceClient({
    host: url,
    apiKey: KEY,
    rateWindows: { general: parseRateLimit(limit, "limit") },
    onEvent: (e: ClientEvent) => {
      if (e.type === "wait") waits.push({ reason: e.reason, ms: e.ms });
    },
    ...(budgetFile ? { budgetFile } : {}),
  });
  const started = performance.now();
  try {
    const [dashboards, exports] = await Promise.all([
      dashboardsApi(client).listAll(PROJECT),
      batchExportsApi(client).listAll(PROJECT),
    ]);
    const restricted = dashboards.filter((d) => d.restriction_level === 37);
    const collaborators = await Promise.all(
      restricted.map((d) => collaboratorsApi(client).list(PROJECT, d.id)),
    );
    const objects = dashboards.length + exports.length + collaborators.flat().length;
    const { requests, throttled429 } = client.stats;
    return {
      requests: Object.values(requests).reduce((a, b) => a + b, 0),
      throttled: throttled429,
      objects,
      wallMs: performance.now() - started,
      waits,
      code: 0,
    };
  } finally {
    await client.close();
  }
}

/** Runs one session in a child process, as a second CI step would. */
function child(url: string, limit: string, budgetFile: string | undefined): Promise<SessionResult> {
  const self = fileURLToPath(import.meta.url);
  const args = ["--import", "tsx", self, "--session", url, limit, budgetFile ?? "-"];
  const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    proc.once("error", reject);
    proc.once("close", (code) => {
      try {
        resolve({ ...(JSON.parse(out) as SessionResult), code: code ?? 1 });
      } catch {
        reject(new Error(`session exited ${code} without a result: ${out}`));
      }
    });
  });
}

export interface BackToBackFigures {
  size: BackToBackSize;
  readsPerRun: number;
  withoutFile: { first: SessionResult; second: SessionResult; emulator429s: number };
  withFile: { first: SessionResult; second: SessionResult; emulator429s: number };
}

/** Both modes, each against a fresh emulator (its windows start empty). */
export async function backToBack(size: BackToBackSize): Promise<BackToBackFigures> {
  const mode = async (useFile: boolean) => {
    const emulator = await startEmulator({ port: 0, rateLimit: size.limit, latencyMs: 20 });
    const dir = mkdtempSync(join(tmpdir(), "phgo-bench-b2b-"));
    try {
      await seedObjects(emulator.url, await getState(emulator.url), fleetRecords(size.fleet));
      const file = useFile ? join(dir, "rate-budget.json") : undefined;
      const first = await child(emulator.url, size.limit, file);
      await clearLog(emulator.url);
      const second = await child(emulator.url, size.limit, file);
      const emulator429s = (await requestLog(emulator.url)).filter((r) => r.status === 429).length;
      return { first, second, emulator429s };
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await emulator.close();
    }
  };
  return {
    size,
    readsPerRun: readsPerRun(size.fleet),
    withoutFile: await mode(false),
    withFile: await mode(true),
  };
}

export function describe(f: BackToBackFigures): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const line = (label: string, m: BackToBackFigures["withoutFile"]) => {
    const waited = m.second.waits.map((w) => `${w.reason} ${s(w.ms)}`).join(", ") || "none";
    return (
      `${label}: first run ${m.first.requests} requests, ${m.first.throttled} 429s, ${s(m.first.wallMs)}; ` +
      `second run ${m.second.requests} requests, ${m.emulator429s} 429s (client saw ${m.second.throttled}), ` +
      `${s(m.second.wallMs)}, waits announced: ${waited}`
    );
  };
  return [
    `back to back at ${f.size.name}, ${f.readsPerRun} reads a run (${f.size.fleet.dashboards} dashboards, ` +
      `${f.size.fleet.exports} batch exports, ${f.size.fleet.collaborators} collaborator reads):`,
    line("  without the budget file", f.withoutFile),
    line("  with the budget file   ", f.withFile),
  ];
}

if (process.argv[2] === "--session") {
  const [url, limit, file] = process.argv.slice(3) as [string, string, string];
  const result = await session(url, limit, file === "-" ? undefined : file);
  process.stdout.write(JSON.stringify(result));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const size = process.env.BENCH_BACK_TO_BACK === "small" ? SIZES.small : SIZES.service;
  const figures = await backToBack(size);
  process.stdout.write(`${describe(figures).join("\n")}\n`);
  const problems = [figures.withoutFile, figures.withFile].flatMap((m) => [m.first, m.second]);
  if (figures.withFile.emulator429s > 0 || problems.some((r) => r.code !== 0)) process.exitCode = 1;
}
