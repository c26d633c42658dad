/**
 * `npm run bench`: every benchmark of issues 8 and 26 in one run, printed as one table (Markdown, ready for
 * BENCHMARKS.md) with the machine it ran on. BENCH_REPEAT=n runs each fleet scenario n times and keeps
 * the fastest (default 1); BENCH_SKIP_SERIAL_FULL=1 leaves out the slowest scenario (the whole fleet
 * from empty at concurrency 1, about half a minute). The back-to-back runs use the scaled-down size
 * (bench/back-to-back.ts; `npm run bench:back-to-back` runs the service-size one).
 *
 * Columns: requests the emulator received (its request log; 429s included), the fewest requests the
 * scenario can need, wall time, CPU time (user + system, all threads) and peak RSS of the measured
 * process, and 429 answers. Fleet and rate scenarios measure the built CLI as a child process, start-up
 * included; the offline plan measures loadConfig + buildPlan in a fresh process (see bench/offline.ts).
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { backToBack, SIZES } from "./back-to-back.js";
import { cohortScenarios } from "./cohorts.js";
import { CONTENT, contentScenarios } from "./content.js";
import { environmentsPlan } from "./environments.js";
import { flagScenarios } from "./flags.js";
import { offlinePlan } from "./offline.js";
import { pacedApply } from "./rate.js";
import { type Figures, fleetScenarios } from "./scenarios.js";
import { changeScopedPlan } from "./scoped.js";

const rows: string[][] = [];
const notes: string[] = [];
const ms = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const mb = (n: number) => `${Math.round(n)} MB`;

function row(f: Figures): void {
  rows.push([
    f.scenario,
    String(f.requests),
    String(f.minimum),
    ms(f.wallMs),
    ms(f.cpuMs),
    mb(f.peakRssMb),
    String(f.throttled),
  ]);
  if (f.problem) notes.push(`PROBLEM in "${f.scenario}": ${f.problem}`);
}

function machine(): string {
  const model =
    /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "unknown";
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  return `${cpus().length} CPUs (${model}), Node ${process.version}, load average at start ${load}`;
}

process.stdout.write(`machine: ${machine()}\n\n`);

const fleet = await fleetScenarios({
  serialFull: process.env.BENCH_SKIP_SERIAL_FULL !== "1",
  repeat: Number(process.env.BENCH_REPEAT ?? "1"),
});
for (const f of fleet) row(f);
const wall = (name: string) => fleet.find((f) => f.scenario === name)?.wallMs ?? Number.NaN;
for (const kind of ["no-op plan", "apply 10% change", "apply whole fleet from empty"]) {
  const ratio = wall(`${kind}, concurrency 1`) / wall(`${kind}, concurrency 4`);
  if (Number.isFinite(ratio))
    notes.push(`${kind}: concurrency 4 is ${ratio.toFixed(2)}x faster than concurrency 1 (wall time)`);
}

// SPEC §6, §9: three environments, each the fleet, planned in parallel with a key each: three times the
// one environment's floor, in at most 1.3 times its wall time.
const environments = await environmentsPlan({ repeat: Number(process.env.BENCH_REPEAT ?? "1") });
row(environments.one);
row(environments.three);
const envRatio = environments.three.wallMs / environments.one.wallMs;
notes.push(
  `three environments: ${environments.three.requests} requests (3 × ${environments.one.minimum} = ${3 * environments.one.minimum}), ` +
    `${envRatio.toFixed(2)}x the wall time of one (target at most 1.3x)`,
);
if (environments.three.requests > 3 * environments.one.minimum || envRatio > 1.3) {
  notes.push(
    `PROBLEM in "${environments.three.scenario}": ${environments.three.requests} requests, ${envRatio.toFixed(2)}x`,
  );
}

// SPEC §6: a change-scoped plan of a 3-object change of a 50,000-object project, at most 10 requests.
const scoped = await changeScopedPlan();
row(scoped.scoped);
row(scoped.full);
if (scoped.scoped.requests > 10) {
  notes.push(`PROBLEM in "${scoped.scoped.scenario}": ${scoped.scoped.requests} requests, more than 10`);
}
notes.push(
  `change-scoped plan: ${scoped.scoped.requests} requests against the full read's ${scoped.full.requests} (${scoped.scoped.log.join(", ")})`,
);

// Dashboards with their content: 200 dashboards × 5 tiles and their 1,000 insights, under the
// service's own limits (the insight endpoints' 240/minute and 1,200/hour included).
for (const f of await contentScenarios({ size: CONTENT, latencyMs: 20 })) row(f);

for (const f of await flagScenarios({ repeat: Number(process.env.BENCH_REPEAT ?? "1") })) {
  row(f);
  if (f.requests > f.minimum)
    notes.push(`PROBLEM in "${f.scenario}": ${f.requests} requests, minimum ${f.minimum}`);
}

for (const f of await cohortScenarios({ repeat: Number(process.env.BENCH_REPEAT ?? "1") })) {
  row(f);
  if (f.requests > f.minimum)
    notes.push(`PROBLEM in "${f.scenario}": ${f.requests} requests, minimum ${f.minimum}`);
}

const paced = await pacedApply({ limit: 40, windowSeconds: 5, changes: 200, latencyMs: 20 });
rows.push([
  "apply 200 changes, budget 40 per 5 s",
  String(paced.requests),
  String(paced.requests - paced.throttled),
  ms(paced.wallMs),
  ms(paced.cpuMs ?? Number.NaN),
  mb(paced.peakRssMb ?? Number.NaN),
  String(paced.throttled),
]);
const over = (paced.spanMs / paced.budgetMs - 1) * 100;
notes.push(
  `paced apply: the budget requires ${ms(paced.budgetMs)} for ${paced.requests - paced.throttled} requests; ` +
    `first request to last answer took ${ms(paced.spanMs)} (${over.toFixed(1)}% over; target 15%), ` +
    `whole process ${ms(paced.wallMs)}, exit ${paced.code}`,
);

const b2b = await backToBack(SIZES.small);
for (const [label, m] of [
  ["without", b2b.withoutFile],
  ["with", b2b.withFile],
] as const) {
  rows.push([
    `second of two back-to-back reads, 60 per 10 s, ${label} the budget file`,
    String(m.second.requests),
    String(b2b.readsPerRun),
    ms(m.second.wallMs),
    "-",
    "-",
    String(m.emulator429s),
  ]);
}
if (b2b.withFile.emulator429s > 0) {
  notes.push(`PROBLEM in "back to back": ${b2b.withFile.emulator429s} 429s with the budget file`);
}

const offline = await offlinePlan();
rows.push([
  `offline plan, ${offline.objects} objects (${offline.actions} changes), cold`,
  "0",
  "0",
  ms(offline.wallMs),
  `${ms(offline.loadCpuMs + offline.planCpuMs)} (load ${ms(offline.loadCpuMs)}, plan ${ms(offline.planCpuMs)})`,
  mb(offline.peakRssMb),
  "0",
]);
notes.push(
  `offline plan, second run in the same process: load ${ms(offline.warmLoadCpuMs)} + plan ${ms(offline.warmPlanCpuMs)} CPU ` +
    "(target: under 1 s of CPU and 300 MB)",
);

const header = ["scenario", "requests", "minimum", "wall", "CPU", "peak RSS", "429s"];
const lines = [header, header.map(() => "---"), ...rows].map((r) => `| ${r.join(" | ")} |`);
process.stdout.write(`${lines.join("\n")}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n`);
if (notes.some((n) => n.startsWith("PROBLEM")) || paced.throttled > 0 || paced.code !== 0)
  process.exitCode = 1;
