/**
 * Runs the built CLI (bin/posthog-gitops.js, so `npm run build` first) as a child process, the way a
 * user or CI runs it, and measures that process alone: wall time from spawn to exit, and its own CPU
 * time and peak RSS reported by bench/usage-hook.mjs (start-up and module loading included).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/posthog-gitops.js", import.meta.url));
const HOOK = new URL("./usage-hook.mjs", import.meta.url).href;

export interface ToolRun {
  code: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  stdout: string;
  stderr: string;
  /** Each stderr line with the time (ms since spawn) it arrived: `--verbose` request lines are timed by it. */
  stderrLines: Array<{ at: number; line: string }>;
}

export async function runTool(args: string[], env: Record<string, string>, cwd: string): Promise<ToolRun> {
  const dir = mkdtempSync(join(tmpdir(), "phgo-bench-usage-"));
  const usageFile = join(dir, "usage.json");
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", HOOK, BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env, BENCH_USAGE_FILE: usageFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let partial = "";
    const stderrLines: ToolRun["stderrLines"] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      const at = performance.now() - started;
      for (const line of lines) stderrLines.push({ at, line });
    });
    const code = await new Promise<number>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (status) => resolve(status ?? 1));
    });
    const wallMs = performance.now() - started;
    const usage = JSON.parse(readFileSync(usageFile, "utf8")) as { cpuMs: number; maxRssKb: number };
    return {
      code,
      wallMs,
      cpuMs: usage.cpuMs,
      peakRssMb: usage.maxRssKb / 1024,
      stdout,
      stderr,
      stderrLines,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
