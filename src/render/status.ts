/**
 * `status` output: the JSON document (schemas/status.schema.json) and the terminal table built from it.
 * Pure; times in the table are relative to `now`, in JSON they stay ISO instants.
 */
import { flat } from "../text.js";
import type { RunItem } from "./runs.js";
import { formatCount, isFailed, type Paint, type Row, renderTable, statusStyle } from "./table.js";
import { humanTime } from "./time.js";

/** The runs `status` counts: those created in the last 7 days (the service's own default window). */
export const WINDOW_DAYS = 7;

/** The latest run as status shows it: the run list's item, less the counters only `runs` shows. */
export type RunSummary = Omit<RunItem, "records_total_count" | "bytes_exported" | "backfill">;

export interface StatusRow {
  project: number;
  id: string;
  name: string;
  destination: string;
  model: string | null;
  interval: string;
  paused: boolean;
  /** When it was paused (null when not paused or unknown). */
  paused_since: string | null;
  /** The newest finished run, else the newest run; null when it never ran. */
  latest_run: RunSummary | null;
  /** A run is in progress (Running / Starting). */
  running: boolean;
  runs_in_window: number;
  failed_in_window: number;
  records_in_window: number;
}

export interface MissingExport {
  project: number;
  name: string;
}

export interface StatusDocument {
  format_version: "1";
  generated_at: string;
  scope: { organization: string | null; projects: number[] };
  window_days: number;
  exports: StatusRow[];
  /** Declared in the files but not found live (only when files were given). */
  missing: MissingExport[];
  summary: { exports: number; failing: number; paused: number; failed_runs: number; records: number };
}

export function statusDocument(
  rows: StatusRow[],
  missing: MissingExport[],
  scope: { organization: string | null; projects: number[] },
  now: Date,
): StatusDocument {
  return {
    format_version: "1",
    generated_at: now.toISOString(),
    scope,
    window_days: WINDOW_DAYS,
    exports: rows,
    missing,
    summary: {
      exports: rows.length,
      failing: rows.filter((r) => isFailed(r.latest_run?.status)).length,
      paused: rows.filter((r) => r.paused).length,
      failed_runs: rows.reduce((n, r) => n + r.failed_in_window, 0),
      records: rows.reduce((n, r) => n + r.records_in_window, 0),
    },
  };
}

export function renderStatusText(doc: StatusDocument, now: Date, paint: Paint): string {
  if (doc.exports.length === 0 && doc.missing.length === 0) return "No batch exports.\n";
  const manyProjects = new Set(doc.exports.map((r) => r.project)).size > 1;
  const headers = [
    ...(manyProjects ? ["PROJECT"] : []),
    "NAME",
    "DESTINATION",
    "INTERVAL",
    "PAUSED",
    "LAST RUN",
    `FAILED ${WINDOW_DAYS}D`,
    `RECORDS ${WINDOW_DAYS}D`,
  ];
  const rows: Row[] = doc.exports.map((r) => [
    ...(manyProjects ? [String(r.project)] : []),
    r.name,
    r.destination,
    r.interval,
    r.paused
      ? { text: r.paused_since ? `since ${humanTime(r.paused_since, now)}` : "yes", style: "yellow" }
      : "no",
    lastRun(r, now),
    { text: String(r.failed_in_window), style: r.failed_in_window > 0 ? "red" : undefined },
    formatCount(r.records_in_window),
  ]);
  let out = renderTable(headers, rows, paint);
  const failing = doc.exports.filter((r) => isFailed(r.latest_run?.status));
  for (const r of failing) {
    const error = r.latest_run?.latest_error ? `: ${r.latest_run.latest_error}` : "";
    out += `${paint("red", "failed")} ${flat(r.name)} (run ${r.latest_run?.id})${error}\n`;
  }
  for (const m of doc.missing) {
    out += `${paint("yellow", "missing")} ${flat(m.name)}: declared for project ${m.project} but not found live (apply creates it)\n`;
  }
  return out;
}

function lastRun(r: StatusRow, now: Date): Row[number] {
  const run = r.latest_run;
  if (!run) return { text: r.running ? "Running" : "never ran", style: r.running ? "yellow" : "dim" };
  const when = humanTime(run.finished_at ?? run.created_at, now);
  const more =
    r.running && run.status !== "Running" && run.status !== "Starting" ? " (a run in progress)" : "";
  return { text: `${run.status} ${when}${more}`, style: statusStyle(run.status) };
}
