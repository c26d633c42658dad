/**
 * Start-up time of the built CLI: `--help` and `validate examples` as fresh processes, the median of
 * several runs (wall time from spawn to exit). `npm run bench:startup [CHECKOUT]` measures another
 * built checkout of the project instead (e.g. an older commit, for before/after figures).
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export function startup(root: string, args: string[]): { medianMs: number; code: number } {
  const times: number[] = [];
  let code = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [join(root, "bin/posthog-gitops.js"), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
      stdio: "ignore",
    });
    // The first run warms the file cache and is not counted.
    if (i > 0) times.push(performance.now() - started);
    code = run.status ?? 1;
  }
  return { medianMs: median(times), code };
}

if (process.argv[1]?.endsWith("startup.ts")) {
  const rows = [
    ["--help", ["--help"]],
    ["validate examples/", ["validate", "examples"]],
  ] as const;
  console.log(`| command (${ROOT}) | median of ${RUNS} | exit |`);
  console.log("| :-- | --: | --: |");
  for (const [label, args] of rows) {
    const { medianMs, code } = startup(ROOT, [...args]);
    console.log(`| \`${label}\` | ${Math.round(medianMs)} ms | ${code} |`);
  }
}
