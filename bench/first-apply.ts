/**
 * `npx tsx bench/first-apply.ts [--paced]` (after `npm run build`): the whole fleet (bench/fleet.ts:
 * 1,000 dashboards, 200 with a collaborator, 200 exports) applied to an empty project by the built CLI,
 * at concurrency 4, the emulator adding 20 ms to every request. It prints the requests by purpose, so
 * the look-ups before creates (SPEC §3 "Concurrency") can be told from the writes and the reads.
 *
 * Without `--paced` both rate limits are lifted (requests and concurrency only, like `npm run bench`);
 * with it, the emulator keeps the service's limits (480 a minute, 4,800 an hour, per key) and the CLI
 * its default budget, so the wall time is what the service's limit makes of the request count.
 * The floor without look-ups is 1,405: 2 list pages, the project's integrations, the organization's
 * features (project, organization), 1,000 + 200 creates and 200 collaborator adds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import { clearLog, getState, type LoggedRequest, requestLog, seedObjects } from "./control.js";
import { FLEET, writeFleetYaml } from "./fleet.js";
import { runTool } from "./tool.js";

const paced = process.argv.includes("--paced");
const emulator = await startEmulator({ port: 0, latencyMs: 20, ...(paced ? {} : { rateLimit: "none" }) });
const root = mkdtempSync(join(tmpdir(), "phgo-bench-first-"));

function purpose(r: LoggedRequest): string {
  if (r.method !== "GET")
    return `${r.method} ${/collaborators/.test(r.path) ? "collaborator" : /batch_exports/.test(r.path) ? "export" : "dashboard"}`;
  if (r.query.includes("search=")) return "GET dashboard name search";
  if (/\/dashboards\/?$/.test(r.path)) return "GET dashboard list page";
  if (/\/batch_exports\/?$/.test(r.path)) return "GET export list page";
  return `GET ${r.path.replace(/\/\d+\//g, "/{id}/").replace(/\/api\/(projects|organizations)\/[^/]+/, "/api/$1/{id}")}`;
}

try {
  writeFleetYaml(join(root, "fleet"), FLEET);
  const base = await getState(emulator.url);
  await seedObjects(emulator.url, base, {
    dashboards: [],
    batch_exports: [],
    collaborators: [],
    sharing: [],
  });
  await clearLog(emulator.url);
  const env: Record<string, string> = { POSTHOG_HOST: emulator.url, POSTHOG_API_KEY: "phx_emulator" };
  if (!paced) env.POSTHOG_RATE_LIMIT = "1000000/minute";
  // The budget file would carry spent budget between runs; each run here starts from a fresh one.
  env.XDG_CACHE_HOME = join(root, "cache");
  const run = await runTool(["apply", "--auto-approve", "--concurrency", "4", "fleet"], env, root);
  const log = await requestLog(emulator.url);
  const counts = new Map<string, number>();
  for (const r of log) counts.set(purpose(r), (counts.get(purpose(r)) ?? 0) + 1);
  const check = await runTool(
    ["plan", "--detailed-exitcode", "fleet"],
    { ...env, POSTHOG_RATE_LIMIT: "1000000/minute" },
    root,
  );
  process.stdout.write(
    `first apply of the fleet${paced ? " under the service's limits (480/minute)" : ""}: ${log.length} requests, ` +
      `wall ${(run.wallMs / 1000).toFixed(1)} s, exit ${run.code}, 429s ${log.filter((r) => r.status === 429).length}, ` +
      `plan afterwards exit ${check.code}\n`,
  );
  for (const [what, n] of [...counts].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`  ${String(n).padStart(5)}  ${what}\n`);
  if (run.code !== 0 || check.code !== 0) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
  await emulator.close();
}
