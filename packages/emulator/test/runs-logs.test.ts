/**
 * Runs, backfills and logs under the newest rules (service-api.md §0, §4): the 7-day window on every
 * run action, the repeatable status filter, retry's workflow id, the backfill checks in the service's
 * order, the earliest backfill of an unpause without a pause time, and the logs envelope. The 2025
 * answers are pinned in older-rules.test.ts.
 */

import { RUN_STATUSES } from "posthog-gitops-shared/posthog";
import { describe, expect, it } from "vitest";
import { OLD_RUN_ID } from "../src/default-seed.js";
import { extraErrors, schemaErrors } from "./openapi.js";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;
const R = `${B}${S3_EXPORT_ID}/runs/`;
const error = (detail: string, attr: string | null = null, code = "invalid_input") => ({
  type: "validation_error",
  code,
  detail,
  attr,
});
const serverError = { type: "server_error", code: "error", detail: "A server error occurred.", attr: null };

describe("runs", () => {
  it("pages newest first within the last 7 days by default, filtered by repeatable exact statuses", async () => {
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
    expect(wide.body.results.map((r: { id: string }) => r.id)).toContain(OLD_RUN_ID);
    expect((await h.api("GET", `${R}?status=Failed`)).body.results).toHaveLength(1);
    const two = await h.api("GET", `${R}?status=Failed&status=Running`);
    expect(two.body.results.map((r: { status: string }) => r.status).sort()).toEqual(["Failed", "Running"]);
    expect((await h.api("GET", `${R}?status=Completed&status=failed`)).body).toEqual(
      error('"failed" is not a valid choice.', "status__1", "invalid_choice"),
    );
    expect((await h.api("GET", `${R}?status=Failed,Running`)).status).toBe(400);
  });

  it("takes every run status the CLI's --status sends (both read src/posthog.ts's list)", async () => {
    const statuses = RUN_STATUSES.map((status) => `status=${status}`).join("&");
    expect((await h.api("GET", `${R}?${statuses}`)).status).toBe(200);
  });

  it("follows opaque cursors 100 at a time", async () => {
    await h.reseed((s) => {
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

  it("retrieves, retries with the backfill workflow's id (201) and cancels only running runs", async () => {
    const list = (await h.api("GET", R)).body.results;
    const running = list[0];
    const failed = list.find((r: { status: string }) => r.status === "Failed");
    expect(schemaErrors("BatchExportRun", (await h.api("GET", `${R}${failed.id}/`)).body)).toEqual([]);
    const retry = await h.api("POST", `${R}${failed.id}/retry/`);
    expect(retry.status).toBe(201);
    const iso = (t: string) => t.replace(".000Z", "+00:00");
    expect(retry.body).toEqual({
      backfill_id: `${S3_EXPORT_ID}-Backfill-${iso(failed.data_interval_start)}-${iso(failed.data_interval_end)}`,
    });
    const after = (await h.api("GET", R)).body.results;
    expect(after).toHaveLength(49);
    expect(after[0].data_interval_start).toBe(failed.data_interval_start);
    const backfills = (await h.api("GET", `${B}${S3_EXPORT_ID}/backfills/`)).body.results;
    expect(backfills).toHaveLength(1);
    expect(after[0].backfill).toBe(backfills[0].id);
    const bad = await h.api("POST", `${R}${failed.id}/cancel/`);
    expect(bad.body).toEqual(error("Cannot cancel a run that is in 'Failed' status"));
    const ok = await h.api("POST", `${R}${running.id}/cancel/`);
    expect(ok.body).toEqual({ cancelled: true });
    expect((await h.api("GET", `${R}${running.id}/`)).body.status).toBe("Cancelled");
    expect((await h.api("GET", `${R}0190f1d2-0000-7c3a-9d1f-000000000000/`)).status).toBe(404);
  });

  it("answers 404 for a run older than 7 days on every run action unless after= widens the window", async () => {
    const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null };
    for (const [method, path] of [
      ["GET", `${R}${OLD_RUN_ID}/`],
      ["POST", `${R}${OLD_RUN_ID}/retry/`],
      ["POST", `${R}${OLD_RUN_ID}/cancel/`],
      ["GET", `${R}${OLD_RUN_ID}/logs/`],
    ] as const) {
      const res = await h.api(method, path);
      expect([path, res.status, res.body]).toEqual([path, 404, notFound]);
    }
    const relative = await h.api("GET", `${R}${OLD_RUN_ID}/?after=-30d`);
    expect(relative.status).toBe(200);
    expect(relative.body.id).toBe(OLD_RUN_ID);
    const iso = await h.api("POST", `${R}${OLD_RUN_ID}/retry/?after=2026-10-01T00:00:00Z`);
    expect(iso.status).toBe(201);
    const cancel = await h.api("POST", `${R}${OLD_RUN_ID}/cancel/?after=-30d`);
    expect(cancel.body).toEqual(error("Cannot cancel a run that is in 'Completed' status"));
    // The status filter is part of the window too.
    const failed = (await h.api("GET", `${R}?status=Failed`)).body.results[0];
    expect((await h.api("GET", `${R}${failed.id}/?status=Completed`)).status).toBe(404);
  });
});

describe("backfills", () => {
  const BF = `${B}${S3_EXPORT_ID}/backfills/`;
  const hourAgo = (hours: number) =>
    new Date(Math.floor(h.clock.now() / 3_600_000) * 3_600_000 - hours * 3_600_000).toISOString();

  it("create one run per interval and answer 201 {backfill_id} with a UUID", async () => {
    const end = hourAgo(24);
    const res = await h.api("POST", BF, { start_at: hourAgo(29), end_at: end });
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
    expect(cancel.body).toEqual(error("Cannot cancel a backfill that is in 'Completed' status"));
    // The deprecated alias stays in the default mode (SPEC §5) and answers like the new route.
    const legacy = await h.api("POST", `${B}${S3_EXPORT_ID}/backfill/`, {
      start_at: hourAgo(29),
      end_at: end,
    });
    expect(legacy.status).toBe(201);
    expect(extraErrors("backfillCreated", legacy.body)).toEqual([]);
  });

  it("check hourly bounds with the service's messages", async () => {
    const post = async (body: unknown) => (await h.api("POST", BF, body)).body;
    expect(await post({ start_at: "yesterday", end_at: "2025-01-01T00:00:00Z" })).toEqual(
      error("Input yesterday is not a valid ISO formatted datetime."),
    );
    expect(await post({ start_at: "2025-01-01T00:00:00", end_at: "2025-01-02T00:00:00Z" })).toEqual(
      error("Input 2025-01-01T00:00:00 is naive."),
    );
    expect(await post({ start_at: "2025-01-02T00:00:00Z", end_at: "2025-01-01T00:00:00Z" })).toEqual(
      error("The initial backfill datetime 'start_at' must be before 'end_at'"),
    );
    expect(await post({ start_at: "2025-01-01T00:00:00Z", end_at: "2999-01-01T00:00:00.5+02:00" })).toEqual(
      error("The provided 'end_at' (2999-01-01T00:00:00.500000+02:00) is in the future"),
    );
    const missing = await h.api("POST", `${B}0190f1d2-0000-7c3a-9d1f-000000000000/backfills/`, {});
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("BatchExport not found.");
  });

  it("refuse a backfill from the beginning without the flag, and escape as 500 without an end", async () => {
    expect((await h.api("POST", BF, { end_at: hourAgo(2) })).body).toEqual(
      error("Backfilling from the beginning of time is not enabled for this team."),
    );
    const noEnd = await h.api("POST", BF, { start_at: hourAgo(5) });
    expect(noEnd.status).toBe(500);
    expect(noEnd.body).toEqual(serverError);
    await h.reseed((s) => {
      s.service.feature_flags["batch-export-earliest-backfill"] = true;
    });
    const earliest = await h.api("POST", BF, { start_at: null, end_at: hourAgo(2) });
    expect(earliest.status).toBe(201);
    const made = await h.api("GET", `${BF}${earliest.body.backfill_id}/`);
    expect(made.body.start_at).toBeNull();
  });

  it("take dates only for daily and weekly exports, at the export's hour, zone and weekday", async () => {
    const daily = `${B}${POSTGRES_EXPORT_ID}/backfills/`;
    expect(
      (await h.api("POST", daily, { start_at: "2025-01-01T00:00:00Z", end_at: "2025-01-03" })).body,
    ).toEqual(
      error(
        "Input '2025-01-01T00:00:00Z' is not a valid ISO formatted date. Daily or weekly batch export backfills expect only the date component, but a time was included.",
      ),
    );
    expect((await h.api("POST", daily, { start_at: "soon", end_at: "2025-01-03" })).body).toEqual(
      error("Input 'soon' is not a valid ISO formatted date."),
    );
    expect((await h.api("POST", daily, { start_at: "2025-01-01", end_at: "2025-01-03" })).status).toBe(201);
    const weekly = await h.api("POST", B, {
      name: "Weekly",
      interval: "week",
      offset_day: 1,
      offset_hour: 6,
      timezone: "Europe/Berlin",
      destination: { type: "NoOp", config: {} },
    });
    const WB = `${B}${weekly.body.id}/backfills/`;
    expect((await h.api("POST", WB, { start_at: "2026-01-04", end_at: "2026-01-12" })).body).toEqual(
      error(
        "Input 2026-01-04 is not on the correct day of the week for this batch export. 2026-01-04 is a Sunday but this batch export is configured to run weekly on Monday.",
      ),
    );
    const ok = await h.api("POST", WB, { start_at: "2026-01-05", end_at: "2026-01-12" });
    expect(ok.status).toBe(201);
    const made = (await h.api("GET", `${WB}${ok.body.backfill_id}/`)).body;
    // Monday 06:00 in Berlin (UTC+1 in January).
    expect([made.start_at, made.end_at]).toEqual(["2026-01-05T05:00:00Z", "2026-01-12T05:00:00Z"]);
    expect((await h.api("POST", WB, { start_at: "2026-01-05", end_at: "2999-01-07" })).body).toEqual(
      error("The provided 'end_at' (2999-01-07T06:00:00+01:00) is in the future"),
    );
  });

  it("find soft-deleted exports (the view does not exclude them) and limit running backfills per team", async () => {
    await h.api("DELETE", `${B}${S3_EXPORT_ID}/`);
    expect((await h.api("POST", BF, { start_at: hourAgo(3), end_at: hourAgo(2) })).status).toBe(201);
    await h.reseed((s) => {
      s.service.max_concurrent_backfills = 2;
      for (const n of [1, 2]) {
        s.backfills.push({
          id: `0190f1d2-aaaa-7c3a-9d1f-00000000000${n}`,
          batch_export: POSTGRES_EXPORT_ID,
          team_id: 12345,
          start_at: null,
          end_at: null,
          status: "Running",
          created_at: hourAgo(1),
          finished_at: null,
          last_updated_at: hourAgo(1),
          total_records_count: null,
        });
      }
    });
    const res = await h.api("POST", `${B}${POSTGRES_EXPORT_ID}/backfills/`, {
      start_at: "2025-01-01",
      end_at: "2025-01-03",
    });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      type: "server_error",
      code: "too_many_concurrent_backfills",
      detail:
        "This team already has 2 batch export backfills running. Wait for some to finish or cancel them before creating more.",
      attr: null,
    });
    expect(res.headers.get("retry-after")).toBeNull();
  });
});

describe("unpause with backfill", () => {
  it("starts an earliest backfill (start_at null) for an export paused without /pause/", async () => {
    const created = await h.api("POST", B, {
      name: "Paused on create",
      interval: "hour",
      paused: true,
      destination: { type: "NoOp", config: {} },
    });
    expect(created.body.last_paused_at).toBeNull();
    const bad = await h.api("POST", `${B}0190f1d2-0000-7c3a-9d1f-000000000000/unpause/`, {
      backfill: "maybe",
    });
    expect(bad.body).toEqual(error("Must be a valid boolean.", "backfill"));
    const res = await h.api("POST", `${B}${created.body.id}/unpause/`, { backfill: true });
    expect(res.body).toEqual({ paused: false });
    const backfills = (await h.api("GET", `${B}${created.body.id}/backfills/`)).body.results;
    expect(backfills).toHaveLength(1);
    expect(backfills[0].start_at).toBeNull();
    expect(Date.parse(backfills[0].end_at)).toBeGreaterThan(h.clock.now() - 60_000);
    const runs = (await h.control("GET", "state")).body.runs.filter(
      (r: { backfill: string }) => r.backfill === backfills[0].id,
    );
    expect(runs.map((r: { data_interval_start: string | null }) => r.data_interval_start)).toEqual([null]);
  });
});

describe("logs", () => {
  const L = `${B}${S3_EXPORT_ID}/logs/`;

  it("fetch at most limit entries, newest first, with count = entries fetched and next always null", async () => {
    const res = await h.api("GET", L);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 50, next: null, previous: null });
    expect(res.body.results).toHaveLength(50);
    for (const e of res.body.results) expect(extraErrors("logEntry", e)).toEqual([]);
    const times = res.body.results.map((e: { timestamp: string }) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const all = await h.api("GET", `${L}?limit=500`);
    expect(all.body.count).toBe(all.body.results.length);
    expect(all.body.count).toBeGreaterThan(50);
    const offset = await h.api("GET", `${L}?limit=20&offset=15`);
    expect(offset.body.count).toBe(20);
    expect(offset.body.results).toHaveLength(5);
    expect(offset.body.next).toBeNull();
    expect(new URL(offset.body.previous).search).toBe("?limit=20");
  });

  it("take one comma-separated level string, the last when repeated, untrimmed", async () => {
    const levels = async (query: string) =>
      new Set(
        (await h.api("GET", `${L}?limit=500&${query}`)).body.results.map((e: { level: string }) => e.level),
      );
    expect(await levels("level=error,warning")).toEqual(new Set(["ERROR", "WARNING"]));
    expect(await levels("level=ERROR&level=warning")).toEqual(new Set(["WARNING"]));
    expect(await levels("level=error,%20warning")).toEqual(new Set(["ERROR"]));
    expect((await h.api("GET", `${L}?level=`)).body).toEqual(
      error("This field may not be blank.", "level", "blank"),
    );
  });

  it("check limit, ISO-only after/before, search and instance_id", async () => {
    expect((await h.api("GET", `${L}?limit=0`)).body).toEqual(
      error("Ensure this value is greater than or equal to 1.", "limit", "min_value"),
    );
    expect((await h.api("GET", `${L}?limit=501`)).body).toEqual(
      error("Ensure this value is less than or equal to 500.", "limit", "max_value"),
    );
    expect((await h.api("GET", `${L}?after=-3h`)).body).toEqual(
      error(
        "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
        "after",
      ),
    );
    const recent = await h.api(
      "GET",
      `${L}?limit=500&after=${new Date(h.clock.now() - 3 * 3_600_000).toISOString()}`,
    );
    expect(recent.body.results.length).toBeGreaterThan(0);
    expect(recent.body.results.length).toBeLessThan(10);
    expect((await h.api("GET", `${L}?search=NOSUCHBUCKET`)).body.results).toHaveLength(1);
    const failed = (await h.api("GET", `${R}?status=Failed`)).body.results[0];
    const one = await h.api("GET", `${L}?instance_id=${failed.id}`);
    expect(one.body.results.map((e: { level: string }) => e.level).sort()).toEqual(["ERROR", "INFO"]);
    expect(one.body.results.every((e: { instance_id: string }) => e.instance_id === failed.id)).toBe(true);
  });

  it("answer 500 on the run logs route, after its window and parameter checks [inferred]", async () => {
    const failed = (await h.api("GET", `${R}?status=Failed`)).body.results[0];
    const res = await h.api("GET", `${R}${failed.id}/logs/`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual(serverError);
    expect((await h.api("GET", `${R}${failed.id}/logs/?limit=501`)).status).toBe(400);
    const org = await h.api("GET", `/api/organizations/@current/batch_exports/${POSTGRES_EXPORT_ID}/logs/`);
    expect(org.status).toBe(200);
    expect(org.body.count).toBe(6);
  });
});

describe("the default seed's activity", () => {
  it("never dates a run in the future, even in the first minute of an hour", async () => {
    const { runsAndLogs } = await import("../src/sample-activity.js");
    for (const at of ["2026-11-21T07:00:16Z", "2026-11-21T07:00:59Z", "2026-11-21T07:30:00Z"]) {
      const now = Date.parse(at);
      const { runs, logs } = runsAndLogs(now);
      expect(runs.filter((r) => Date.parse(r.created_at) > now)).toEqual([]);
      expect(logs.filter((l) => Date.parse(l.timestamp) > now)).toEqual([]);
      expect(runs.filter((r) => Date.parse(r.created_at) > now - 7 * 86_400_000)).toHaveLength(48 + 3);
      const old = runs.find((r) => r.id === OLD_RUN_ID);
      expect(Math.round((now - Date.parse(old?.created_at ?? "")) / 86_400_000)).toBe(10);
    }
  });
});
