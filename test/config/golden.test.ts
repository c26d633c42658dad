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

describe("golden bad inputs", () => {
  it("has at least 25 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  it.each(cases)("%s", async (name) => {
    const result = await loadConfig([`${name}.yaml`], { env, cwd: folder, mode: "validate" });
    const actual = result.diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join("");
    const expectedPath = join(folder, `${name}.expected`);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(expectedPath, actual);
    expect(actual).toBe(readFileSync(expectedPath, "utf8"));
    // Every case is a bad input: it must produce at least one diagnostic.
    expect(result.diagnostics.length).toBeGreaterThan(0);
  });
});
