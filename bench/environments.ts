/**
 * A plan of several environments (SPEC §6, §9): three environments, each a project of its own holding
 * the bench fleet (bench/fleet.ts), one set of files for all three (the fleet as shared files, integrations
 * by `{kind, name}`), each environment with its own key. A no-op plan of the three must send three times
 * the single environment's floor and take at most 1.3× the wall time of the same plan of one environment
 * (`--env`): the environments are read in parallel, each under its own rate budget.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmulator } from "posthog-gitops-emulator";
import { clearLog, control, type EmulatorState, getState, requestLog, seedOf } from "./control.js";
import { FLEET, fleetRecords, minimumReads, PROJECT, writeFleetYaml } from "./fleet.js";
import { type Figures, figuresOf } from "./scenarios.js";
import { runTool } from "./tool.js";

/** The three environments: their project, key, and aws-s3 integration (id and display name). */
const ENVIRONMENTS = [
  { name: "one", project: PROJECT, key: "phx_bench_env_one_Qx1", integration: 1, display: "" },
  { name: "two", project: 12346, key: "phx_bench_env_two_Wv2", integration: 10, display: "" },
  {
    name: "three",
    project: 12347,
    key: "phx_bench_env_three_Ez3",
    integration: 12,
    display: "bench three (access key)",
  },
];

/** The fleet's records, moved into `project` with ids of their own and the project's integration. */
function recordsIn(project: number, index: number, integration: number) {
  const records = fleetRecords(FLEET);
  const offset = index * 100_000;
  const uuid = (id: string) => `${(index + 1).toString(16).padStart(2, "0")}${id.slice(2)}`;
  return {
    dashboards: records.dashboards.map((d) => ({ ...d, id: d.id + offset, team_id: project })),
    collaborators: records.collaborators.map((c) => ({
      ...c,
      id: uuid(String(c.id)),
      dashboard_id: c.dashboard_id + offset,
    })),
    batch_exports: records.batch_exports.map((e) => ({
      ...e,
      id: uuid(e.id),
      team_id: project,
      destination: { ...(e.destination as object), integration },
    })),
    sharing: [],
  };
}

export async function environmentsPlan(options: { repeat: number }): Promise<{
  one: Figures;
  three: Figures;
}> {
  const emulator = await startEmulator({ port: 0, latencyMs: 20, rateLimit: "none" });
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-envs-"));
  try {
    const base: EmulatorState = await getState(emulator.url);
    const integrations = base.integrations as Array<{ id: number; team_id: number; display_name: string }>;
    const third = {
      id: 12,
      team_id: 12347,
      kind: "aws-s3",
      display_name: "bench three (access key)",
      config: {},
      created_at: "2025-02-12T09:00:00.000Z",
      created_by: 1,
      errors: "",
    };
    const seeded = {
      dashboards: [],
      collaborators: [],
      batch_exports: [],
      sharing: [],
    } as unknown as ReturnType<typeof recordsIn>;
    ENVIRONMENTS.forEach((e, i) => {
      const records = recordsIn(e.project, i, e.integration);
      seeded.dashboards.push(...records.dashboards);
      seeded.collaborators.push(...records.collaborators);
      seeded.batch_exports.push(...records.batch_exports);
    });
    const seed = seedOf(base, seeded as unknown as Parameters<typeof seedOf>[1]);
    const acme = (base.projects as Array<{ organization: string }>)[0]?.organization;
    seed.projects = [...(base.projects as object[]), { id: 12347, name: "Bench three", organization: acme }];
    seed.integrations = [...integrations, third];
    seed.api_keys = [
      ...(base.api_keys as object[]),
      ...ENVIRONMENTS.map((e) => ({ key: e.key, user: 1, scopes: ["*"] })),
    ];
    const displayOf = (e: (typeof ENVIRONMENTS)[number]) =>
      e.display !== "" ? e.display : (integrations.find((i) => i.id === e.integration)?.display_name ?? "");

    // The fleet's files as shared files, and the declaration of the three environments.
    const dir = join(root, "posthog");
    writeFleetYaml(dir, FLEET);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), "utf8")
        .replace(`project: ${PROJECT}`, "environments: all")
        .replaceAll(/integration: \d+/g, 'integration: {kind: aws-s3, name: "${S3}"}');
      writeFileSync(join(dir, file), text);
    }
    const declaration = ["environments:"];
    for (const e of ENVIRONMENTS) {
      declaration.push(
        `  ${e.name}:`,
        `    project: ${e.project}`,
        `    api_key_env: KEY_${e.name.toUpperCase()}`,
        `    variables: {S3: ${JSON.stringify(displayOf(e))}}`,
      );
    }
    writeFileSync(join(dir, "environments.yaml"), `${declaration.join("\n")}\n`);

    const env: Record<string, string> = {
      POSTHOG_HOST: emulator.url,
      POSTHOG_RATE_LIMIT: "1000000/minute",
      ...Object.fromEntries(ENVIRONMENTS.map((e) => [`KEY_${e.name.toUpperCase()}`, e.key])),
    };
    const floor = minimumReads(FLEET);
    const measure = async (scenario: string, minimum: number, args: string[]) => {
      let best: Figures | undefined;
      for (let i = 0; i < Math.max(1, options.repeat); i++) {
        await control(emulator.url, "seed", "POST", seed);
        await clearLog(emulator.url);
        const run = await runTool(args, env, root);
        const figures = figuresOf(scenario, minimum, run, await requestLog(emulator.url), 0);
        if (!best || figures.problem || figures.wallMs < best.wallMs) best = figures;
        if (figures.problem) break;
      }
      return best as Figures;
    };
    const one = await measure("no-op plan of 1 environment of 3 (--env), the fleet", floor, [
      "plan",
      "--detailed-exitcode",
      "--env",
      "one",
      "posthog",
    ]);
    const three = await measure("no-op plan of 3 environments, the fleet in each", 3 * floor, [
      "plan",
      "--detailed-exitcode",
      "posthog",
    ]);
    return { one, three };
  } finally {
    rmSync(root, { recursive: true, force: true });
    await emulator.close();
  }
}

// `npx tsx bench/environments.ts` (after `npm run build`): this scenario alone, best of BENCH_REPEAT runs.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { one, three } = await environmentsPlan({ repeat: Number(process.env.BENCH_REPEAT ?? "3") });
  for (const f of [one, three]) {
    process.stdout.write(
      `${f.scenario}: ${f.requests} requests (minimum ${f.minimum}), ${Math.round(f.wallMs)} ms wall, ${Math.round(f.cpuMs)} ms CPU, ${Math.round(f.peakRssMb)} MB${f.problem ? `, PROBLEM: ${f.problem}` : ""}\n`,
    );
  }
  process.stdout.write(
    `three environments take ${(three.wallMs / one.wallMs).toFixed(2)}x the wall time of one\n`,
  );
}
