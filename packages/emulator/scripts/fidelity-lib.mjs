/**
 * How `npm run fidelity` counts the ports of PostHog's API tests (test/posthog/), from vitest's JSON
 * results alone: every case is one vitest test titled `path::test_name[parameters]` after the PostHog
 * case it stands for, and what the case is follows from its status and the marker that ends its title
 * (test/posthog/README.md has the conventions):
 *
 * - a passing test with no marker passes: the port keeps the test's assertions;
 * - ` (newer source: <source>)` passes against a newer PostHog source than the test (the assertion
 *   follows the source named, which the test's revision predates): counted apart, never as a pass;
 * - ` (diverges: <what>)` runs but asserts less or other than the test (a loosened or dropped
 *   assertion, a timestamp not compared): counted apart, never as a pass;
 * - `it.skip` with ` (skipped: <reason>)`: served by the emulator but not modelled;
 * - `it.todo` with ` (not ported: <reason>)`: not ported (an endpoint not served, nothing observable
 *   through the API); counts towards the original's cases, not towards the ported ones.
 *
 * Each title counts once: two tests with the same title (parameters included) are an error, so a
 * parametrisation the emulator cannot tell apart has to be one case. Pure functions, no I/O: the
 * script (fidelity-report.mjs) and the package's test of it (test/fidelity-report.test.ts) share them.
 */

const MARKER = /\s\((skipped|not ported|newer source|diverges): ([\s\S]*)\)$/;

/** What one vitest result stands for. `status` is the JSON reporter's (passed, failed, skipped, todo, pending). */
export function classify(title, status) {
  const match = MARKER.exec(title);
  const base = match ? title.slice(0, match.index) : title;
  const marker = match?.[1] ?? null;
  const note = match?.[2] ?? null;
  const cut = base.indexOf("::");
  const path = cut > 0 ? base.slice(0, cut) : null;
  let kind;
  if (status === "failed") kind = "failing";
  else if (status === "todo") kind = "notPorted";
  else if (status === "skipped" || status === "pending") kind = "skipped";
  else if (marker === "newer source") kind = "newer";
  else if (marker === "diverges") kind = "diverges";
  else kind = "passing";
  // A marker that does not fit the status is a mistake in the port (an `it.skip` without its reason,
  // a `(skipped: …)` title on a test that runs, …).
  const expected = {
    notPorted: "not ported",
    skipped: "skipped",
    newer: "newer source",
    diverges: "diverges",
  };
  const mismatch =
    kind === "failing" ? false : kind === "passing" ? marker !== null : marker !== expected[kind];
  return { base, path, kind, note, marker, mismatch };
}

function emptyRow(path) {
  return {
    path,
    revisions: new Set(),
    cases: 0,
    ported: 0,
    passing: 0,
    failing: 0,
    newer: [],
    diverges: [],
    skipped: new Map(),
    notPorted: new Map(),
  };
}

const bump = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Tallies vitest's JSON results per PostHog test file. `revisionOf(testFile)` names the PostHog revision
 * a port follows (from its header). Returns the rows (sorted by path), the totals and the problems
 * that make the count untrustworthy (duplicate titles, uncited tests, markers that do not fit).
 */
export function tally(results, revisionOf = () => null) {
  const rows = new Map();
  const seen = new Map();
  const problems = [];
  for (const suite of results.testResults) {
    for (const test of suite.assertionResults) {
      const c = classify(test.title, test.status);
      if (c.path === null) {
        problems.push(`uncited test (no \`path::test\` title): ${test.title} in ${suite.name}`);
        continue;
      }
      if (c.mismatch) problems.push(`marker does not fit the test's status (${test.status}): ${test.title}`);
      const where = seen.get(c.base);
      if (where !== undefined) {
        problems.push(
          `duplicate case (counted once, registered twice): ${c.base} in ${where} and ${suite.name}`,
        );
        continue;
      }
      seen.set(c.base, suite.name);
      const row = rows.get(c.path) ?? emptyRow(c.path);
      rows.set(c.path, row);
      const revision = revisionOf(suite.name, c.path);
      if (revision) row.revisions.add(revision);
      row.cases++;
      if (c.kind === "notPorted") {
        bump(row.notPorted, c.note ?? "no reason given");
        continue;
      }
      row.ported++;
      if (c.kind === "passing") row.passing++;
      else if (c.kind === "failing") row.failing++;
      else if (c.kind === "skipped") bump(row.skipped, c.note ?? "no reason given");
      else row[c.kind].push({ test: c.base, note: c.note });
    }
  }
  const sorted = [...rows.values()].sort((a, b) => a.path.localeCompare(b.path));
  const totals = sorted.reduce(
    (t, r) => ({
      files: t.files + 1,
      cases: t.cases + r.cases,
      ported: t.ported + r.ported,
      passing: t.passing + r.passing,
      failing: t.failing + r.failing,
      newer: t.newer + r.newer.length,
      diverges: t.diverges + r.diverges.length,
      skipped: t.skipped + count(r.skipped),
      notPorted: t.notPorted + count(r.notPorted),
    }),
    {
      files: 0,
      cases: 0,
      ported: 0,
      passing: 0,
      failing: 0,
      newer: 0,
      diverges: 0,
      skipped: 0,
      notPorted: 0,
    },
  );
  return { rows: sorted, totals, problems };
}

function count(map) {
  let n = 0;
  for (const v of map.values()) n += v;
  return n;
}

/** Share as a percentage with one decimal; a file with nothing ported reads 0. */
export const percent = (part, whole) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

/** The files whose passing cases are under `goal` percent of their ported cases. */
export function belowGoal(rows, goal) {
  return rows.filter((r) => percent(r.passing, r.ported) < goal);
}

const reasons = (map) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${n}: ${reason}`)
    .join("; ");

/** The report as markdown: the table, then every newer-source case, divergence, skip and unported group. */
export function renderMarkdown({ rows, totals }) {
  const out = [];
  out.push(
    "| PostHog test file (revision) | cases | ported | pass | newer source | diverges | skipped | % ported | % pass |",
  );
  out.push("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const revision = r.revisions.size > 0 ? ` (${[...r.revisions].sort().join(", ")})` : "";
    const failing = r.failing ? ` (${r.failing} failing)` : "";
    out.push(
      `| \`${r.path}\`${revision} | ${r.cases} | ${r.ported} | ${r.passing}${failing} | ${r.newer.length} | ${r.diverges.length} | ${count(r.skipped)} | ${percent(r.ported, r.cases)} | ${percent(r.passing, r.ported)} |`,
    );
  }
  out.push(
    `| **${totals.files} files** | **${totals.cases}** | **${totals.ported}** | **${totals.passing}**${totals.failing ? ` (${totals.failing} failing)` : ""} | **${totals.newer}** | **${totals.diverges}** | **${totals.skipped}** | **${percent(totals.ported, totals.cases)}** | **${percent(totals.passing, totals.ported)}** |`,
  );
  out.push("");
  out.push(
    `${totals.passing} of ${totals.ported} ported cases pass (${percent(totals.passing, totals.ported)}%); ` +
      `${totals.newer} follow a newer PostHog source than their test, ${totals.diverges} diverge from it, ` +
      `${totals.skipped} are skipped; ${totals.notPorted} of the ${totals.cases} cases of these files are not ported.`,
  );
  const section = (title, lines) => {
    if (lines.length === 0) return;
    out.push("", title, "", ...lines);
  };
  section(
    "Cases that follow a newer PostHog source than their test (the source named; not counted as passing):",
    rows.flatMap((r) => r.newer.map((n) => `- \`${n.test}\`: ${n.note}`)),
  );
  section(
    "Divergences (the port asserts less or other than the test; not counted as passing):",
    rows.flatMap((r) => r.diverges.map((d) => `- \`${d.test}\`: ${d.note}`)),
  );
  section(
    "Skipped (served by the emulator, not modelled), by file:",
    rows.filter((r) => r.skipped.size > 0).map((r) => `- \`${r.path}\`: ${reasons(r.skipped)}`),
  );
  section(
    "Not ported, by file (of the file's cases; why):",
    rows
      .filter((r) => r.notPorted.size > 0)
      .map((r) => `- \`${r.path}\`: ${count(r.notPorted)} of ${r.cases} (${reasons(r.notPorted)})`),
  );
  return out.join("\n");
}

/** The report as JSON (maps as objects). */
export function toJson({ rows, totals, problems }) {
  return {
    files: rows.map((r) => ({
      path: r.path,
      revisions: [...r.revisions].sort(),
      cases: r.cases,
      ported: r.ported,
      passing: r.passing,
      failing: r.failing,
      newer: r.newer,
      diverges: r.diverges,
      skipped: Object.fromEntries(r.skipped),
      notPorted: Object.fromEntries(r.notPorted),
      percentPorted: percent(r.ported, r.cases),
      percentPassing: percent(r.passing, r.ported),
    })),
    totals: {
      ...totals,
      percentPorted: percent(totals.ported, totals.cases),
      percentPassing: percent(totals.passing, totals.ported),
    },
    problems,
  };
}

/** The revision a port's header names: `PostHog revision: <sha>`, `revision <sha>` or "newest stored". */
export function headerRevision(source) {
  // The header comment as one line of text (its ` * ` line prefixes dropped).
  const header = (/^\s*\/\*\*[\s\S]*?\*\//.exec(source)?.[0] ?? "").replace(/\n\s*\*\s?/g, " ");
  const explicit = /PostHog revision:\s*([0-9a-f]{7,40}|newest stored)/i.exec(header);
  if (explicit)
    return explicit[1].toLowerCase().startsWith("newest") ? "newest stored" : explicit[1].slice(0, 8);
  const sha = /revision[\s,]+([0-9a-f]{8,40})\b/i.exec(header);
  if (sha) return sha[1].slice(0, 8);
  return /newest stored/i.test(header) ? "newest stored" : null;
}

/** `text` with the part between the README's fidelity markers replaced by `report`. */
export function replaceBetweenMarkers(text, report) {
  const start = "<!-- fidelity:start -->";
  const end = "<!-- fidelity:end -->";
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the markers ${start} … ${end} are missing`);
  return `${text.slice(0, from + start.length)}\n${report}\n${text.slice(to)}`;
}
