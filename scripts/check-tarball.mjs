#!/usr/bin/env node
// Packs the package, installs the tarball into an empty project (from npm's cache when it can: CI has
// just run `npm ci`), and runs the library example of SPEC §7 there: start the emulator, load in-memory
// configuration, plan, render, apply, plan again (empty). The example's own output is checked, and the
// package must print nothing of its own (stderr stays empty). Exit 1 with the reason otherwise.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "posthog-gitops-tarball-"));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });

const EXAMPLE = `
import { applyPlan, createClient, loadConfig, makePlan, renderPlan } from "posthog-gitops";
import { startEmulator } from "posthog-gitops/emulator";

const text = "project: 12345\\ndashboards:\\n  - name: Tarball board\\n    description: from the packed package\\n";
const config = await loadConfig({ files: [{ path: "posthog/board.yaml", text }] });
if (!config.ok) throw new Error(JSON.stringify(config.diagnostics));
const emulator = await startEmulator({ port: 0 });
const client = createClient({ host: emulator.url, apiKey: "phx_emulator" });
try {
  const plan = await makePlan(config, client, { prune: false });
  console.log(renderPlan(plan, "markdown"));
  const result = await applyPlan(plan, client);
  console.log("applied:", result.ok, result.results.map((r) => r.action.action + ":" + r.outcome).join(","));
  const again = await makePlan(config, client);
  console.log("actions after apply:", again.actions.length);
} finally {
  await client.close();
  await emulator.close();
}
`;

try {
  const tarball = run("npm", ["pack", "--silent", "--pack-destination", work], root).trim().split("\n").pop();
  writeFileSync(
    join(work, "package.json"),
    JSON.stringify({ name: "tarball-check", private: true, type: "module" }),
  );
  run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", join(work, tarball)],
    work,
  );
  writeFileSync(join(work, "example.mjs"), EXAMPLE);
  const out = spawnSync(process.execPath, ["example.mjs"], {
    cwd: work,
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  const problems = [];
  if (out.status !== 0) problems.push(`the example exited ${out.status}`);
  if (out.stderr !== "") problems.push(`the package printed on stderr: ${out.stderr.slice(0, 500)}`);
  if (!out.stdout.includes("posthog-gitops plan for project 12345"))
    problems.push("no markdown plan on stdout");
  if (!out.stdout.includes("applied: true create:ok")) problems.push("the apply did not succeed");
  if (!out.stdout.includes("actions after apply: 0")) problems.push("the second plan was not empty");
  if (problems.length > 0) {
    console.error(`tarball check failed: ${problems.join("; ")}\n--- stdout ---\n${out.stdout}`);
    process.exitCode = 1;
  } else {
    console.log(`tarball check: ${tarball} installs into an empty project and runs the SPEC §7 example`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
