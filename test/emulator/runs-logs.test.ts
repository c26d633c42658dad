import { describe, expect, it } from "vitest";
import { P, POSTGRES_EXPORT_ID, reseed, S3_EXPORT_ID, useEmulator } from "./helpers.js";
import { extraErrors, schemaErrors } from "./openapi.js";

const h = useEmulator();
const R = `${P}/batch_exports/${S3_EXPORT_ID}/runs/`;

describe("runs", () => {
  it("pages newest first within the last 7 days by default", async () => {
    const res = await h.api("GET", R);
    expect(res.status).toBe(200);
    expect(schemaErrors("PaginatedBatchExportRunList", res.body)).toEqual([]);
    expect(res.body).not.toHaveProperty("count");
    expect(res.body.results).toHaveLength(48);
    expect(res.body.results[0].status).toBe("Running");
    const created = res.body.results.map((r: { created_at: string }) => r.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    const failed = res.body.results.filter((r: { status: string }) => r.status === "Failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].latest_error).toContain("NoSuchBucket");
    const wide = await h.api("GET", `${R}?after=-30d`);
    expect(wide.body.results).toHaveLength(50);
    const onlyFailed = await h.api("GET", `${R}?status=Failed`);
    expect(onlyFailed.body.results).toHaveLength(1);
  });

  it("follows opaque cursors 100 at a time", async () => {
    await reseed(h, (s) => {
      const template = s.runs[0];
      if (!template) throw new Error("no runs");
      for (let i = 0; i < 150; i++) {
        s.runs.push({
          ...template,
          id: `0190f1d2-9999-7c3a-9d1f-${i.toString(16).padStart(12, "0")}`,
          status: "Completed",
        });
      }
    });
    const first = await h.api("GET", R);
    expect(first.body.results).toHaveLength(100);
    expect(first.body.previous).toBeNull();
    const next = new URL(first.body.next);
    expect(next.searchParams.get("cursor")).toBeTruthy();
    const second = await h.api("GET", `${next.pathname}${next.search}`);
    expect(second.body.results).toHaveLength(98);
    expect(second.body.next).toBeNull();
    expect(second.body.previous).not.toBeNull();
    const ids = new Set([...first.body.results, ...second.body.results].map((r: { id: string }) => r.id));
    expect(ids.size).toBe(198);
    expect((await h.api("GET", `${R}?cursor=garbage`)).status).toBe(404);
  });

  it("retrieves, retries (adding a run) and cancels only running runs", async () => {
    const list = (await h.api("GET", R)).body.results;
    const running = list[0];
    const failed = list.find((r: { status: string }) => r.status === "Failed");
    expect(schemaErrors("BatchExportRun", (await h.api("GET", `${R}${failed.id}/`)).body)).toEqual([]);
    const retry = await h.api("POST", `${R}${failed.id}/retry/`);
    expect(retry.status).toBe(201);
    expect(extraErrors("backfillCreated", retry.body)).toEqual([]);
    const after = (await h.api("GET", R)).body.results;
    expect(after).toHaveLength(49);
    expect(after[0].backfill).toBe(retry.body.backfill_id);
    expect(after[0].data_interval_start).toBe(failed.data_interval_start);
    const bad = await h.api("POST", `${R}${failed.id}/cancel/`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Cannot cancel a run that is in 'Failed' status");
    const ok = await h.api("POST", `${R}${running.id}/cancel/`);
    expect(ok.body).toEqual({ cancelled: true });
    expect((await h.api("GET", `${R}${running.id}/`)).body.status).toBe("Cancelled");
    expect((await h.api("GET", `${R}0190f1d2-0000-7c3a-9d1f-000000000000/`)).status).toBe(404);
  });
});

describe("backfills", () => {
  const BF = `${P}/batch_exports/${S3_EXPORT_ID}/backfills/`;

  it("creates one run per interval and answers 201 {backfill_id}", async () => {
    const end = new Date(Math.floor(h.clock.now() / 3_600_000) * 3_600_000 - 24 * 3_600_000);
    const start = new Date(end.getTime() - 5 * 3_600_000);
    const res = await h.api("POST", BF, { start_at: start.toISOString(), end_at: end.toISOString() });
    expect(res.status).toBe(201);
    expect(extraErrors("backfillCreated", res.body)).toEqual([]);
    const runs = (await h.control("GET", "state")).body.runs.filter(
      (r: { backfill: string }) => r.backfill === res.body.backfill_id,
    );
    expect(runs).toHaveLength(5);
    const one = await h.api("GET", `${BF}${res.body.backfill_id}/`);
    expect(schemaErrors("BatchExportBackfill", one.body)).toEqual([]);
    expect(one.body.progress).toEqual({ total_runs: 5, finished_runs: 5, progress: 1 });
    const cancel = await h.api("POST", `${BF}${res.body.backfill_id}/cancel/`);
    expect(cancel.body.detail).toBe("Cannot cancel a backfill that is in 'Completed' status");
    const legacy = await h.api("POST", `${P}/batch_exports/${S3_EXPORT_ID}/backfill/`, {
      start_at: start.toISOString(),
      end_at: end.toISOString(),
    });
    expect(legacy.status).toBe(201);
  });

  it("validates the window with the service's messages", async () => {
    const post = async (body: unknown) => (await h.api("POST", BF, body)).body.detail;
    expect(await post({ start_at: "yesterday", end_at: "2025-01-01T00:00:00Z" })).toBe(
      "Input yesterday is not a valid ISO formatted datetime.",
    );
    expect(await post({ start_at: "2025-01-01T00:00:00", end_at: "2025-01-02T00:00:00Z" })).toBe(
      "Input 2025-01-01T00:00:00 is naive.",
    );
    expect(await post({ start_at: "2025-01-02T00:00:00Z", end_at: "2025-01-01T00:00:00Z" })).toBe(
      "The initial backfill datetime 'start_at' must be before 'end_at'",
    );
    expect(await post({ start_at: "2025-01-01T00:00:00Z", end_at: "2999-01-01T00:00:00Z" })).toBe(
      "The provided 'end_at' (2999-01-01T00:00:00+00:00) is in the future",
    );
    expect(await post({ start_at: "2025-01-01T00:00:00Z" })).toBe(
      "Backfilling a BatchExport with no end date is not allowed",
    );
    const daily = `${P}/batch_exports/${POSTGRES_EXPORT_ID}/backfills/`;
    const postDaily = async (body: unknown) => h.api("POST", daily, body);
    expect((await postDaily({ start_at: "2025-01-01T00:00:00Z", end_at: "2025-01-03" })).body.detail).toBe(
      "Input '2025-01-01T00:00:00Z' is not a valid ISO formatted date. Daily or weekly batch export backfills expect only the date component, but a time was included.",
    );
    expect((await postDaily({ start_at: "2025-01-01", end_at: "2025-01-03" })).status).toBe(201);
    const missing = await h.api(
      "POST",
      `${P}/batch_exports/0190f1d2-0000-7c3a-9d1f-000000000000/backfills/`,
      {},
    );
    expect(missing.status).toBe(404);
  });
});

describe("logs", () => {
  const L = `${P}/batch_exports/${S3_EXPORT_ID}/logs/`;

  it("lists entries newest first in the limit/offset envelope with filters", async () => {
    const res = await h.api("GET", L);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(50);
    expect(res.body.count).toBeGreaterThan(50);
    for (const e of res.body.results) expect(extraErrors("logEntry", e)).toEqual([]);
    const times = res.body.results.map((e: { timestamp: string }) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const errors = await h.api("GET", `${L}?level=error,warning&limit=500`);
    expect(new Set(errors.body.results.map((e: { level: string }) => e.level))).toEqual(
      new Set(["ERROR", "WARNING"]),
    );
    const search = await h.api("GET", `${L}?search=NOSUCHBUCKET`);
    expect(search.body.results).toHaveLength(1);
    expect((await h.api("GET", `${L}?limit=0`)).status).toBe(400);
    expect((await h.api("GET", `${L}?limit=501`)).body.detail).toBe(
      "Ensure this value is less than or equal to 500.",
    );
    const recent = await h.api("GET", `${L}?after=-3h&limit=500`);
    expect(recent.body.results.length).toBeGreaterThan(0);
    expect(recent.body.results.length).toBeLessThan(10);
  });

  it("lists one run's entries, and the organization route works too", async () => {
    const failed = (await h.api("GET", `${P}/batch_exports/${S3_EXPORT_ID}/runs/?status=Failed`)).body
      .results[0];
    const res = await h.api("GET", `${P}/batch_exports/${S3_EXPORT_ID}/runs/${failed.id}/logs/`);
    expect(res.body.results.map((e: { level: string }) => e.level).sort()).toEqual(["ERROR", "INFO"]);
    expect(res.body.results.every((e: { instance_id: string }) => e.instance_id === failed.id)).toBe(true);
    const org = await h.api("GET", `/api/organizations/@current/batch_exports/${POSTGRES_EXPORT_ID}/logs/`);
    expect(org.status).toBe(200);
    expect(org.body.count).toBe(6);
  });
});

describe("the default seed's activity", () => {
  it("never dates a run in the future, even in the first minute of an hour", async () => {
    const { runsAndLogs } = await import("../../src/emulator/sample-activity.js");
    for (const at of ["2026-11-21T07:00:16Z", "2026-11-21T07:00:59Z", "2026-11-21T07:30:00Z"]) {
      const now = Date.parse(at);
      const { runs, logs } = runsAndLogs(now);
      expect(runs.filter((r) => Date.parse(r.created_at) > now)).toEqual([]);
      expect(logs.filter((l) => Date.parse(l.timestamp) > now)).toEqual([]);
      expect(runs.filter((r) => Date.parse(r.created_at) > now - 7 * 86_400_000)).toHaveLength(48 + 3);
    }
  });
});
