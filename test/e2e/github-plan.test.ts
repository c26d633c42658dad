/**
 * `plan` in GitHub Actions with a plan too long for a pull-request comment: the markdown on stdout (what
 * the comment gets) is cut under 65,536 characters and points to the run's job summary, which receives
 * the whole plan.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";

const h = useEmulator();

describe("plan in GitHub Actions", () => {
  it("cuts the comment, links the job summary, and puts the whole plan in the job summary", async () => {
    const description = "A dashboard description long enough to make each section of the plan count. ".repeat(
      2,
    );
    const dashboards = Array.from(
      { length: 600 },
      (_, i) => `  - name: Generated ${String(i).padStart(4, "0")}\n    description: ${description}\n`,
    );
    h.write("p/d.yaml", `project: 12345\ndashboards:\n${dashboards.join("")}`);
    const summary = join(h.dir, "summary.md");
    const result = await h.cli(["plan", "--format", "markdown", "p"], {
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_SERVER_URL: "https://github.example",
      GITHUB_REPOSITORY: "acme/analytics",
      GITHUB_RUN_ID: "4242",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.length).toBeLessThanOrEqual(65_536);
    expect(result.stdout).toContain("https://github.example/acme/analytics/actions/runs/4242");
    const whole = readFileSync(summary, "utf8");
    expect(whole.length).toBeGreaterThan(65_536);
    expect(whole).toContain("Generated 0599");
    expect(whole).not.toContain("left out");
  });
});
