/**
 * How `npm run fidelity` counts the ports of PostHog's tests (scripts/fidelity-lib.mjs): each distinct
 * case once, newer-source cases and divergences apart from the passing ones, skipped and unported
 * cases with their reasons, and the problems that make a count untrustworthy.
 */
import { describe, expect, it } from "vitest";
import {
  belowGoal,
  classify,
  headerRevision,
  renderMarkdown,
  replaceBetweenMarkers,
  tally,
  type VitestJson,
} from "../scripts/fidelity-lib.mjs";

const A = "products/x/test_a.py";
const B = "posthog/api/test/test_b.py";

const results = (...suites: Array<[string, Array<[string, string]>]>): VitestJson => ({
  testResults: suites.map(([name, tests]) => ({
    name,
    assertionResults: tests.map(([title, status]) => ({ title, status })),
  })),
});

describe("classify", () => {
  it("reads the case, its PostHog file and what it counts as from the title and status", () => {
    expect(classify(`${A}::test_one[p1]`, "passed")).toMatchObject({
      base: `${A}::test_one[p1]`,
      path: A,
      kind: "passing",
      mismatch: false,
    });
    expect(classify(`${A}::test_two (newer source: exports.py validate)`, "passed")).toMatchObject({
      base: `${A}::test_two`,
      kind: "newer",
      note: "exports.py validate",
    });
    expect(classify(`${A}::test_three (diverges: created_at not compared)`, "passed")).toMatchObject({
      kind: "diverges",
      note: "created_at not compared",
    });
    expect(classify(`${A}::test_four (skipped: needs ClickHouse (events))`, "skipped")).toMatchObject({
      kind: "skipped",
      note: "needs ClickHouse (events)",
    });
    expect(classify(`${A}::test_five (not ported: endpoint not served)`, "todo")).toMatchObject({
      base: `${A}::test_five`,
      kind: "notPorted",
    });
    expect(classify(`${A}::test_six (diverges: x)`, "failed").kind).toBe("failing");
  });

  it("flags a marker that does not fit the status, and a title without a PostHog path", () => {
    expect(classify(`${A}::t (skipped: why)`, "passed").mismatch).toBe(true);
    expect(classify(`${A}::t`, "skipped").mismatch).toBe(true);
    expect(classify(`${A}::t (not ported: why)`, "skipped").mismatch).toBe(true);
    expect(classify("just a test", "passed").path).toBeNull();
  });
});

describe("tally", () => {
  const report = tally(
    results(
      [
        "/pkg/test/posthog/a.test.ts",
        [
          [`${A}::ok_1`, "passed"],
          [`${A}::ok_2[x]`, "passed"],
          [`${A}::newer (newer source: exports.py)`, "passed"],
          [`${A}::loose (diverges: status 400 or 403)`, "passed"],
          [`${A}::skip (skipped: needs Temporal)`, "skipped"],
          [`${A}::gone_1 (not ported: not served)`, "todo"],
          [`${A}::gone_2 (not ported: not served)`, "todo"],
          [`${A}::gone_3 (not ported: internal function)`, "todo"],
          [`${B}::bad`, "failed"],
          [`${B}::good`, "passed"],
        ],
      ],
      ["/pkg/test/posthog/b.test.ts", [[`${A}::ok_1`, "passed"]]],
    ),
    (file) => (file.endsWith("a.test.ts") ? "1ea05ce0" : null),
  );

  it("counts each distinct case once and reports a title registered twice", () => {
    const a = report.rows.find((r) => r.path === A);
    expect(a?.cases).toBe(8);
    expect(report.problems).toEqual([
      `duplicate case (counted once, registered twice): ${A}::ok_1 in /pkg/test/posthog/a.test.ts and /pkg/test/posthog/b.test.ts`,
    ]);
  });

  it("keeps newer-source cases, divergences, skips and unported cases out of the passing ones", () => {
    const a = report.rows.find((r) => r.path === A);
    expect(a).toMatchObject({ ported: 5, passing: 2, failing: 0 });
    expect(a?.newer).toEqual([{ test: `${A}::newer`, note: "exports.py" }]);
    expect(a?.diverges).toEqual([{ test: `${A}::loose`, note: "status 400 or 403" }]);
    expect([...(a?.skipped ?? [])]).toEqual([["needs Temporal", 1]]);
    expect([...(a?.notPorted ?? [])]).toEqual([
      ["not served", 2],
      ["internal function", 1],
    ]);
    expect(report.totals).toMatchObject({ files: 2, cases: 10, ported: 7, passing: 3, failing: 1 });
  });

  it("names the files under the goal, counting only passing cases", () => {
    expect(belowGoal(report.rows, 95).map((r) => r.path)).toEqual([B, A]);
    expect(belowGoal(report.rows, 40).map((r) => r.path)).toEqual([]);
  });

  it("renders the table with the revision, the shares and the reasons", () => {
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(`| \`${A}\` (1ea05ce0) | 8 | 5 | 2 | 1 | 1 | 1 | 62.5 | 40 |`);
    expect(markdown).toContain(`| \`${B}\` (1ea05ce0) | 2 | 2 | 1 (1 failing) | 0 | 0 | 0 | 100 | 50 |`);
    expect(markdown).toContain(`- \`${A}::newer\`: exports.py`);
    expect(markdown).toContain(`- \`${A}::loose\`: status 400 or 403`);
    expect(markdown).toContain(`- \`${A}\`: 3 of 8 (2: not served; 1: internal function)`);
  });
});

describe("headerRevision and the README markers", () => {
  it("reads the revision a port's header names", () => {
    expect(headerRevision("/**\n * Port of x (PostHog revision: 00c79cbc60a8).\n */")).toBe("00c79cbc");
    expect(headerRevision("/**\n * Port of x (revision 1ea05ce0).\n */")).toBe("1ea05ce0");
    expect(headerRevision("/**\n * Port of x (newest stored revision).\n */")).toBe("newest stored");
    expect(headerRevision("// no header\nconst x = 1;")).toBeNull();
  });

  it("replaces only the report between the markers", () => {
    const text = "intro\n<!-- fidelity:start -->\nold\n<!-- fidelity:end -->\nafter";
    expect(replaceBetweenMarkers(text, "new")).toBe(
      "intro\n<!-- fidelity:start -->\nnew\n<!-- fidelity:end -->\nafter",
    );
    expect(() => replaceBetweenMarkers("no markers", "new")).toThrow(/markers/);
  });
});
