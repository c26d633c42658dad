/**
 * How a change of long text (a description, a query, a text card) shows in a plan: a unified diff,
 * bounded twice. The work: the diff gives up past MAX_EDITS changed lines (the `diff` package's
 * `maxEditLength`, which bounds Myers' algorithm to O((N + M) · MAX_EDITS) steps, deterministically,
 * unlike a wall-clock timeout), and texts over MAX_TEXT characters or MAX_LINES lines are not diffed
 * at all (splitting them into lines is work too). The output:
 * a diff of more than MAX_DIFF_LINES lines or MAX_DIFF_CHARS characters is not shown. Past either, the
 * change says how many lines each side has and where both values are shown whole (`--format json`).
 */
import { createTwoFilesPatch } from "diff";

/** The most changed lines (added plus removed) a diff looks for before it gives up. */
export const MAX_EDITS = 1000;
/** The longest text diffed at all: characters and lines, either side. */
export const MAX_TEXT = 2_000_000;
export const MAX_LINES = 100_000;
/** The longest diff shown: lines and characters. */
export const MAX_DIFF_LINES = 1000;
export const MAX_DIFF_CHARS = 64 * 1024;

const withEol = (t: string) => (t === "" || t.endsWith("\n") ? t : `${t}\n`);

/** A unified diff of two texts, headed `--- before` / `+++ after`, without the index banner; undefined past MAX_EDITS. */
export function unifiedDiff(before: string, after: string): string | undefined {
  const patch = createTwoFilesPatch("before", "after", withEol(before), withEol(after), "", "", {
    context: 3,
    maxEditLength: MAX_EDITS,
  });
  if (patch === undefined) return undefined;
  const start = patch.indexOf("--- before");
  return (start >= 0 ? patch.slice(start) : patch).replace(/\t$/gm, "");
}

function lineCount(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let at = text.indexOf("\n"); at >= 0 && at < text.length - 1; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

/**
 * What a plan shows of a long text's change: `{ diff }`, or, when the diff would cost or show too
 * much, `{ says }` with the line counts and where to read both values.
 */
export function textChange(before: string, after: string): { diff: string } | { says: string[] } {
  const [n, m] = [lineCount(before), lineCount(after)];
  const big = before.length > MAX_TEXT || after.length > MAX_TEXT || n > MAX_LINES || m > MAX_LINES;
  const diff = big ? undefined : unifiedDiff(before, after);
  if (diff !== undefined && diff.length <= MAX_DIFF_CHARS && lineCount(diff) <= MAX_DIFF_LINES)
    return { diff };
  return {
    says: [`changed (${n} → ${m} lines), diff too large to show: plan --format json shows both values`],
  };
}
