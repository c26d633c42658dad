/**
 * Golden bad inputs: each test/golden/config/<case>.yaml is loaded alone (validate mode, a fixed
 * environment) and its formatted diagnostics must equal <case>.expected byte for byte.
 * UPDATE_GOLDEN=1 rewrites the .expected files (review the diff before committing).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/index.js";
import { loadConfig } from "../../src/index.js";

const folder = join(import.meta.dirname, "../golden/config");
const cases = readdirSync(folder)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => f.slice(0, -".yaml".length))
  .sort();
const env = { REGION: "us-east-1" };

/** Adding or removing a case changes this on purpose: a case lost by accident fails here. */
const CASES = 60;

describe("golden bad inputs", () => {
  it(`has exactly ${CASES} cases, each with its expected diagnostics`, () => {
    expect(cases).toHaveLength(CASES);
    const expected = readdirSync(folder).filter((f) => f.endsWith(".expected"));
    expect(expected.map((f) => f.slice(0, -".expected".length)).sort()).toEqual(cases);
  });

  it.each(cases)("%s", async (name) => {
    const result = await loadConfig([`${name}.yaml`], { env, cwd: folder, mode: "validate" });
    const actual = result.diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join("");
    const expectedPath = join(folder, `${name}.expected`);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(expectedPath, actual);
    const golden = readFileSync(expectedPath, "utf8");
    expect(actual).toBe(golden);
    // Every case is a bad input, with exactly as many diagnostics as its golden file has lines.
    expect(result.diagnostics).toHaveLength(golden.split("\n").filter(Boolean).length);
    expect(result.diagnostics.length).toBeGreaterThan(0);
  });
});
