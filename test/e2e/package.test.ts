/**
 * The package as a newcomer gets it (issue 21): packed from a fresh clone, which has no dist/, the
 * tarball holds the built entry points (`npm pack` builds first), installs into an empty project from
 * npm's cache, and there `npx posthog-gitops --version` and the library example of SPEC §7 work.
 * scripts/check-tarball.mjs does the work; this runs it as part of `npm test`.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runNode } from "../support/emulator.js";

describe("the packed package", () => {
  it("packed from a fresh clone, installs, answers --version and runs the SPEC §7 example", async () => {
    // npm finds its cache through HOME; nothing is fetched (the install is --offline).
    const out = await runNode(
      [join(ROOT, "scripts/check-tarball.mjs")],
      { HOME: process.env.HOME },
      ROOT,
      90_000,
    );
    expect(out.stderr).toBe("");
    expect(out.stdout).toMatch(
      /^tarball check: posthog-gitops-[\d.]+\.tgz, packed from a fresh copy, installs into an empty project; npx posthog-gitops --version and the SPEC §7 example work\n$/,
    );
    expect(out.code).toBe(0);
  }, 120_000);
});
