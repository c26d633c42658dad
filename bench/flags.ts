/**
 * The feature-flag scenario (issue 24): a no-op plan of 1,000 declared flags costs its list pages only,
 * ceil(1000/100) = 10 requests, plus one read of the project's cohorts when the files name cohorts (SPEC
 * §6). Project 12345 is seeded with 1,000 flags matching the files; the emulator runs in this process
 * with 20 ms added latency and no rate limit, the built CLI as a child process, as in the fleet
 * scenarios (bench/scenarios.ts). Then the same files, committed to a git repository as `main`, with one
 * flag's rollout changed: `plan --base main --changed-only` reads that flag by key, 1 request (SPEC §3
 * "Change-scoped plans").
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import { clearLog, control, type EmulatorState, getState, requestLog } from "./control.js";
import type { Figures } from "./scenarios.js";
import { runTool } from "./tool.js";

export const FLAGS = 1000;
const PROJECT = 12345;
const PER_FILE = 100;
/** The seed's cohort every tenth flag's condition names. */
const COHORT = { id: 1, name: "Beta testers" };

const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

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
    // The change-scoped case: the plain files in a git repository, one flag's rollout changed since.
    const repo = join(root, "repo");
    writeFiles(join(repo, "plain"), false);
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, env: GIT_ENV, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "the flags");
    const changed = join(repo, "plain", "flags-4.yaml");
    const before = `  - key: ${key(421)}\n    name: Flag 421\n    active: true\n    filters:\n      groups:\n        - rollout_percentage: ${rollout(421)}`;
    const text = readFileSync(changed, "utf8");
    if (!text.includes(before)) throw new Error(`bench: flag ${key(421)} is not in flags-4.yaml as written`);
    writeFileSync(changed, text.replace(before, before.replace(/\d+$/, String((rollout(421) + 1) % 101))));

    const pages = Math.ceil(FLAGS / 100);
    const results: Figures[] = [];
    for (const [folder, minimum, scenario, args, cwd, exit] of [
      ["plain", pages, `no-op plan of ${FLAGS} flags`, [], root, 0],
      ["cohorts", pages + 1, `no-op plan of ${FLAGS} flags, cohorts by name`, [], root, 0],
      [
        "plain",
        1,
        `change-scoped plan of 1 flag change, ${FLAGS} flags`,
        ["--base", "main", "--changed-only"],
        repo,
        2,
      ],
    ] as const) {
      let best: Figures | undefined;
      for (let i = 0; i < Math.max(1, options.repeat); i++) {
        await clearLog(emulator.url);
        const run = await runTool(
          ["plan", "--detailed-exitcode", ...args, folder],
          { ...env, ...GIT_ENV },
          cwd,
        );
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
        if (run.code !== exit) {
          figures.problem = `exit ${run.code}, expected ${exit}: ${run.stderr.trim().split("\n").slice(-3).join(" | ")}`;
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
