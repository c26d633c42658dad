/** One time format in human output: ISO-8601 UTC to the second, with a relative hint. */
import { describe, expect, it } from "vitest";
import { renderLogsText } from "../../src/render/logs.js";
import { type RunItem, renderRunsText } from "../../src/render/runs.js";
import { painter } from "../../src/render/table.js";
import { humanTime, isoTime } from "../../src/render/time.js";

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
});
