/**
 * `npm run test:live` exists and, without a real PostHog to talk to, skips with one clear line and
 * exits 0; its files are not part of the default run (a shell holding a real key never makes
 * `npm test` touch a real project).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runNode } from "../support/emulator.js";

describe("the live acceptance suite", () => {
  it("is an npm script outside the default test run", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts["test:live"]).toBe("vitest run --config test/live/vitest.config.ts");
    const main = readFileSync(join(ROOT, "vitest.config.ts"), "utf8");
    expect(main).toContain('include: ["test/**/*.test.ts"]');
  });

  it("skips with one line when POSTHOG_HOST, POSTHOG_API_KEY and POSTHOG_PROJECT_ID are not set", async () => {
    const vitest = join(ROOT, "node_modules/vitest/vitest.mjs");
    const run = await runNode([vitest, "run", "--config", "test/live/vitest.config.ts"], {}, ROOT, 60_000);
    expect(run.code, run.stderr).toBe(0);
    const line =
      "live tests skipped: set POSTHOG_HOST, POSTHOG_API_KEY and POSTHOG_PROJECT_ID to run them against a real PostHog\n";
    expect(`${run.stdout}${run.stderr}`.split(line)).toHaveLength(2);
    expect(run.stdout).toMatch(/Tests\s+\d+ skipped/);
  });
});
