import { describe, expect, it } from "vitest";
import { run as backfill } from "../../src/commands/backfill.js";
import { run as runs } from "../../src/commands/runs.js";
import { PROJECT_ENV, S3_EXPORT_ID, useEmulator } from "../support/emulator.js";
import { testClock } from "../support/io.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: PROJECT_ENV });
const S3 = "Events to S3";
const PG = "Persons to Postgres"; // daily
const NOW = new Date("2026-11-21T06:30:00Z");

describe("backfill window checks", () => {
  const refused: Array<[string, { start?: string; end?: string }, string]> = [
    [
      "no timezone",
      { start: "2026-11-20T00:00:00", end: "2026-11-20T06:00:00Z" },
      "--start 2026-11-20T00:00:00 has no timezone: add Z or an offset, e.g. 2026-11-20T00:00:00Z or 2026-11-20T00:00:00+02:00",
    ],
    [
      "not a time",
      { start: "last tuesday", end: "2026-11-20T06:00:00Z" },
      "--start last tuesday is not a time",
    ],
    [
      "start after end",
      { start: "2026-11-20T06:00:00Z", end: "2026-11-20T05:00:00Z" },
      "--start 2026-11-20T06:00:00Z must be before --end 2026-11-20T05:00:00Z",
    ],
    ["start equals end", { start: "-2h", end: "-2h" }, "--start -2h must be before --end -2h"],
    [
      "end in the future",
      { start: "2026-11-21T05:00:00Z", end: "2026-11-21T07:00:00Z" },
      "--end 2026-11-21T07:00:00Z is in the future",
    ],
    ["missing end", { start: "-2h" }, "backfill needs both --start and --end"],
    [
      "date and time mixed",
      { start: "2026-11-19", end: "2026-11-20T00:00:00Z" },
      "--start and --end must both be dates",
    ],
    ["impossible date", { start: "2026-02-30", end: "2026-03-02" }, "--start 2026-02-30 is not a time"],
  ];
  for (const [label, window, message] of refused) {
    it(`refuses ${label} before any request, with one file-less line`, async () => {
      await h.clearRequests();
      const out = await h.run(
        backfill,
        { args: [S3], ...window },
        { io: { clock: testClock(NOW.getTime()) } },
      );
      expect(out.code).toBe(1);
      expect(out.stdout).toBe("");
      expect(out.stderr.split("\n").filter(Boolean)).toHaveLength(1);
      expect(out.stderr).toContain(`error: ${message}`);
      expect(out.stderr).not.toMatch(/\.ya?ml:\d+/);
      expect(await h.requests()).toEqual([]);
    });
  }

  it("refuses times for a daily export and dates for an hourly one, without sending the backfill", async () => {
    await h.clearRequests();
    const daily = await h.run(backfill, {
      args: [PG],
      start: "2026-11-18T00:00:00Z",
      end: "2026-11-20T00:00:00Z",
    });
    expect(daily.code).toBe(1);
    expect(daily.stderr).toBe(
      `error: "${PG}" runs every day: give dates only, e.g. --start 2026-11-18 --end 2026-11-20\n`,
    );
    const hourly = await h.run(backfill, { args: [S3], start: "2026-11-18", end: "2026-11-20" });
    expect(hourly.code).toBe(1);
    expect(hourly.stderr).toContain(
      `"${S3}" runs every hour: give times with a timezone, e.g. --start 2026-11-18T00:00:00Z`,
    );
    const sent = await h.requests();
    expect(sent.length).toBeGreaterThan(0); // NAME was looked up ...
    expect(sent.filter((r) => r.method !== "GET")).toEqual([]); // ... but nothing was written
  });

  it("refuses a weekly window off the export's schedule day", async () => {
    // Newer servers report offset_day on weekly exports; the window must fall on it.
    const { checkWindowForInterval, checkWindowSyntax } = await import(
      "../../src/kinds/batch-export/operations/backfill-window.js"
    );
    const window = checkWindowSyntax("2026-11-02", "2026-11-16", NOW); // Mondays
    expect(checkWindowForInterval(window, "w", "week", 1)).toEqual({
      start_at: "2026-11-02",
      end_at: "2026-11-16",
    });
    expect(() => checkWindowForInterval(window, "w", "week", 0)).toThrow(
      '"w" runs weekly on Sunday: --start 2026-11-02 is a Monday',
    );
  });
});

describe("backfill", () => {
  it("sends a valid hourly window once and the runs appear", async () => {
    await h.clearRequests();
    const out = await h.run(backfill, {
      args: [S3],
      start: "2026-01-01T00:00:00+01:00",
      end: "2026-01-01T03:00:00Z",
      format: "json",
    });
    expect(out.code).toBe(0);
    const doc = validJson("backfill", out.stdout);
    expect(doc).toMatchObject({
      project: 12345,
      export: { id: S3_EXPORT_ID, name: S3 },
      start_at: "2025-12-31T23:00:00.000Z",
      end_at: "2026-01-01T03:00:00.000Z",
    });
    expect(out.stderr).toBe("follow it with: posthog-gitops runs 'Events to S3' --since -1h\n");
    const writes = (await h.requests()).filter((r) => r.method === "POST");
    expect(writes.map((r) => r.path)).toEqual([
      `/api/projects/12345/batch_exports/${S3_EXPORT_ID}/backfills/`,
    ]);
    const listed = await h.run(runs, { args: [S3], since: "-5m", format: "json" });
    const added = validJson("runs", listed.stdout).runs.filter(
      (r: { backfill: string | null }) => r.backfill === doc.backfill_id,
    );
    expect(added).toHaveLength(4);
  });

  it("sends a daily export's window as dates, which the service accepts", async () => {
    await h.clearRequests();
    const out = await h.run(backfill, { args: [PG], start: "2026-01-01", end: "2026-01-04", format: "json" });
    expect(out.code, out.stderr).toBe(0);
    expect(validJson("backfill", out.stdout)).toMatchObject({ start_at: "2026-01-01", end_at: "2026-01-04" });
    expect((await h.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
    // The text form shows the dates as dates: they name days, not instants.
    const text = await h.run(backfill, { args: [PG], start: "2026-01-05", end: "2026-01-06" });
    expect(text.stdout).toMatch(/started for "Persons to Postgres": 2026-01-05 → 2026-01-06\n$/);
  });

  it("warns, before sending, when the window overlaps a run, retry or backfill of the last 24 hours", async () => {
    const first = await h.run(backfill, { args: [S3], start: "-3h", end: "-1h", format: "json" });
    expect(first.code, first.stderr).toBe(0);
    const { backfill_id } = validJson("backfill", first.stdout);
    await h.clearRequests();
    const again = await h.run(backfill, { args: [S3], start: "-2h", end: "-1h" });
    expect(again.code).toBe(0);
    const warning = again.stderr.split("\n").find((l) => l.startsWith("warning:")) ?? "";
    expect(warning).toMatch(/^warning: this window overlaps \d+ runs or backfills of the last 24 hours: /);
    expect(warning).toContain(`backfill ${backfill_id} (`);
    expect(warning).toMatch(/retry [0-9a-f-]+ \(Completed, 20\d\d-[^ ]+ → 20\d\d-[^ ]+\)/);
    expect(warning).toMatch(/; its data may be exported twice$/);
    // The lists were read (newest first, back to a day ago) before the one write.
    const sent = await h.requests();
    const post = sent.findIndex((r) => r.method === "POST");
    expect(sent.slice(0, post).map((r) => r.path)).toEqual(
      expect.arrayContaining([
        `/api/projects/12345/batch_exports/${S3_EXPORT_ID}/runs/`,
        `/api/projects/12345/batch_exports/${S3_EXPORT_ID}/backfills/`,
      ]),
    );
    // A window nothing of the last day touched: no warning (the test above: 2026-01-01).
  });

  it("accepts relative times and resolves NAME by id too", async () => {
    const out = await h.run(backfill, { args: [S3_EXPORT_ID], start: "-3h", end: "-1h" });
    expect(out.code).toBe(0);
    const instant = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`;
    expect(out.stdout).toMatch(
      new RegExp(`^backfill [0-9a-f-]{36} started for "Events to S3": ${instant} → ${instant}\n$`),
    );
  });

  it("surfaces the service's refusal as one line", async () => {
    await h.faults({
      rules: [{ method: "POST", path: "/backfills/?$", status: 400, times: 1 }],
    });
    // A window the last day's runs do not touch: the refusal is the one line.
    const out = await h.run(backfill, {
      args: [S3],
      start: "2026-01-01T00:00:00Z",
      end: "2026-01-01T03:00:00Z",
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error: POST batch_exports\/.+\/backfills: 400/);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("after a lost answer says the backfill may have started and how to check, without sending it twice", async () => {
    await h.faults({
      rules: [{ method: "POST", path: "/backfills/?$", lose_response: true, times: 1 }],
    });
    await h.clearRequests();
    const out = await h.run(backfill, { args: [S3], start: "-3h", end: "-1h" });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /may have carried it out.*; see whether it started with: posthog-gitops runs 'Events to S3' --since -1h\n$/,
    );
    expect((await h.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
  });
});
