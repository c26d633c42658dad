/**
 * The change-scoped plan (SPEC §3 "Change-scoped plans", §6: at most 10 requests for a 3-object change
 * of a 50,000-object project). A project of 48,000 dashboards (2,000 with a collaborator) and 2,000
 * batch exports, declared in 500 files committed to a git repository as `main` and seeded into the
 * emulator (20 ms added to every request, no rate limit); then a change touches three dashboards: one
 * pinned by id (with a declared collaborator), one by name, and one new. The built CLI plans it with
 * `--base main --changed-only`, then without (the full read), as child processes; each must exit 2.
 *
 *   npm run build && npx tsx bench/scoped.ts
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import { clearLog, getState, type LoggedRequest, requestLog, seedOf } from "./control.js";
import { type FleetSize, fleetRecords, minimumReads, writeFleetYaml } from "./fleet.js";
import { type Figures, figuresOf } from "./scenarios.js";
import { runTool } from "./tool.js";

export const PROJECT_SIZE: FleetSize = { dashboards: 48_000, collaborators: 2_000, exports: 2_000 };

const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.com",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.com",
};

export interface ScopedFigures {
  scoped: Figures & { log: string[]; objects: string[] };
  full: Figures & { objects: string[] };
}

/**
 * The emulator, started with the project in its seed (`POST /_emulator/seed` takes at most 1 MB): the
 * default seed's organizations, projects, users, key and integrations, with the project's objects.
 */
async function seeded() {
  const first = await startEmulator({ port: 0 });
  const base = await getState(first.url);
  await first.close();
  const seed = seedOf(base, fleetRecords(PROJECT_SIZE));
  return startEmulator({ port: 0, latencyMs: 20, rateLimit: "none", seed });
}

export async function changeScopedPlan(): Promise<ScopedFigures> {
  const emulator = await seeded();
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-scoped-"));
  try {
    const repo = join(root, "repo");
    writeFleetYaml(join(repo, "posthog"), PROJECT_SIZE);
    // Dashboard 7 (one with a collaborator) is pinned by its id at the base already.
    const first = join(repo, "posthog/dashboards-0.yaml");
    const pinned = "  - name: Fleet dashboard 00007\n";
    writeFileSync(first, readFileSync(first, "utf8").replace(pinned, `${pinned}    id: 1007\n`));
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: repo, env: GIT_ENV, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "the project");
    // The change: the pinned dashboard and one found by name get new descriptions; one is new.
    const edit = (file: string, from: RegExp, to: string) => {
      const path = join(repo, "posthog", file);
      const text = readFileSync(path, "utf8");
      if (!from.test(text)) throw new Error(`bench: ${from} is not in ${file}`);
      writeFileSync(path, text.replace(from, to));
    };
    edit("dashboards-0.yaml", /(id: 1007\n {4}description: ).*/, "$1Revised in this change");
    edit("dashboards-250.yaml", /(name: Fleet dashboard 25042\n {4}description: ).*/, "$1Revised by name");
    edit("dashboards-479.yaml", /$/, "  - name: New in this change\n    description: Added\n");

    const env = {
      POSTHOG_HOST: emulator.url,
      POSTHOG_API_KEY: "phx_emulator",
      POSTHOG_RATE_LIMIT: "1000000/minute",
      XDG_CACHE_HOME: join(root, "cache"),
      ...GIT_ENV,
    };
    const measure = async (scenario: string, minimum: number, args: string[]) => {
      await clearLog(emulator.url);
      const run = await runTool(["plan", "--detailed-exitcode", ...args, "posthog"], env, repo);
      const log: LoggedRequest[] = await requestLog(emulator.url);
      const requests = log.map((r) => `${r.method} ${r.path}${r.query === "" ? "" : `?${r.query}`}`);
      // The objects the plan changes, as its text names them.
      const objects = run.stdout.split("\n").filter((line) => /^ {2}[+~-] /.test(line));
      return { ...figuresOf(scenario, minimum, run, log, 2), log: requests, objects };
    };
    const objects = PROJECT_SIZE.dashboards + PROJECT_SIZE.exports;
    // By id (with its collaborators), by search, by search: 4.
    const scoped = await measure(`change-scoped plan of a 3-object change, ${objects} objects`, 4, [
      "--base",
      "main",
      "--changed-only",
    ]);
    const full = await measure(
      `full plan of the same change, ${objects} objects`,
      minimumReads(PROJECT_SIZE),
      [],
    );
    if (scoped.objects.length !== 3 || scoped.objects.join("\n") !== full.objects.join("\n")) {
      scoped.problem ??= `the plans differ: ${JSON.stringify(scoped.objects)} against ${JSON.stringify(full.objects)}`;
    }
    return { scoped, full };
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}

if (process.argv[1]?.endsWith("scoped.ts")) {
  const { scoped, full } = await changeScopedPlan();
  for (const f of [scoped, full]) {
    process.stdout.write(
      `${f.scenario}: ${f.requests} requests (minimum ${f.minimum}), wall ${(f.wallMs / 1000).toFixed(1)} s, CPU ${(f.cpuMs / 1000).toFixed(1)} s, peak RSS ${Math.round(f.peakRssMb)} MB${f.problem ? `, PROBLEM: ${f.problem}` : ""}\n`,
    );
  }
  process.stdout.write(`the change-scoped plan's requests:\n${scoped.log.map((l) => `  ${l}`).join("\n")}\n`);
  if (scoped.problem || full.problem || scoped.requests > 10) process.exitCode = 1;
}
