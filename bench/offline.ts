/**
 * The offline plan of 10,000 declared objects (SPEC §6: under 1 s of CPU and 300 MB): 7,000 dashboards
 * (1,400 with a collaborator) and 3,000 batch exports in 100 files, planned against a synthetic live
 * state where every tenth object differs (1,000 updates). No network. Runs in a fresh child process
 * (`--child`) so its peak RSS is its own. It runs the built code (dist/, as the CLI does, so no tsx
 * transpiling is measured); CPU (all threads, GC included) is measured around loadConfig and buildPlan:
 * "cold" is the first call in the process (module loading, schema compilation, unoptimised code),
 * "warm" a second call on the same files. Module loading (the config and plan modules and what they
 * import, the YAML library included) is measured apart, as importCpuMs.
 *
 * Alone: `npm run build && npx tsx bench/offline.ts [--runs N]` runs N fresh processes (default 5)
 * and prints each run and the median of each figure.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BatchExport } from "../src/kinds/batch-export/index.js";
import type { Collaborator, DashboardBasic } from "../src/kinds/dashboard/index.js";
import type { LiveProject } from "../src/plan/types.js";
import { AWS_S3_INTEGRATION, BOB, type FleetSize, fleetRecords, PROJECT, writeFleetYaml } from "./fleet.js";

export const OFFLINE: FleetSize = { dashboards: 7000, collaborators: 1400, exports: 3000 };

export interface OfflineFigures {
  objects: number;
  actions: number;
  loadCpuMs: number;
  planCpuMs: number;
  /** Importing the config and plan modules (cold run only). */
  importCpuMs: number;
  /** Peak RSS after the cold run (the CLI's case). */
  peakRssMb: number;
  wallMs: number;
  warmLoadCpuMs: number;
  warmPlanCpuMs: number;
}

type Config = typeof import("../src/index.js");
type Kinds = typeof import("../src/kinds/index.js");
type Planner = typeof import("../src/plan/index.js");
const dist = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;

/** The live state the service would return for the fleet's seed records, with the project's integration. */
export function syntheticLive(size: FleetSize): LiveProject {
  const records = fleetRecords(size);
  const user = { id: BOB.id, uuid: BOB.uuid, first_name: "Bob", email: "bob@example.com" };
  const dashboards: DashboardBasic[] = records.dashboards.map((d) => ({
    id: d.id,
    name: d.name,
    description: String(d.description),
    pinned: false,
    created_at: "2026-01-01T00:00:00Z",
    created_by: null,
    last_accessed_at: null,
    is_shared: false,
    deleted: false,
    creation_mode: "default",
    tags: d.tags as string[],
    restriction_level: d.restriction_level as 21 | 37,
    effective_restriction_level: d.restriction_level as 21 | 37,
    effective_privilege_level: 37,
    user_access_level: "editor",
    access_control_version: "v1",
    last_refresh: null,
    team_id: PROJECT,
  }));
  const collaborators: Record<number, Collaborator[]> = {};
  for (const c of records.collaborators) {
    const at = "2026-01-01T00:00:00Z";
    collaborators[c.dashboard_id] = [
      { id: String(c.id), dashboard_id: c.dashboard_id, user, level: 37, added_at: at, updated_at: at },
    ];
  }
  const batchExports: BatchExport[] = records.batch_exports.map((b) => {
    const { config } = b.destination as { config: Record<string, unknown> };
    return {
      id: b.id,
      team_id: PROJECT,
      name: b.name,
      model: "events",
      destination: { type: "AwsS3", config: { ...config }, integration: AWS_S3_INTEGRATION },
      interval: String(b.interval),
      paused: false,
      created_at: "2026-01-01T00:00:00Z",
      last_updated_at: "2026-01-01T00:00:00Z",
      last_paused_at: null,
      start_at: null,
      end_at: null,
      latest_runs: [],
      schema: null,
      filters: null,
    };
  });
  return {
    project: PROJECT,
    kinds: {
      dashboard: { objects: dashboards, collaborators, sharing: {} },
      batch_export: {
        objects: batchExports,
        integrations: [{ id: AWS_S3_INTEGRATION, kind: "aws-s3", display_name: "acme-prod" }],
      },
    },
  } as LiveProject;
}

async function measureOnce(root: string, live: LiveProject[]) {
  const started = performance.now();
  const imports = process.cpuUsage();
  const { loadConfig } = (await import(dist("index.js"))) as Config;
  const { buildPlan } = (await import(dist("plan/index.js"))) as Planner;
  const { KINDS } = (await import(dist("kinds/index.js"))) as Kinds;
  const importCpu = process.cpuUsage(imports);
  const before = process.cpuUsage();
  const loaded = await loadConfig([], { env: {}, cwd: root, mode: "plan" });
  const loadCpu = process.cpuUsage(before);
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`offline benchmark input has errors: ${errors[0]?.message}`);
  const planBefore = process.cpuUsage();
  const { plan, errors: planErrors } = buildPlan(KINDS, loaded.projects, live, {
    prune: false,
    force: false,
    rotateSecrets: false,
    now: new Date(),
  });
  const planCpu = process.cpuUsage(planBefore);
  if (planErrors.length > 0) throw new Error(`offline plan failed: ${planErrors[0]?.message}`);
  return {
    objects: loaded.projects.reduce(
      (n, p) => n + Object.values(p.objects).reduce((m, list) => m + list.length, 0),
      0,
    ),
    actions: plan.actions.length,
    loadCpuMs: (loadCpu.user + loadCpu.system) / 1000,
    planCpuMs: (planCpu.user + planCpu.system) / 1000,
    importCpuMs: (importCpu.user + importCpu.system) / 1000,
    wallMs: performance.now() - started,
  };
}

async function measureHere(): Promise<OfflineFigures> {
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-offline-"));
  try {
    writeFleetYaml(join(root, "posthog"), OFFLINE, 10);
    const live = [syntheticLive(OFFLINE)];
    const cold = await measureOnce(root, live);
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    const warm = await measureOnce(root, live);
    return { ...cold, peakRssMb, warmLoadCpuMs: warm.loadCpuMs, warmPlanCpuMs: warm.planCpuMs };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Runs the measurement in a fresh process and returns its figures. */
export async function offlinePlan(): Promise<OfflineFigures> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { PATH: process.env.PATH ?? "" },
  });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number>((resolve) => child.once("close", (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`the offline benchmark exited with ${code}`);
  return JSON.parse(Buffer.concat(chunks).toString()) as OfflineFigures;
}

if (process.argv.includes("--child")) {
  // As bin/posthog-gitops.js does: a plain copy, since the YAML parser reads process.env per token.
  process.env = { ...process.env };
  process.stdout.write(JSON.stringify(await measureHere()));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--runs");
  const runs = at === -1 ? 5 : Number(process.argv[at + 1]);
  const all: OfflineFigures[] = [];
  for (let i = 0; i < runs; i++) {
    const f = await offlinePlan();
    all.push(f);
    process.stdout.write(`run ${i + 1}: ${line(f)}\n`);
  }
  const median = (pick: (f: OfflineFigures) => number) => {
    const sorted = all.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  process.stdout.write(
    `median of ${runs}: load + plan ${median((f) => f.loadCpuMs + f.planCpuMs).toFixed(0)} ms CPU ` +
      `(load ${median((f) => f.loadCpuMs).toFixed(0)}, plan ${median((f) => f.planCpuMs).toFixed(0)}), ` +
      `imports ${median((f) => f.importCpuMs).toFixed(0)} ms, peak RSS ${median((f) => f.peakRssMb).toFixed(0)} MB\n`,
  );
}

function line(f: OfflineFigures): string {
  return (
    `load ${f.loadCpuMs.toFixed(0)} + plan ${f.planCpuMs.toFixed(0)} = ${(f.loadCpuMs + f.planCpuMs).toFixed(0)} ms CPU, ` +
    `imports ${f.importCpuMs.toFixed(0)} ms, peak RSS ${f.peakRssMb.toFixed(0)} MB, ` +
    `warm load ${f.warmLoadCpuMs.toFixed(0)} + plan ${f.warmPlanCpuMs.toFixed(0)} ms`
  );
}
