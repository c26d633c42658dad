/**
 * Config loading benchmark: 10,000 objects (7,000 dashboards, 3,000 batch exports) across
 * 100 files in a temporary folder, loaded and validated once after a warm-up. Prints CPU time
 * (process.cpuUsage), peak RSS and heap. Budget (SPEC §6): under 1 s of CPU and 300 MB.
 * Run: npx tsx bench/config.ts [--heavy]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/index.js";

const FILES = 100;
const PER_FILE = 100;

/**
 * The typical profile: 90 dashboards per file (name, description, tags, pinned; every fifth also with
 * restriction, a collaborator and sharing) and 10 batch exports with a full AwsS3 destination (its
 * credentials in an integration, the newest service's form). The heavy profile (`--heavy`) gives every
 * dashboard collaborators and sharing and makes 30% batch exports: twice the bytes, to show how the
 * YAML parsing cost (the `yaml` library's parser, about 4 MB/s) grows with size.
 */
function fileText(f: number, heavy: boolean): string {
  const dashboards = heavy ? 70 : 90;
  const lines = [`project: ${12345 + (f % 2)}`, "variables: [TEAM]", "dashboards:"];
  for (let i = 0; i < dashboards; i++) {
    lines.push(
      `  - name: Dashboard ${f}-${i}`,
      `    description: Weekly review number ${i} for team \${TEAM}`,
      `    pinned: ${i % 2 === 0}`,
      `    tags: [Growth, kpi, team-${i % 7}]`,
    );
    if (heavy || i % 5 === 0) {
      lines.push(
        "    restriction_level: only_collaborators",
        "    collaborators:",
        "      - user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000002",
        "        level: can_edit",
        "    sharing: {enabled: false}",
      );
    }
  }
  lines.push("batch_exports:");
  for (let i = 0; i < PER_FILE - dashboards; i++) {
    lines.push(
      `  - name: export-${f}-${i}`,
      "    model: events",
      "    interval: hour",
      "    paused: false",
      "    start_at: 2026-01-01T00:00:00Z",
      "    destination:",
      "      type: AwsS3",
      "      integration: 1",
      "      config:",
      "        bucket_name: acme-analytics",
      "        region: us-east-1",
      `        prefix: posthog/${f}/${i}/`,
      "        file_format: Parquet",
      "        compression: zstd",
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function benchConfig(
  heavy = false,
): Promise<{ cpuMs: number; peakRssMb: number; heapMb: number; objects: number; megabytes: number }> {
  const root = mkdtempSync(join(tmpdir(), "phgo-bench-config-"));
  try {
    let bytes = 0;
    for (let f = 0; f < FILES; f++) {
      const folder = join(root, "posthog", `team-${Math.floor(f / 10)}`);
      mkdirSync(folder, { recursive: true });
      const text = fileText(f, heavy);
      bytes += Buffer.byteLength(text);
      writeFileSync(join(folder, `file-${f}.yaml`), text);
    }
    const options = {
      env: { TEAM: "growth" },
      cwd: root,
      mode: "plan" as const,
    };
    await loadConfig(["posthog/team-0"], options); // warm-up: module loading and schema compilation
    const before = process.cpuUsage();
    const result = await loadConfig([], options);
    const cpu = process.cpuUsage(before);
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`benchmark input has errors: ${errors[0]!.message}`);
    const objects = result.projects.reduce(
      (n, p) => n + Object.values(p.objects).reduce((m, list) => m + list.length, 0),
      0,
    );
    return {
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      heapMb: process.memoryUsage().heapUsed / 1024 / 1024,
      objects,
      megabytes: bytes / 1024 / 1024,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const heavy = process.argv.includes("--heavy");
  const report = (label: string, r: Awaited<ReturnType<typeof benchConfig>>) => {
    const ok = r.cpuMs < 1000 && r.peakRssMb < 300;
    process.stdout.write(
      `config${heavy ? " (heavy)" : ""}, ${label}: ${r.objects} objects in ${FILES} files (${r.megabytes.toFixed(1)} MB): ` +
        `${r.cpuMs.toFixed(0)} ms CPU, peak RSS ${r.peakRssMb.toFixed(0)} MB, heap ${r.heapMb.toFixed(0)} MB ` +
        `${ok ? "(within budget)" : "(OVER BUDGET: 1 s CPU, 300 MB)"}\n`,
    );
    return ok;
  };
  report("live process.env", await benchConfig(heavy));
  // The yaml parser reads process.env.LOG_TOKENS once per token, and every read of the live
  // process.env is a call into the C++ environment: about a third of the parse time. An entry point
  // that replaces process.env with a plain snapshot (as bin/ should) removes that cost.
  process.env = { ...process.env };
  if (!report("process.env snapshot", await benchConfig(heavy))) process.exitCode = 1;
}
