/**
 * The cohorts-and-actions scenario (issue 33): a no-op plan of 300 cohorts and 300 actions costs the
 * cohorts' list pages and one actions list, ceil(300/100) + 1 = 4 requests (the service answers every
 * action to one request). Project 12345 is seeded with records matching the files, as the service
 * stores them (conditions with their bytecode, steps with their ten keys); the files name the actions
 * and the cohorts they contain by name (half the cohorts use an action, a third contain the cohort
 * before them). The emulator runs in this process with 20 ms added latency and no rate limit, the
 * built CLI as a child process, as in the fleet scenarios (bench/scenarios.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import { clearLog, getState, requestLog, seedObjects } from "./control.js";
import type { Figures } from "./scenarios.js";
import { runTool } from "./tool.js";

export const COHORTS = 300;
export const ACTIONS = 300;
const PROJECT = 12345;
const PER_FILE = 100;
const STAMP = "2026-01-01T00:00:00.000Z";
const pad = (i: number) => String(i).padStart(3, "0");
const actionId = (i: number) => 1000 + i;
const cohortId = (i: number) => 2000 + i;

const step = (i: number) => ({
  event: `event ${pad(i)}`,
  properties: null,
  selector: null,
  tag_name: null,
  text: null,
  text_matching: null,
  href: null,
  href_matching: null,
  url: i % 2 === 0 ? `/page-${i}` : null,
  url_matching: "contains",
});

/** The stored form of a condition: what it says, `negation: false`, and its compiled bytecode. */
const stored = (leaf: Record<string, unknown>) => ({
  ...leaf,
  negation: false,
  bytecode: ["_H", 1, 32, "email", 1, 2, 11],
  conditionHash: "0123456789abcdef",
});

function records() {
  const actions = Array.from({ length: ACTIONS }, (_, i) => ({
    id: actionId(i),
    team_id: PROJECT,
    name: `Action ${pad(i)}`,
    description: `does ${i}`,
    steps: [step(i)],
    created_at: STAMP,
    created_by: 1,
  }));
  const cohorts = Array.from({ length: COHORTS }, (_, i) => {
    const values: unknown[] = [
      stored({ type: "person", key: "email", operator: "icontains", value: `@x${i}.com` }),
    ];
    if (i % 2 === 0) {
      values.push(
        stored({
          type: "behavioral",
          key: actionId(i),
          value: "performed_event",
          event_type: "actions",
          time_value: 30,
          time_interval: "day",
        }),
      );
    }
    if (i % 3 === 0 && i > 0) values.push(stored({ type: "cohort", key: "id", value: cohortId(i - 1) }));
    return {
      id: cohortId(i),
      team_id: PROJECT,
      name: `Cohort ${pad(i)}`,
      description: "",
      filters: { properties: { type: "AND", values } },
      cohort_type: "realtime",
      created_at: STAMP,
      created_by: 1,
    };
  });
  return { actions, cohorts };
}

function writeFiles(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const actions = Array.from(
    { length: ACTIONS },
    (_, i) =>
      `  - name: Action ${pad(i)}\n    description: does ${i}\n    steps: [{event: event ${pad(i)}${i % 2 === 0 ? `, url: /page-${i}` : ""}}]`,
  );
  writeFileSync(join(dir, "actions.yaml"), `project: ${PROJECT}\nactions:\n${actions.join("\n")}\n`);
  for (let file = 0; file < COHORTS / PER_FILE; file++) {
    const items: string[] = [];
    for (let i = file * PER_FILE; i < (file + 1) * PER_FILE; i++) {
      const values = [`{type: person, key: email, operator: icontains, value: "@x${i}.com"}`];
      if (i % 2 === 0) {
        values.push(
          `{type: behavioral, value: performed_event, event_type: actions, action: Action ${pad(i)}, time_value: 30, time_interval: day}`,
        );
      }
      if (i % 3 === 0 && i > 0) values.push(`{type: cohort, cohort: Cohort ${pad(i - 1)}}`);
      items.push(
        `  - name: Cohort ${pad(i)}\n    filters:\n      properties:\n        type: AND\n        values:\n${values.map((v) => `          - ${v}`).join("\n")}`,
      );
    }
    writeFileSync(join(dir, `cohorts-${file}.yaml`), `project: ${PROJECT}\ncohorts:\n${items.join("\n")}\n`);
  }
}

export async function cohortScenarios(options: { repeat: number }): Promise<Figures[]> {
  const emulator = await startEmulator({ port: 0, latencyMs: 20, rateLimit: "none" });
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-cohorts-"));
  try {
    writeFiles(join(root, "files"));
    const empty = { dashboards: [], batch_exports: [], collaborators: [], sharing: [] };
    await seedObjects(emulator.url, await getState(emulator.url), { ...empty, ...records() });
    const env = {
      POSTHOG_HOST: emulator.url,
      POSTHOG_API_KEY: "phx_emulator",
      POSTHOG_RATE_LIMIT: "1000000/minute",
    };
    const minimum = Math.ceil(COHORTS / 100) + 1;
    let best: Figures | undefined;
    for (let i = 0; i < Math.max(1, options.repeat); i++) {
      await clearLog(emulator.url);
      const run = await runTool(["plan", "--detailed-exitcode", "files"], env, root);
      const log = await requestLog(emulator.url);
      const figures: Figures = {
        scenario: `no-op plan of ${COHORTS} cohorts and ${ACTIONS} actions`,
        requests: log.length,
        minimum,
        wallMs: run.wallMs,
        cpuMs: run.cpuMs,
        peakRssMb: run.peakRssMb,
        throttled: log.filter((r) => r.status === 429).length,
      };
      if (run.code !== 0) {
        figures.problem = `exit ${run.code}, expected 0: ${`${run.stdout}\n${run.stderr}`.trim().split("\n").slice(-4).join(" | ")}`;
      }
      if (!best || figures.problem || figures.wallMs < best.wallMs) best = figures;
      if (figures.problem) break;
    }
    return [best as Figures];
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of await cohortScenarios({ repeat: Number(process.env.BENCH_REPEAT ?? "1") })) {
    process.stdout.write(`${JSON.stringify(f)}\n`);
  }
}
