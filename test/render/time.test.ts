/** One time format in human output: ISO-8601 UTC to the second, with a relative hint. */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/index.js";
import { loadConfig } from "../../src/index.js";
import { checkWindowSyntax } from "../../src/kinds/batch-export/operations/backfill-window.js";
import { renderEventsText } from "../../src/render/events.js";
import { renderLogsText } from "../../src/render/logs.js";
import { type RunItem, renderRunsText } from "../../src/render/runs.js";
import { painter } from "../../src/render/table.js";
import { humanTime, isoTime } from "../../src/render/time.js";
import { desiredBatchExport, liveBatchExport } from "../builders.js";
import { planOne } from "../plan/helpers.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const plain = painter(false);

describe("humanTime", () => {
  it.each([
    ["2026-11-20T10:00:00Z", "2026-11-20T10:00:00Z (2h ago)"],
    ["2026-11-20T10:00:00.123456Z", "2026-11-20T10:00:00Z (2h ago)"],
    ["2026-11-20T12:00:00+02:00", "2026-11-20T10:00:00Z (2h ago)"],
    ["2026-11-17T12:00:00Z", "2026-11-17T12:00:00Z (3d ago)"],
    ["2026-11-20T12:04:00Z", "2026-11-20T12:04:00Z (in 4m)"],
  ])("%s → %s", (iso, text) => expect(humanTime(iso, NOW)).toBe(text));

  it("takes now as an ISO string too, and leaves what is not a time alone", () => {
    expect(humanTime("2026-11-20T11:59:30Z", "2026-11-20T12:00:00.000Z")).toBe(
      "2026-11-20T11:59:30Z (30s ago)",
    );
    expect(humanTime(null, NOW)).toBe("-");
    expect(humanTime("soon", NOW)).toBe("soon");
    expect(isoTime("2026-11-20T10:00:00.5Z")).toBe("2026-11-20T10:00:00Z");
  });

  it("keeps a date alone as a date: it names a day (a daily backfill's window), not an instant", () => {
    expect(isoTime("2026-11-20")).toBe("2026-11-20");
  });
});

const run: RunItem = {
  id: "run-1",
  status: "Completed",
  created_at: "2026-11-20T10:01:00Z",
  finished_at: "2026-11-20T10:02:30Z",
  data_interval_start: "2026-11-20T09:00:00Z",
  data_interval_end: "2026-11-20T10:00:00Z",
  records_completed: 1200,
  records_total_count: 1200,
  bytes_exported: null,
  latest_error: null,
  backfill: null,
};
const ref = { project: 1, id: "e", name: "Events to S3", interval: "hour" };

describe("operations tables", () => {
  it("runs: created and data interval in the one format", () => {
    const text = renderRunsText(
      {
        format_version: "1",
        generated_at: NOW.toISOString(),
        export: ref,
        filters: { status: [], since: "2026-11-13T12:00:00.000Z" },
        runs: [run],
      },
      NOW,
      plain,
    );
    expect(text.split("\n")[1]).toMatch(
      /^2026-11-20T10:01:00Z \(2h ago\) {2}Completed {2}2026-11-20T09:00:00Z → 2026-11-20T10:00:00Z {2}1,200/,
    );
  });

  it("runs: an empty list says since when, in the same format", () => {
    const doc = {
      format_version: "1" as const,
      generated_at: NOW.toISOString(),
      export: ref,
      filters: { status: ["Failed"], since: "2026-11-13T12:00:00.000Z" },
      runs: [],
    };
    expect(renderRunsText(doc, NOW, plain)).toBe(
      'No runs of "Events to S3" since 2026-11-13T12:00:00Z (7d ago) with status Failed.\n',
    );
  });

  it("logs: each entry's time relative to when the entries were read", () => {
    const text = renderLogsText(
      {
        format_version: "1",
        generated_at: NOW.toISOString(),
        export: ref,
        filters: { run: "run-1", level: [], search: null, since: null },
        entries: [
          {
            team_id: 1,
            run_id: "run-1",
            timestamp: "2026-11-20T10:02:00.123456Z",
            level: "INFO",
            message: "done",
          } as never,
        ],
      },
      plain,
    );
    expect(text).toBe("2026-11-20T10:02:00Z (2h ago)  INFO  done\n");
  });

  it("logs: the columns line up whatever the length of each time and id", () => {
    const entry = (timestamp: string, level: string, instance_id: string, message: string) =>
      ({ team_id: 1, timestamp, level, instance_id, message }) as never;
    const text = renderLogsText(
      {
        format_version: "1",
        generated_at: NOW.toISOString(),
        export: ref,
        filters: { run: null, level: [], search: null, since: null },
        entries: [
          entry("2026-11-20T11:31:00Z", "INFO", "run-10", "started"),
          entry("2026-11-20T10:02:00Z", "ERROR", "", "failed"),
          entry("2026-11-18T10:02:00Z", "INFO", "run-9", "done"),
        ],
      },
      plain,
    );
    expect(text).toBe(
      [
        "2026-11-20T11:31:00Z (29m ago)  INFO   run-10  started",
        "2026-11-20T10:02:00Z (2h ago)   ERROR  -       failed",
        "2026-11-18T10:02:00Z (2d ago)   INFO   run-9   done",
        "",
      ].join("\n"),
    );
  });
});

describe("messages outside the tables", () => {
  // The service's own instants carry microseconds; the builders' NOW is 2026-03-01T12:00:00Z.
  const pausedAt = "2026-02-20T08:00:00.123456Z";

  it("the unpause warning and note say since when, in the one format", () => {
    const warned = planOne(
      { batchExports: [desiredBatchExport({ paused: false })] },
      { batchExports: [liveBatchExport({ paused: true, last_paused_at: pausedAt })] },
    );
    expect(warned.plan.actions[0]?.warnings[0]).toMatch(
      /^the paused gap since 2026-02-20T08:00:00Z \(9d ago\) will not be exported; to export it, run: /,
    );
    const noted = planOne(
      { batchExports: [desiredBatchExport({ paused: false, backfill_on_unpause: true })] },
      { batchExports: [liveBatchExport({ paused: true, last_paused_at: pausedAt })] },
    );
    expect(noted.plan.notes[0]?.message).toBe(
      "the paused gap since 2026-02-20T08:00:00Z (9d ago) will be backfilled on unpause",
    );
  });

  it("a config error shows its instants to the second, without milliseconds", async () => {
    const text =
      "project: 1\nbatch_exports:\n  - name: e\n    start_at: 2026-02-01T01:00:00+01:00\n    end_at: 2026-01-01T00:00:00.250Z\n";
    const result = await loadConfig({ files: [{ path: "e.yaml", text }] }, { env: {} });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'e.yaml:4:15: error: start_at of batch export "e" (2026-02-01T00:00:00Z) must be before its end_at (2026-01-01T00:00:00Z)',
    ]);
  });

  it("a backfill window in the future says what now is, to the second", () => {
    const now = new Date("2026-11-20T12:00:00.456Z");
    expect(() => checkWindowSyntax("-1h", "2026-11-21T00:00:00Z", now)).toThrow(
      "--end 2026-11-21T00:00:00Z is in the future (now is 2026-11-20T12:00:00Z): a backfill can only export the past",
    );
  });

  it("events: each timestamp relative to when the events were read", () => {
    const text = renderEventsText(
      {
        format_version: "1",
        generated_at: NOW.toISOString(),
        project: 1,
        filters: { event: null, distinct_id: null, after: null, before: null, properties: [] },
        events: [
          {
            id: "ev-1",
            event: "$pageview",
            timestamp: "2026-11-20T11:59:00.123000+00:00",
            distinct_id: "u1",
            properties: {},
          },
        ],
      },
      plain,
    );
    expect(text.split("\n")[1]).toMatch(/^2026-11-20T11:59:00Z \(1m ago\) {2}\$pageview/);
  });
});
