/**
 * Hostile-input campaign (issue 8, SPEC §6): generated files never make loadConfig throw or stall,
 * never pollute a prototype, never open a socket, and every diagnostic points at file:line:column.
 * The same files through `validate` (no key set) exit 0 or 1, never with an internal error; when they
 * hold an error, `plan` exits 1 without connecting. FUZZ_RUNS (default 200) sets the size, FUZZ_SEED
 * replays a failure (fast-check prints both the seed and the shrunk counterexample).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { loadConfig } from "../../src/index.js";
import { memoryIo } from "../support/io.js";
import { hostileFile } from "./arbitraries.js";
import { foreignPrototypes, guardNetwork, type NetworkGuard, prototypeSnapshot } from "./guard.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? "200");
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const PER_RUN_MS = 5_000;
const EXAMPLE = readFileSync(
  new URL("../fixtures/single-project/production/dashboards.yaml", import.meta.url),
  "utf8",
);
const ENV = { AWS_ACCESS_KEY_ID: "AKIAFUZZ", AWS_SECRET_ACCESS_KEY: "fuzz", PG_USER: "u", PG_PASSWORD: "p" };

let root: string;
let guard: NetworkGuard;
let counter = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "phgo-fuzz-"));
  guard = guardNetwork();
});
afterAll(() => {
  guard.restore();
  rmSync(root, { recursive: true, force: true });
});

function writeRun(files: Uint8Array[]): string {
  const dir = join(root, String(counter++));
  mkdirSync(dir);
  for (const [i, bytes] of files.entries()) writeFileSync(join(dir, `file-${i}.yaml`), bytes);
  return dir;
}

describe(`hostile configuration files (${RUNS} runs)`, () => {
  it(
    "loadConfig resolves quickly with positioned diagnostics, no pollution and no socket",
    async () => {
      const prototypes = prototypeSnapshot();
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileFile(EXAMPLE), { minLength: 1, maxLength: 3 }),
          fc.constantFrom("validate" as const, "plan" as const, "apply" as const),
          async (files, mode) => {
            const dir = writeRun(files);
            // fast-check's `timeout` below fails a run that hangs; no wall-clock assertion here.
            const result = await loadConfig(["."], { env: ENV, cwd: dir, mode });
            for (const d of result.diagnostics) {
              expect(["error", "warning", "note"]).toContain(d.severity);
              expect(d.file).toMatch(/^file-\d\.yaml$/);
              expect(
                Number.isInteger(d.line) && d.line >= 1,
                `${d.file}:${d.line}:${d.column} ${d.message}`,
              ).toBe(true);
              expect(
                Number.isInteger(d.column) && d.column >= 1,
                `${d.file}:${d.line}:${d.column} ${d.message}`,
              ).toBe(true);
              expect(d.message.length).toBeGreaterThan(0);
            }
            expect(foreignPrototypes(result)).toEqual([]);
            expect(prototypeSnapshot()).toBe(prototypes);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
            expect(guard.attempts).toEqual([]);
          },
        ),
        { numRuns: RUNS, timeout: PER_RUN_MS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    },
    60_000 + RUNS * 200,
  );

  it(
    "validate needs no key and never fails internally; plan on an invalid file sends nothing",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileFile(EXAMPLE), { minLength: 1, maxLength: 2 }), async (files) => {
          const dir = writeRun(files);
          const validate = memoryIo({ ...ENV }, dir);
          const code = await main(["node", "posthog-gitops", "validate", "."], validate.io.env, validate.io);
          expect(validate.stderr).not.toMatch(/internal error/);
          expect([0, 1]).toContain(code);
          if (code === 1) {
            const env = { ...ENV, POSTHOG_HOST: "http://127.0.0.1:9", POSTHOG_API_KEY: "phx_fuzz" };
            const plan = memoryIo(env, dir);
            expect(await main(["node", "posthog-gitops", "plan", "."], env, plan.io)).toBe(1);
            expect(plan.stderr).not.toMatch(/internal error/);
          }
          expect(guard.attempts).toEqual([]);
        }),
        {
          numRuns: Math.max(10, Math.floor(RUNS / 4)),
          timeout: PER_RUN_MS,
          ...(SEED === undefined ? {} : { seed: SEED }),
        },
      );
    },
    60_000 + RUNS * 200,
  );

  it("validate passes a valid example with no key and no socket", async () => {
    const io = memoryIo({ ...ENV }, new URL("../../", import.meta.url).pathname);
    const code = await main(
      ["node", "posthog-gitops", "validate", "test/fixtures/single-project/production"],
      io.io.env,
      io.io,
    );
    expect(io.stderr).not.toMatch(/POSTHOG_API_KEY|internal error/);
    expect(code).toBe(0);
    expect(guard.attempts).toEqual([]);
  });
});
