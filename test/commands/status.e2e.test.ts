import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ACME_ID } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { run as status } from "../../src/commands/status.js";
import {
  type PartialState,
  POSTGRES_EXPORT_ID,
  PROJECT_ENV,
  S3_EXPORT_ID,
  useEmulator,
} from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: PROJECT_ENV });

/** Adds a run of the S3 export created `minutesAgo` minutes ago with `status`. */
async function addS3Run(status: string, minutesAgo: number, error: string | null = null) {
  await h.reseed<PartialState>((state) => {
    const created = new Date(h.clock.now() - minutesAgo * 60_000).toISOString();
    state.runs?.push({
      id: `0190f1d2-7b4f-7c3a-9d1f-${String(900_000_000_000 + minutesAgo).padStart(12, "0")}`,
      batch_export: S3_EXPORT_ID,
      status,
      records_completed: null,
      records_failed: 0,
      latest_error: error,
      data_interval_start: new Date(h.clock.now() - (minutesAgo + 60) * 60_000).toISOString(),
      data_interval_end: created,
      cursor: null,
      created_at: created,
      finished_at: created,
      last_updated_at: created,
      records_total_count: null,
      bytes_exported: null,
      backfill: null,
    });
  });
}

describe("status", () => {
  it("shows one row per export of the project, with paused since, latest run and 7-day counts", async () => {
    const out = await h.run(status, { args: [] });
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+DESTINATION\s+INTERVAL\s+PAUSED\s+LAST RUN\s+FAILED 7D\s+RECORDS 7D$/);
    expect(lines[1]).toMatch(
      /^Events to S3\s+AwsS3\s+hour\s+no\s+Completed \S+Z \(\d+m ago\) \(a run in progress\)\s+1\s+[\d,]+$/,
    );
    expect(lines[2]).toMatch(
      /^Persons to Postgres\s+Postgres\s+day\s+since \S+Z \(3d ago\)\s+Completed \S+Z \(3d ago\)\s+0\s+[\d,]+$/,
    );
    expect(out.stdout).not.toContain("\u001b[");
    expect(out.stderr).toBe("2 batch exports: 0 failing, 1 paused, 1 failed run in 7 days\n");
  });

  it("--fail-on-error exits 1 when a latest run failed, and names it with its error", async () => {
    const healthy = await h.run(status, { args: [], failOnError: true });
    expect(healthy.code).toBe(0);
    await addS3Run("Failed", 2, "AccessDenied: bucket policy");
    const failing = await h.run(status, { args: [], failOnError: true });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toMatch(/Events to S3\s+AwsS3\s+hour\s+no\s+Failed \S+Z \(2m ago\)/);
    expect(failing.stdout).toMatch(/^failed Events to S3 \(run .+\): AccessDenied: bucket policy$/m);
    expect(failing.stderr).toContain("1 failing");
    const withoutFlag = await h.run(status, { args: [] });
    expect(withoutFlag.code).toBe(0);
  });

  it("--format json follows schemas/status.schema.json", async () => {
    await addS3Run("FailedRetryable", 1);
    const out = await h.run(status, { args: [], format: "json", failOnError: true });
    expect(out.code).toBe(1);
    const doc = validJson("status", out.stdout);
    const s3 = doc.exports.find((e: { id: string }) => e.id === S3_EXPORT_ID);
    expect(s3.latest_run.status).toBe("FailedRetryable");
    expect(s3.failed_in_window).toBe(2);
    expect(s3.running).toBe(true);
    const pg = doc.exports.find((e: { id: string }) => e.id === POSTGRES_EXPORT_ID);
    expect(pg.paused).toBe(true);
    expect(pg.paused_since).toMatch(/T00:00:00/);
    expect(doc.summary).toMatchObject({ exports: 2, failing: 1, paused: 1, failed_runs: 2 });
    expect(doc.scope).toEqual({ organization: null, projects: [12345] });
  });

  it("--organization lists every project's exports through the organization endpoint", async () => {
    await h.reseed<PartialState>((state) => {
      state.batch_exports?.push({
        id: "0190f1d2-7b4e-7c3a-9d1f-0000000e0099",
        team_id: 12346,
        name: "Staging NoOp",
        model: "events",
        interval: "hour",
        destination: { type: "NoOp", config: {} },
      });
    });
    await h.clearRequests();
    const out = await h.run(
      status,
      { args: [], organization: ACME_ID, format: "json" },
      { env: { POSTHOG_PROJECT_ID: undefined } },
    );
    expect(out.code).toBe(0);
    const doc = validJson("status", out.stdout);
    expect(doc.scope).toEqual({ organization: ACME_ID, projects: [12345, 12346] });
    expect(doc.exports.map((e: { name: string }) => e.name)).toEqual([
      "Events to S3",
      "Persons to Postgres",
      "Staging NoOp",
    ]);
    const paths = (await h.requests()).map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain(`GET /api/organizations/${ACME_ID}/batch_exports/`);
    expect(paths.filter((p) => p.includes("/api/projects/") && !p.includes("/runs/"))).toEqual([]);
    const text = await h.run(status, { args: [], organization: ACME_ID });
    expect(text.stdout.split("\n")[0]).toMatch(/^PROJECT\s+NAME/);
    expect(text.stdout).toMatch(/^12346\s+Staging NoOp\s+NoOp\s+hour\s+no\s+never ran\s+0\s+0$/m);
  });

  it.each([true, false])(
    "--organization through the real CLI with legacy_routes %s: the same answer, GET requests only",
    async (legacyRoutes) => {
      await h.reseed<PartialState>((state) => {
        state.batch_exports?.push({
          id: "0190f1d2-7b4e-7c3a-9d1f-0000000e0099",
          team_id: 12346,
          name: "Staging NoOp",
          model: "events",
          interval: "hour",
          destination: { type: "NoOp", config: {} },
        });
        (state as unknown as { service: { legacy_routes: boolean } }).service.legacy_routes = legacyRoutes;
      });
      await h.clearRequests();
      const out = await h.cli(["status", "--organization", ACME_ID, "--format", "json"], {
        POSTHOG_PROJECT_ID: undefined,
      });
      expect(out.stderr).not.toMatch(/404|Error/);
      expect(out.code).toBe(0);
      const doc = validJson("status", out.stdout);
      expect(doc.scope).toEqual({ organization: ACME_ID, projects: [12345, 12346] });
      expect(doc.exports.map((e: { name: string }) => e.name)).toEqual([
        "Events to S3",
        "Persons to Postgres",
        "Staging NoOp",
      ]);
      const requests = await h.requests();
      expect(requests.every((r) => r.method === "GET")).toBe(true);
      const paths = requests.map((r) => `${r.status} ${r.path}`);
      if (legacyRoutes) {
        expect(paths).toContain(`200 /api/organizations/${ACME_ID}/batch_exports/`);
        expect(paths.some((p) => p.includes(`/organizations/${ACME_ID}/projects/`))).toBe(false);
      } else {
        expect(paths).toContain(`404 /api/organizations/${ACME_ID}/batch_exports/`);
        expect(paths).toContain(`200 /api/organizations/${ACME_ID}/projects/`);
        expect(paths).toContain("200 /api/projects/12345/batch_exports/");
        expect(paths).toContain("200 /api/projects/12346/batch_exports/");
      }
    },
  );

  it("with PATH shows only the declared exports and lists declared ones that are not live", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ops-status-"));
    writeFileSync(
      join(dir, "exports.yaml"),
      [
        "project: 12345",
        "batch_exports:",
        "  - name: Persons to Postgres",
        "    paused: true",
        "  - name: not-yet-created",
        "    interval: hour",
        "",
      ].join("\n"),
    );
    const out = await h.run(status, { args: ["exports.yaml"], format: "json" }, { cwd: dir });
    expect(out.stderr).not.toContain("error");
    expect(out.code).toBe(0);
    const doc = validJson("status", out.stdout);
    expect(doc.exports.map((e: { name: string }) => e.name)).toEqual(["Persons to Postgres"]);
    expect(doc.missing).toEqual([{ project: 12345, name: "not-yet-created" }]);
    const text = await h.run(status, { args: ["exports.yaml"] }, { cwd: dir });
    expect(text.stdout).toContain("missing not-yet-created: declared for project 12345 but not found live");
  });

  it("colours statuses only on a TTY and never with NO_COLOR", async () => {
    let captured = "";
    const tty = {
      stdout: {
        write: (t: string) => {
          captured += t;
        },
        isTTY: true,
      },
    };
    await h.run(status, { args: [] }, { env: { NO_COLOR: undefined }, io: tty });
    expect(captured).toContain("\u001b[32mCompleted");
    captured = "";
    await h.run(status, { args: [] }, { env: { NO_COLOR: "1" }, io: tty });
    expect(captured).not.toContain("\u001b[");
  });

  it("needs a scope, and reports a refused key in one line without the key", async () => {
    const none = await h.run(status, { args: [] }, { env: { POSTHOG_PROJECT_ID: undefined } });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: status needs a scope: pass --project/);
    const verbose = await h.run(status, { args: [], verbose: true });
    expect(verbose.stderr).toMatch(/GET .*batch_exports.* 200/);
    expect(verbose.stderr).toMatch(/^requests: GET 3; retries 0/m);
    const bad = await h.run(status, { args: [] }, { env: { POSTHOG_API_KEY: "phx_not_a_real_key_123" } });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/^error: GET batch_exports: 401/);
    expect(bad.stderr).not.toContain("phx_not_a_real_key_123");
  });

  it("rides out a transient 502 on a runs page (reads are retried)", async () => {
    await h.faults({
      rules: [{ method: "GET", path: "/runs/?$", status: 502, times: 1 }],
    });
    const out = await h.run(status, { args: [], format: "json" });
    expect(out.code).toBe(0);
    expect(validJson("status", out.stdout).summary.exports).toBe(2);
    const statuses = (await h.requests()).filter((r) => r.path.endsWith("/runs/")).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 200, 502]);
  });
});
