import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseWhere } from "../../src/commands/where.js";
import {
  backfillCommand,
  gapBackfillCommand,
  quoteArg,
} from "../../src/kinds/batch-export/operations/backfill-command.js";
import {
  checkWindowForInterval,
  checkWindowSyntax,
} from "../../src/kinds/batch-export/operations/backfill-window.js";
import type { BatchExportRun } from "../../src/kinds/batch-export/operations/index.js";
import { failedRunsToRetry } from "../../src/kinds/batch-export/operations/runs.js";
import { csvField, renderEventsCsv } from "../../src/render/events.js";
import { ago, parseCliTime } from "../../src/time.js";

const NOW = new Date("2026-11-21T06:30:00Z");

describe("command-line times", () => {
  it.each([
    ["2026-11-20T06:00:00Z", "2026-11-20T06:00:00.000Z"],
    ["2026-11-20T08:00:00+02:00", "2026-11-20T06:00:00.000Z"],
    ["2026-11-20 08:00+0200", "2026-11-20T06:00:00.000Z"],
    ["2026-11-20T06:00:00.123456Z", "2026-11-20T06:00:00.123Z"],
    ["-12h", "2026-11-20T18:30:00.000Z"],
    ["-7d", "2026-11-14T06:30:00.000Z"],
    ["-30m", "2026-11-21T06:00:00.000Z"],
    ["-2w", "2026-11-07T06:30:00.000Z"],
    ["now", "2026-11-21T06:30:00.000Z"],
  ])("%s is the instant %s", (raw, iso) => {
    const t = parseCliTime(raw, "--since", NOW);
    expect(t.kind).toBe("instant");
    expect(new Date(t.ms).toISOString()).toBe(iso);
  });

  it("keeps dates as dates and refuses naive, impossible or unknown forms", () => {
    expect(parseCliTime("2026-11-20", "--start", NOW)).toEqual({
      kind: "date",
      ms: Date.UTC(2026, 10, 20),
      text: "2026-11-20",
    });
    expect(() => parseCliTime("2026-11-20T06:00", "--start", NOW)).toThrow(
      "--start 2026-11-20T06:00 has no timezone",
    );
    expect(() => parseCliTime("2026-13-01", "--start", NOW)).toThrow("is not a time");
    expect(() => parseCliTime("7d", "--since", NOW)).toThrow("--since 7d is not a time");
    expect(() => parseCliTime("2026-11-20T25:00:00Z", "--since", NOW)).toThrow("is not a time");
  });

  it("never accepts a string without a timezone as an instant", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2000-01-01"), max: new Date("2099-01-01"), noInvalidDate: true }),
        (d) => {
          const naive = d.toISOString().slice(0, 19);
          expect(() => parseCliTime(naive, "--start", NOW)).toThrow("has no timezone");
          expect(parseCliTime(`${naive}Z`, "--start", NOW).ms).toBe(Math.floor(d.getTime() / 1000) * 1000);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("says how long ago", () => {
    expect(ago("2026-11-21T06:29:30Z", NOW)).toBe("30s ago");
    expect(ago("2026-11-21T01:30:00Z", NOW)).toBe("5h ago");
    expect(ago("2026-11-18T06:30:00Z", NOW)).toBe("3d ago");
    expect(ago("2026-11-21T06:34:00Z", NOW)).toBe("in 4m");
    // The unit is chosen after rounding: never "60s ago" nor "60m ago".
    expect(ago("2026-11-21T06:29:00.4Z", NOW)).toBe("1m ago");
    expect(ago("2026-11-21T05:30:20Z", NOW)).toBe("1h ago");
    expect(ago(null, NOW)).toBe("-");
  });
});

describe("backfill windows", () => {
  it("sends UTC instants for hourly exports and dates for daily ones", () => {
    const hourly = checkWindowSyntax("2026-11-20T02:00:00+02:00", "-1h", NOW);
    expect(checkWindowForInterval(hourly, "e", "hour")).toEqual({
      start_at: "2026-11-20T00:00:00.000Z",
      end_at: "2026-11-21T05:30:00.000Z",
    });
    expect(checkWindowForInterval(checkWindowSyntax("2026-11-19", "2026-11-21", NOW), "d", "day")).toEqual({
      start_at: "2026-11-19",
      end_at: "2026-11-21",
    });
    expect(() => checkWindowSyntax("2026-11-19", "2026-11-22", NOW)).toThrow(
      "--end 2026-11-22 is in the future",
    );
    expect(() =>
      checkWindowForInterval(checkWindowSyntax("-2h", "-1h", NOW), "e", "every 5 minutes"),
    ).not.toThrow();
  });
});

describe("retry --failed targets", () => {
  const run = (id: string, status: string, start: string, end: string, created: string): BatchExportRun => ({
    id,
    status: status as BatchExportRun["status"],
    records_completed: null,
    latest_error: null,
    data_interval_start: start,
    data_interval_end: end,
    cursor: null,
    created_at: created,
    finished_at: created,
    last_updated_at: created,
    records_total_count: null,
    bytes_exported: null,
    batch_export: "e",
    backfill: null,
  });

  it("skips failures a later completed run covered, oldest interval first", () => {
    const runs = [
      run("c", "Completed", "2026-11-21T01:00:00Z", "2026-11-21T02:00:00Z", "2026-11-21T05:00:00Z"),
      run("f2", "FailedRetryable", "2026-11-21T03:00:00Z", "2026-11-21T04:00:00Z", "2026-11-21T04:01:00Z"),
      run("f1", "Failed", "2026-11-21T01:00:00Z", "2026-11-21T02:00:00Z", "2026-11-21T02:01:00Z"),
      run("f0", "Failed", "2026-11-21T00:00:00Z", "2026-11-21T01:00:00Z", "2026-11-21T01:01:00Z"),
      run("old", "Completed", "2026-11-21T00:00:00Z", "2026-11-21T01:00:00Z", "2026-11-21T00:30:00Z"),
    ];
    const picked = failedRunsToRetry(runs);
    expect(picked.retry.map((r) => r.id)).toEqual(["f0", "f2"]);
    expect(picked.alreadyDone.map((r) => r.id)).toEqual(["f1"]);
  });
});

describe("events filters and CSV", () => {
  it("turns key=value into exact event property filters (value may hold '=')", () => {
    expect(parseWhere(["a=b=c", " $browser =Chrome"])).toEqual([
      { key: "a", value: "b=c", operator: "exact", type: "event" },
      { key: "$browser", value: "Chrome", operator: "exact", type: "event" },
    ]);
    expect(() => parseWhere("=x")).toThrow("must look like key=value");
  });

  it("quotes CSV fields that need it", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a,"b"\nc')).toBe('"a,""b""\nc"');
    const csv = renderEventsCsv([
      { id: "1", event: "x,y", timestamp: "t", distinct_id: "d", properties: { q: 'say "hi"' } },
    ]);
    expect(csv).toBe(
      'id,event,timestamp,distinct_id,properties\r\n1,"x,y",t,d,"{""q"":""say \\""hi\\""""}"\r\n',
    );
  });
});

describe("printed commands", () => {
  it("quote names for a POSIX shell", () => {
    expect(quoteArg("events-to-s3")).toBe("events-to-s3");
    expect(quoteArg("Bob's export")).toBe("'Bob'\\''s export'");
    expect(backfillCommand("Events to S3", "2026-11-19T00:00:00Z", "2026-11-21T06:00:00Z")).toBe(
      "posthog-gitops backfill 'Events to S3' --start 2026-11-19T00:00:00Z --end 2026-11-21T06:00:00Z",
    );
  });

  it("print a gap backfill that backfill itself accepts, for each kind of interval", () => {
    const hourly = gapBackfillCommand("Events to S3", "hour", "2026-11-19T10:15:00.250Z", NOW);
    expect(hourly).toBe(
      "posthog-gitops backfill 'Events to S3' --start 2026-11-19T10:00:00Z --end 2026-11-21T06:00:00Z",
    );
    const daily = gapBackfillCommand("pg", "day", "2026-11-19T10:15:00Z", NOW);
    expect(daily).toBe("posthog-gitops backfill pg --start 2026-11-19 --end 2026-11-21");
    // 2026-11-21 is a Saturday: weekly on Monday (1) covers the weeks from Monday 2026-11-02.
    const weekly = gapBackfillCommand("w", "week", "2026-11-04T10:00:00Z", NOW, 1);
    expect(weekly).toBe("posthog-gitops backfill w --start 2026-11-02 --end 2026-11-16");
    const fast = gapBackfillCommand("f", "every 5 minutes", "2026-11-21T06:21:10Z", NOW);
    expect(fast).toBe("posthog-gitops backfill f --start 2026-11-21T06:20:00Z --end 2026-11-21T06:30:00Z");
    for (const [command, interval] of [
      [hourly, "hour"],
      [daily, "day"],
      [weekly, "week"],
      [fast, "every 5 minutes"],
    ] as const) {
      const [, start, end] = /--start (\S+) --end (\S+)$/.exec(command ?? "") ?? [];
      expect(() =>
        checkWindowForInterval(checkWindowSyntax(start, end, NOW), "x", interval, 1),
      ).not.toThrow();
    }
  });

  it("print nothing when the pause missed no whole interval", () => {
    expect(gapBackfillCommand("pg", "day", "2026-11-21T01:00:00Z", NOW)).toBeUndefined();
    expect(gapBackfillCommand("e", "hour", "2026-11-21T06:10:00Z", NOW)).toBeUndefined();
    expect(gapBackfillCommand("e", "hour", "not a time", NOW)).toBeUndefined();
  });
});
