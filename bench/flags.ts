/**
 * The feature-flag scenario (issue 24): a no-op plan of 1,000 declared flags costs its list pages only,
 * ceil(1000/100) = 10 requests, plus one read of the project's cohorts when the files name cohorts (SPEC
 * §6). Project 12345 is seeded with 1,000 flags matching the files; the emulator runs in this process
 * with 20 ms added latency and no rate limit, the built CLI as a child process, as in the fleet
 * scenarios (bench/scenarios.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../src/emulator/index.js";
import { clearLog, control, type EmulatorState, getState, requestLog } from "./control.js";
import type { Figures } from "./scenarios.js";
import { runTool } from "./tool.js";

export const FLAGS = 1000;
const PROJECT = 12345;
const PER_FILE = 100;
/** The seed's cohort every tenth flag's condition names. */
const COHORT = { id: 1, name: "Beta testers" };

const key = (i: number) => `flag-${String(i).padStart(4, "0")}`;
const rollout = (i: number) => (i * 7) % 101;
const withCohort = (i: number) => i % 10 === 0;

/** The live flags the files declare, as the service stores them. */
function records(): Array<Record<string, unknown>> {
  return Array.from({ length: FLAGS }, (_, i) => ({
    id: i + 1,
    team_id: PROJECT,
    key: key(i),
    name: `Flag ${i}`,
    active: i % 5 !== 0,
    filters: {
      groups: [
        {
          properties: withCohort(i) ? [{ key: "id", type: "cohort", operator: "in", value: COHORT.id }] : [],
          rollout_percentage: rollout(i),
          aggregation_group_type_index: null,
        },
      ],
      aggregation_group_type_index: null,
    },
    last_called_at: null,
  }));
}

/**
 * 10 files of 100 flags; every tenth flag's condition is the cohort: by id (`value`), or with
 * `byName` by its name, which the plan resolves with one read of the project's cohorts.
 */
function writeFiles(dir: string, byName: boolean): void {
  mkdirSync(dir, { recursive: true });
  for (let file = 0; file < FLAGS / PER_FILE; file++) {
    const items: string[] = [];
    for (let i = file * PER_FILE; i < (file + 1) * PER_FILE; i++) {
      const cohort = byName ? `cohort: ${COHORT.name}` : `value: ${COHORT.id}`;
      const condition = withCohort(i)
        ? `\n          properties: [{type: cohort, ${cohort}, operator: in}]`
        : "";
      items.push(
        `  - key: ${key(i)}\n    name: Flag ${i}\n    active: ${i % 5 !== 0}\n    filters:\n      groups:\n        - rollout_percentage: ${rollout(i)}${condition}`,
      );
    }
    writeFileSync(
      join(dir, `flags-${file}.yaml`),
      `project: ${PROJECT}\nfeature_flags:\n${items.join("\n")}\n`,
    );
  }
}

export async function flagScenarios(options: { repeat: number }): Promise<Figures[]> {
  const emulator = await startEmulator({ port: 0, latencyMs: 20, rateLimit: "none" });
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-flags-"));
  try {
    writeFiles(join(root, "plain"), false);
    writeFiles(join(root, "cohorts"), true);
    const base: EmulatorState = await getState(emulator.url);
    await control(emulator.url, "seed", "POST", {
      ...base,
      dashboards: [],
      batch_exports: [],
      collaborators: [],
      sharing: [],
      feature_flags: records(),
      experiments: [],
      approval_policies: [],
      change_requests: [],
    });
    const env = {
      POSTHOG_HOST: emulator.url,
      POSTHOG_API_KEY: "phx_emulator",
      POSTHOG_RATE_LIMIT: "1000000/minute",
    };
    const pages = Math.ceil(FLAGS / 100);
    const results: Figures[] = [];
    for (const [folder, minimum, scenario] of [
      ["plain", pages, `no-op plan of ${FLAGS} flags`],
      ["cohorts", pages + 1, `no-op plan of ${FLAGS} flags, cohorts by name`],
    ] as const) {
      let best: Figures | undefined;
      for (let i = 0; i < Math.max(1, options.repeat); i++) {
        await clearLog(emulator.url);
        const run = await runTool(["plan", "--detailed-exitcode", folder], env, root);
        const log = await requestLog(emulator.url);
        const figures: Figures = {
          scenario,
          requests: log.length,
          minimum,
          wallMs: run.wallMs,
          cpuMs: run.cpuMs,
          peakRssMb: run.peakRssMb,
          throttled: log.filter((r) => r.status === 429).length,
        };
        if (run.code !== 0) {
          figures.problem = `exit ${run.code}, expected 0: ${run.stderr.trim().split("\n").slice(-3).join(" | ")}`;
        }
        if (!best || figures.problem || figures.wallMs < best.wallMs) best = figures;
        if (figures.problem) break;
      }
      results.push(best as Figures);
    }
    return results;
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}
