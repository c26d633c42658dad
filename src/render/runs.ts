/**
 * `runs` output: the JSON document (schemas/runs.schema.json) and the terminal table. Pure.
 * The table keeps one line per run (errors cut to one line); JSON keeps every field the tool reads.
 */

import { cut, flat } from "../text.js";
import { formatCount, type Paint, type Row, renderTable, statusStyle } from "./table.js";
import { humanTime, isoTime } from "./time.js";

export interface ExportRef {
  project: number;
  id: string;
  name: string;
  interval: string;
}

export interface RunsDocument {
  format_version: "1";
  generated_at: string;
  export: ExportRef;
  filters: { status: string[]; since: string };
  runs: RunItem[];
}

export interface RunItem {
  id: string;
  status: string;
  created_at: string;
  finished_at: string | null;
  data_interval_start: string | null;
  data_interval_end: string;
  records_completed: number | null;
  records_total_count: number | null;
  bytes_exported: number | null;
  latest_error: string | null;
  backfill: string | null;
}

export function renderRunsText(doc: RunsDocument, now: Date, paint: Paint): string {
  if (doc.runs.length === 0) {
    const status = doc.filters.status.length ? ` with status ${doc.filters.status.join(", ")}` : "";
    return `No runs of "${flat(doc.export.name)}" since ${humanTime(doc.filters.since, now)}${status}.\n`;
  }
  const rows: Row[] = doc.runs.map((r) => [
    humanTime(r.created_at, now),
    { text: r.status, style: statusStyle(r.status) },
    dataInterval(r),
    r.records_completed === null ? "-" : formatCount(r.records_completed),
    r.id,
    cut((r.latest_error ?? (r.backfill ? "from a backfill" : "")).replace(/\s+/g, " ").trim(), 80),
  ]);
  return renderTable(["CREATED", "STATUS", "DATA INTERVAL", "RECORDS", "RUN ID", "DETAIL"], rows, paint);
}

/** `2026-11-20T09:00:00Z → 2026-11-20T10:00:00Z` (the times in the one human format, without the hint). */
export function dataInterval(r: { data_interval_start: string | null; data_interval_end: string }): string {
  const start = r.data_interval_start ? isoTime(r.data_interval_start) : "beginning";
  return `${start} → ${isoTime(r.data_interval_end)}`;
}
