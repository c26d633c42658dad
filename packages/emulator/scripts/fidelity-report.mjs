#!/usr/bin/env node
/**
 * The fidelity report: runs the ports of PostHog's own API tests (test/posthog of this package) with
 * vitest's JSON reporter and counts them per PostHog test file as fidelity-lib.mjs describes: each
 * distinct case once; passing, following a newer PostHog source, diverging, skipped and not ported
 * apart; the share of each file that is ported and the share of the ported cases that pass.
 *
 *   npm run fidelity                # the markdown report on stdout (here or at the repository's root)
 *   npm run fidelity -- --json      # the same counts as JSON
 *   npm run fidelity -- --write     # also rewrites the report in this package's README (between its markers)
 *   npm run fidelity -- --check     # also fails when a file's ported cases pass under 95%
 *
 * Exits 1 when a ported case fails, when the count cannot be trusted (a duplicate title, an uncited
 * test, a marker that does not fit its test) or, with --check, when a file is under the goal.
 * Any port that follows the title conventions is counted; nothing here names a file.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  belowGoal,
  headerRevision,
  renderMarkdown,
  replaceBetweenMarkers,
  tally,
  toJson,
} from "./fidelity-lib.mjs";

const GOAL = 95;
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const args = new Set(process.argv.slice(2));

const dir = mkdtempSync(join(tmpdir(), "fidelity-"));
const out = join(dir, "results.json");
const run = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL("vitest.mjs", import.meta.resolve("vitest/package.json"))),
    "run",
    "test/posthog",
    "--reporter=json",
    `--outputFile=${out}`,
  ],
  { cwd: packageDir, stdio: ["ignore", "ignore", "inherit"] },
);
let results;
try {
  results = JSON.parse(readFileSync(out, "utf8"));
} catch {
  console.error(`vitest wrote no results (exit ${run.status})`);
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const revisions = new Map();
const revisionOf = (testFile) => {
  if (!revisions.has(testFile)) revisions.set(testFile, headerRevision(readFileSync(testFile, "utf8")));
  return revisions.get(testFile);
};

const report = tally(results, revisionOf);
const markdown = renderMarkdown(report);
if (args.has("--json")) console.log(JSON.stringify(toJson(report), null, 2));
else console.log(markdown);

if (args.has("--write")) {
  const readme = join(packageDir, "README.md");
  writeFileSync(readme, replaceBetweenMarkers(readFileSync(readme, "utf8"), markdown));
}

let failed = false;
for (const problem of report.problems) {
  console.error(`fidelity: ${problem}`);
  failed = true;
}
if (report.totals.failing > 0) {
  console.error(`fidelity: ${report.totals.failing} ported case(s) fail`);
  failed = true;
}
if (args.has("--check")) {
  for (const row of belowGoal(report.rows, GOAL)) {
    console.error(`fidelity: ${row.path}: ${row.passing} of ${row.ported} ported cases pass, under ${GOAL}%`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
