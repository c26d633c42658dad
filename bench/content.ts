/**
 * Dashboards with their content (issue 25, item 5): `dashboards` dashboards with `tilesPer` insight
 * tiles each, and their insights (one per tile), declared in YAML and seeded identically in the
 * emulator. The emulator runs with the service's own limits (480/minute for most endpoints; the insight
 * endpoints' ClickHouse throttles, 240/minute and 1,200/hour) and the CLI with its default budgets.
 *
 * - a no-op plan needs the list pages of both kinds (pages of 100; insights with `?basic=true`) and
 *   one read of each dashboard that declares `tiles:` (SPEC §6), nothing per insight;
 * - a 10% change moves one tile on every tenth dashboard (a read and a PATCH of that dashboard at
 *   apply) and changes the query of every tenth insight (one PATCH each).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import { main } from "../src/cli.js";
import { memoryIo } from "../test/support/io.js";
import { clearLog, getState, requestLog, seedObjects } from "./control.js";
import { PROJECT } from "./fleet.js";
import type { Figures } from "./scenarios.js";
import { runTool } from "./tool.js";

export interface ContentSize {
  dashboards: number;
  tilesPer: number;
}

export const CONTENT: ContentSize = { dashboards: 200, tilesPer: 5 };
const PER_FILE = 100;

const dashboardName = (d: number) => `Content dashboard ${String(d).padStart(4, "0")}`;
const insightName = (i: number) => `Content insight ${String(i).padStart(5, "0")}`;
const changed = (n: number, changeEvery: number) => changeEvery > 0 && n % changeEvery === 0;
const interval = (i: number, changeEvery: number) => (changed(i, changeEvery) ? "day" : "week");
/** Tile k of a dashboard: two per row, 6 columns wide; a moved tile is taller. */
const layout = (d: number, k: number, changeEvery: number) => ({
  x: (k % 2) * 6,
  y: Math.floor(k / 2) * 5,
  w: 6,
  h: k === 0 && changed(d, changeEvery) ? 8 : 5,
});

function query(i: number, changeEvery: number) {
  return {
    kind: "InsightVizNode",
    source: {
      kind: "TrendsQuery",
      series: [{ kind: "EventsNode", event: `event ${i % 50}`, math: "total" }],
      interval: interval(i, changeEvery),
    },
  };
}

/** Writes the insights and dashboards (100 objects per file) under `dir`. */
export function writeContentYaml(dir: string, size: ContentSize, changeEvery = 0): void {
  mkdirSync(dir, { recursive: true });
  const insights = size.dashboards * size.tilesPer;
  for (let start = 0; start < insights; start += PER_FILE) {
    const lines = [`project: ${PROJECT}`, "insights:"];
    for (let i = start; i < Math.min(insights, start + PER_FILE); i++) {
      const q = query(i, changeEvery);
      lines.push(
        `  - name: ${insightName(i)}`,
        "    query:",
        `      kind: ${q.kind}`,
        "      source:",
        `        kind: ${q.source.kind}`,
        `        series: [{kind: EventsNode, event: "event ${i % 50}", math: total}]`,
        `        interval: ${q.source.interval}`,
      );
    }
    writeFileSync(join(dir, `insights-${start / PER_FILE}.yaml`), `${lines.join("\n")}\n`);
  }
  for (let start = 0; start < size.dashboards; start += PER_FILE) {
    const lines = [`project: ${PROJECT}`, "dashboards:"];
    for (let d = start; d < Math.min(size.dashboards, start + PER_FILE); d++) {
      lines.push(`  - name: ${dashboardName(d)}`, "    tiles:");
      for (let k = 0; k < size.tilesPer; k++) {
        const l = layout(d, k, changeEvery);
        lines.push(
          `      - insight: ${insightName(d * size.tilesPer + k)}`,
          `        layout: {x: ${l.x}, y: ${l.y}, w: ${l.w}, h: ${l.h}}`,
        );
      }
    }
    writeFileSync(join(dir, `dashboards-${start / PER_FILE}.yaml`), `${lines.join("\n")}\n`);
  }
}

/** Seed records matching `writeContentYaml(dir, size)` (no change). */
export function contentRecords(size: ContentSize) {
  const insights = Array.from({ length: size.dashboards * size.tilesPer }, (_, i) => ({
    id: 5000 + i,
    team_id: PROJECT,
    name: insightName(i),
    query: query(i, 0),
    created_by: 1,
  }));
  const dashboards = Array.from({ length: size.dashboards }, (_, d) => ({
    id: 3000 + d,
    team_id: PROJECT,
    name: dashboardName(d),
    created_by: 1,
    tiles: Array.from({ length: size.tilesPer }, (_, k) => ({
      id: 20_000 + d * size.tilesPer + k,
      insight_id: 5000 + d * size.tilesPer + k,
      layouts: { sm: layout(d, k, 0) },
    })),
  }));
  return { insights, dashboards };
}

/** A no-op plan's fewest requests: both kinds' list pages and one read per dashboard declaring tiles. */
export function contentMinimumReads(size: ContentSize): number {
  const insights = size.dashboards * size.tilesPer;
  return (
    Math.max(1, Math.ceil(size.dashboards / 100)) + Math.max(1, Math.ceil(insights / 100)) + size.dashboards
  );
}

export interface ContentOptions {
  size: ContentSize;
  latencyMs: number;
  /** Run the CLI in this process through `main()` (tests) instead of the built binary in a child. */
  inProcess?: boolean;
}

export async function contentScenarios(options: ContentOptions): Promise<Figures[]> {
  const { size } = options;
  // The service's limits (no rateLimit option): the insight endpoints' own throttles included.
  const emulator = await startEmulator({ port: 0, latencyMs: options.latencyMs });
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-content-"));
  try {
    writeContentYaml(join(root, "same"), size);
    writeContentYaml(join(root, "changed"), size, 10);
    const base = await getState(emulator.url);
    const seed = () =>
      seedObjects(emulator.url, base, {
        ...contentRecords(size),
        batch_exports: [],
        collaborators: [],
        sharing: [],
      });
    const env = { POSTHOG_HOST: emulator.url, POSTHOG_API_KEY: "phx_emulator" };
    const run = async (args: string[]) => {
      if (!options.inProcess) return runTool(args, env, root);
      const io = memoryIo(env, root);
      const started = performance.now();
      const code = await main(["node", "posthog-gitops", ...args], env, io.io);
      return {
        code,
        wallMs: performance.now() - started,
        cpuMs: Number.NaN,
        peakRssMb: Number.NaN,
        stderr: io.stderr,
      };
    };
    const measure = async (scenario: string, minimum: number, args: string[]): Promise<Figures> => {
      await clearLog(emulator.url);
      const result = await run(args);
      const log = await requestLog(emulator.url);
      const figures: Figures = {
        scenario,
        requests: log.length,
        minimum,
        wallMs: result.wallMs,
        cpuMs: result.cpuMs,
        peakRssMb: result.peakRssMb,
        throttled: log.filter((r) => r.status === 429).length,
      };
      if (result.code !== 0) {
        figures.problem = `exit ${result.code}: ${result.stderr.trim().split("\n").slice(-3).join(" | ")}`;
      }
      return figures;
    };
    const reads = contentMinimumReads(size);
    const label = `${size.dashboards} dashboards × ${size.tilesPer} tiles, ${size.dashboards * size.tilesPer} insights`;
    await seed();
    const noop = await measure(`no-op plan, ${label}`, reads, ["plan", "--detailed-exitcode", "same"]);
    // Every tenth dashboard: one tile moved (its read again, then a PATCH); every tenth insight: its query.
    const moved = Math.ceil(size.dashboards / 10);
    const queries = Math.ceil((size.dashboards * size.tilesPer) / 10);
    const change = await measure(`apply 10% change, ${label}`, reads + 2 * moved + queries, [
      "apply",
      "--auto-approve",
      "changed",
    ]);
    const after = await run(["plan", "--detailed-exitcode", "changed"]);
    if (after.code !== 0) change.problem ??= `the plan after apply still shows changes (exit ${after.code})`;
    return [noop, change];
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}
