/**
 * `npx tsx bench/text-diff.ts`: what a long text's change costs a plan (issue 29 item 5, BENCHMARKS.md
 * "Bounded text diffs"). A dashboard's live description of about 1 MB (14,000 lines) against a declared
 * one: a few lines edited (the diff is shown), every 20th line edited, every line rewritten, and one
 * 1 MB line; each through the dashboard's field table (`compare`, what a plan calls), so the figure is
 * the plan's whole diff work for the field. Each figure is the CPU time (user and system) of the best of
 * BENCH_REPEAT runs (default 3), in one process. `unbounded` repeats the rewrite without the bounds
 * (the `diff` package as the code before issue 29 called it) on a tenth of the text, where it still
 * finishes.
 */
import { createTwoFilesPatch } from "diff";
import { dashboardFields } from "../src/kinds/dashboard/fields.js";

const repeat = Number(process.env.BENCH_REPEAT ?? "3");

const LINES = 14_000;
const line = (i: number, edited: boolean) =>
  `${edited ? "Revised" : "Original"} paragraph ${i}: what this dashboard shows and who reads it weekly.`;
const description = (n: number, edited: (i: number) => boolean) =>
  Array.from({ length: n }, (_, i) => line(i, edited(i))).join("\n");

function cpu<T>(work: () => T): { ms: number; result: T } {
  let best = Number.POSITIVE_INFINITY;
  let result: T | undefined;
  for (let i = 0; i < repeat; i++) {
    const start = process.cpuUsage();
    result = work();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return { ms: best, result: result as T };
}

/** The description field's change, as a plan makes it: the table's compare of declared against live. */
function plan(live: string, declared: string) {
  const state = dashboardFields.state({ id: 1, name: "D", description: live } as never);
  return dashboardFields.compare({ name: "D", description: declared } as never, state).changes[0];
}

const live = description(LINES, () => false);
const cases: Array<[string, string, string]> = [
  ["3 lines edited", live, description(LINES, (i) => i % 5000 === 7)],
  ["every 20th line edited", live, description(LINES, (i) => i % 20 === 0)],
  ["every line rewritten", live, description(LINES, () => true)],
  ["one 1 MB line, its last character changed", "a".repeat(1_000_000), `${"a".repeat(999_999)}b`],
];

const rows: string[] = [];
for (const [label, before, after] of cases) {
  const { ms, result } = cpu(() => plan(before, after));
  const shown =
    result?.diff !== undefined ? `diff of ${result.diff.split("\n").length} lines` : result?.says?.[0];
  rows.push(`| ${label} | ${(before.length / 1e6).toFixed(2)} MB | ${Math.round(ms)} ms | ${shown} |`);
}

// The code before issue 29: no bound, on a tenth of the text (the whole one runs for minutes).
const tenth = Math.round(LINES / 10);
const { ms: unbounded } = cpu(() =>
  createTwoFilesPatch(
    "before",
    "after",
    description(tenth, () => false),
    description(tenth, () => true),
  ),
);
rows.push(
  `| every line rewritten, unbounded (before), ${tenth} lines | ${(description(tenth, () => false).length / 1e6).toFixed(2)} MB | ${Math.round(unbounded)} ms | diff of ${2 * tenth} changed lines |`,
);

process.stdout.write(
  `${["| long text change | live size | plan CPU (diff work) | shown |", "| --- | --- | --- | --- |", ...rows].join("\n")}\n`,
);
