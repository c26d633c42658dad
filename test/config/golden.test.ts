/**
 * Golden bad inputs: each test/golden/config/<case>.yaml is loaded alone (validate mode, a fixed
 * environment) and its formatted diagnostics must equal <case>.expected byte for byte.
 * UPDATE_GOLDEN=1 rewrites the .expected files (review the diff before committing).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { composeSchema, formatDiagnostic } from "../../src/config/index.js";
import { loadConfig } from "../../src/index.js";
import { KINDS } from "../../src/kinds/index.js";

const folder = join(import.meta.dirname, "../golden/config");
const cases = readdirSync(folder)
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => f.slice(0, -".yaml".length))
  .sort();
const env = { REGION: "us-east-1" };

/** Adding or removing a case changes this on purpose: a case lost by accident fails here. */
const CASES = 62;

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

/**
 * The build compiles the built-in schema ahead of time (scripts/build-validator.mjs); the CLI in dist/
 * validates with that code. It must be current (the schema text it was made from is the one composed
 * now, or dist/ would silently fall back to compiling) and give the same diagnostics byte for byte.
 * `npm test` builds first.
 */
describe("golden bad inputs through the build's precompiled validator", () => {
  const dist = join(import.meta.dirname, "../../dist");

  it("is current with the kinds' schema", async () => {
    const generated = join(dist, "config/schema-validator.generated.cjs");
    const built = createRequire(import.meta.url)(generated) as { schemaText: string };
    expect(built.schemaText).toBe(JSON.stringify(composeSchema(KINDS)));
  });

  it.each(cases)("%s", async (name) => {
    const built = (await import(
      pathToFileURL(join(dist, "index.js")).href
    )) as typeof import("../../src/index.js");
    const result = await built.loadConfig([`${name}.yaml`], { env, cwd: folder, mode: "validate" });
    const actual = result.diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join("");
    expect(actual).toBe(readFileSync(join(folder, `${name}.expected`), "utf8"));
  });
});
