/**
 * The real CLI end to end: `node bin/posthog-gitops.js status|runs|backfill ...` against the emulator,
 * checking exit codes, stdout/stderr separation and that the key never shows. Needs `npm run build`
 * (`npm test` builds first).
 */

import { systemClock } from "posthog-gitops-shared/clock";
import { describe, expect, it } from "vitest";
import { KEY, PROJECT_ENV, ROOT, spawnCli, useEmulator } from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

// The spawned CLI reads the system clock, so the emulator does too: both agree on "now" at any date.
const h = useEmulator({ clock: systemClock, env: PROJECT_ENV });

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  spawnCli(args, h.env(env), ROOT);

describe("the built CLI", () => {
  it("status --format json --fail-on-error: valid JSON on stdout, summary on stderr, exit by outcome", async () => {
    const ok = await cli(["status", "--format", "json", "--fail-on-error"]);
    expect(ok.stderr).toBe("2 batch exports: 0 failing, 1 paused, 1 failed run in 7 days\n");
    expect(ok.code).toBe(0);
    expect(validJson("status", ok.stdout).summary.exports).toBe(2);
    await h.faults({ rules: [{ method: "GET", path: "/batch_exports/?$", status: 403 }] });
    const refused = await cli(["status"]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^error: GET batch_exports: 403/);
    for (const out of [ok, refused]) expect(out.stdout + out.stderr).not.toContain(KEY);
  });

  it("backfill refuses a naive time with exit 1 and sends nothing", async () => {
    await h.clearRequests();
    const out = await cli(["backfill", "Events to S3", "--start", "2026-01-01T00:00:00", "--end", "-1h"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("error: --start 2026-01-01T00:00:00 has no timezone");
    expect(await h.requests()).toEqual([]);
  });

  it("runs and events pass options through commander", async () => {
    const runs = await cli(["runs", "Events to S3", "--status", "Failed", "--format", "json"]);
    expect(runs.code).toBe(0);
    expect(validJson("runs", runs.stdout).runs).toHaveLength(1);
    const events = await cli([
      "events",
      "--where",
      "$browser=Safari",
      "--where",
      "$os=Windows",
      "--limit",
      "5",
      "--format",
      "csv",
    ]);
    expect(events.code).toBe(0);
    const rows = events.stdout.trimEnd().split("\r\n");
    expect(rows).toHaveLength(6);
    for (const row of rows.slice(1)) expect(row).toMatch(/""\$browser"":""Safari""/);
  });
});

describe("the operations commands read only the declarations they need", () => {
  it("run while another kind's files have errors that stop plan", async () => {
    h.write(
      "posthog/exports.yaml",
      "project: 12345\nbatch_exports:\n  - name: Events to S3\n    paused: false\n",
    );
    // A dashboard with a schema error and a flag naming an unset variable: plan stops on both.
    h.write(
      "posthog/broken.yaml",
      "project: 12345\nvariables: [TEAM_NAME]\ndashboards:\n  - name: Weekly\n    pinned: perhaps\nfeature_flags:\n  - key: f\n    name: ${TEAM_NAME}\n",
    );
    const plan = await h.cli(["plan"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("posthog/broken.yaml:5:13: error:");
    for (const args of [
      ["runs", "Events to S3"],
      ["logs", "Events to S3", "--limit", "1"],
      ["status"],
      ["members"],
      ["events", "--limit", "1"],
    ]) {
      const out = await h.cli(args);
      expect(out.code, `${args[0]}: ${out.stderr}`).toBe(0);
      expect(out.stderr, args[0]).not.toContain("broken.yaml");
    }
  });
});
