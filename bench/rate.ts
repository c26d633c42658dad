/**
 * Paced apply under a scaled-down rate limit (issue 8, item 2): the emulator allows `limit` requests per
 * `windowSeconds` (sliding window, like the service) and the client's budget is set to the same through
 * POSTHOG_RATE_LIMIT; the apply changes `changes` dashboards (one PATCH each, after the list pages).
 * The time the budget itself requires for N requests is floor((N - 1) / limit) windows: the first
 * `limit` go at once, each further group one window later. The target is zero 429s and a wall time
 * within 15% of that. The apply runs with --verbose: the span from the first request's start to the
 * last answer is read from the timed request lines, so the process's start-up (config loading, about
 * half a second) is reported apart from the pacing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import { main } from "../src/cli.js";
import { memoryIo } from "../test/support/io.js";
import { getState, requestLog, seedObjects } from "./control.js";
import { fleetRecords, writeFleetYaml } from "./fleet.js";
import { runTool, type ToolRun } from "./tool.js";

export interface PacedOptions {
  limit: number;
  windowSeconds: number;
  changes: number;
  latencyMs: number;
  /** Run the CLI in this process through `main()` (tests) instead of the built binary in a child. */
  inProcess?: boolean;
}

export interface PacedFigures {
  requests: number;
  throttled: number;
  wallMs: number;
  /** From the first request sent to the last answer received. */
  spanMs: number;
  cpuMs: number | undefined;
  peakRssMb: number | undefined;
  /** What the budget alone requires for `requests` requests. */
  budgetMs: number;
  code: number;
  stderr: string;
}

export function budgetMs(requests: number, limit: number, windowSeconds: number): number {
  return Math.floor(Math.max(0, requests - 1) / limit) * windowSeconds * 1000;
}

export async function pacedApply(options: PacedOptions): Promise<PacedFigures> {
  const spec = `${options.limit}/${options.windowSeconds}s`;
  const emulator = await startEmulator({ port: 0, latencyMs: options.latencyMs, rateLimit: spec });
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-rate-"));
  try {
    const size = { dashboards: options.changes, collaborators: 0, exports: 0 };
    writeFleetYaml(join(root, "posthog"), size, 1);
    await seedObjects(emulator.url, await getState(emulator.url), fleetRecords(size));
    // Seeding and reading the state are control requests: neither is logged nor throttled.
    const env = { POSTHOG_HOST: emulator.url, POSTHOG_API_KEY: "phx_emulator", POSTHOG_RATE_LIMIT: spec };
    const args = ["apply", "--auto-approve", "--verbose", "posthog"];
    let run: Pick<ToolRun, "code" | "wallMs" | "stderr" | "stderrLines"> & {
      cpuMs?: number;
      peakRssMb?: number;
    };
    if (options.inProcess) {
      const io = memoryIo(env, root);
      const stderrLines: ToolRun["stderrLines"] = [];
      const started = performance.now();
      io.io.stderr = {
        write: (text) => {
          for (const line of text.split("\n")) stderrLines.push({ at: performance.now() - started, line });
        },
      };
      const code = await main(["node", "posthog-gitops", ...args], env, io.io);
      run = {
        code,
        wallMs: performance.now() - started,
        stderr: stderrLines.map((l) => l.line).join("\n"),
        stderrLines,
      };
    } else {
      run = await runTool(args, env, root);
    }
    const log = await requestLog(emulator.url);
    // Verbose request lines end with the attempt's duration: `PATCH /api/... 200 23ms`.
    const timed = run.stderrLines.flatMap(({ at, line }) => {
      const match = /^(GET|POST|PATCH|PUT|DELETE) \S+ \d+ (\d+)ms/.exec(line);
      return match ? [{ start: at - Number(match[2]), end: at }] : [];
    });
    const spanMs =
      timed.length === 0
        ? Number.NaN
        : Math.max(...timed.map((t) => t.end)) - Math.min(...timed.map((t) => t.start));
    return {
      requests: log.length,
      throttled: log.filter((r) => r.status === 429).length,
      wallMs: run.wallMs,
      spanMs,
      cpuMs: run.cpuMs,
      peakRssMb: run.peakRssMb,
      budgetMs: budgetMs(log.filter((r) => r.status !== 429).length, options.limit, options.windowSeconds),
      code: run.code,
      stderr: run.stderr,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}
