#!/usr/bin/env node
/**
 * Regenerates the numbers of the emulator README's "Fidelity" table: runs the ports of PostHog's own
 * API tests (test/posthog of this package) with vitest's JSON reporter and prints, per PostHog test file (the
 * part of each test title before `::`), the cases ported, passing, failing and skipped with the reasons
 * the skipped titles give, then the totals and the share that passes (skipped counted as not passing).
 *
 *   npm run fidelity            # markdown table on stdout (here or at the repository's root)
 *   npm run fidelity -- --json  # the same counts as JSON
 *
 * Exits 1 when a ported case fails.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

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
  { cwd: fileURLToPath(new URL("..", import.meta.url)), stdio: ["ignore", "ignore", "inherit"] },
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

const files = new Map();
for (const suite of results.testResults) {
  for (const test of suite.assertionResults) {
    const title = test.title;
    const path = title.includes("::") ? title.slice(0, title.indexOf("::")) : `(uncited) ${suite.name}`;
    const row = files.get(path) ?? { cases: 0, passing: 0, failing: 0, skipped: 0, reasons: new Map() };
    files.set(path, row);
    row.cases++;
    if (test.status === "passed") row.passing++;
    else if (test.status === "failed") row.failing++;
    else {
      row.skipped++;
      const reason = /\(skipped: (.*)\)$/.exec(title)?.[1] ?? "no reason given";
      row.reasons.set(reason, (row.reasons.get(reason) ?? 0) + 1);
    }
  }
}

const rows = [...files.entries()].sort(([a], [b]) => a.localeCompare(b));
const total = rows.reduce(
  (t, [, r]) => ({
    cases: t.cases + r.cases,
    passing: t.passing + r.passing,
    failing: t.failing + r.failing,
    skipped: t.skipped + r.skipped,
  }),
  { cases: 0, passing: 0, failing: 0, skipped: 0 },
);
const share = total.cases === 0 ? 0 : (100 * total.passing) / total.cases;

if (process.argv.includes("--json")) {
  const json = rows.map(([path, r]) => ({ path, ...r, reasons: Object.fromEntries(r.reasons) }));
  console.log(JSON.stringify({ files: json, total: { ...total, files: rows.length, share } }, null, 2));
} else {
  console.log("| PostHog test file | ported | passing | skipped (why) |");
  console.log("| --- | ---: | ---: | --- |");
  for (const [path, r] of rows) {
    const why = [...r.reasons].map(([reason, n]) => `${n}: ${reason}`).join("; ");
    const failing = r.failing ? ` (${r.failing} failing)` : "";
    console.log(
      `| \`${path}\` | ${r.cases} | ${r.passing}${failing} | ${r.skipped}${why ? ` (${why})` : ""} |`,
    );
  }
  console.log(
    `| **${rows.length} files** | **${total.cases}** | **${total.passing}** | **${total.skipped}** |\n\n${share.toFixed(1)}% of the ported cases pass.`,
  );
}
process.exit(total.failing > 0 ? 1 : 0);
