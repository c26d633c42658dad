/**
 * Reads what `status` shows: one row per batch export with its latest run, failures and records of
 * the last 7 days. Exports come from one project's list, an organization's list (every project), or
 * the exports the files declare (matched by `id` pin, else by name). One runs walk per export
 * (`after` = 7 days ago, newest first, bounded), run concurrently; the client bounds requests in flight.
 */

import { collect } from "../service/index.js";
import type { BatchExport, BatchExportRun } from "../service/types.js";
import type { OpsContext } from "./connect.js";
import { type RunItem, runItem } from "./runs-format.js";
import { FAILED_STATUSES } from "./table.js";

export const WINDOW_DAYS = 7;
/** Bound on runs read per export (7 days of 5-minute runs is 2,016). */
const MAX_RUNS = 5_000;

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

export function isFailed(status: string | undefined): boolean {
  return status !== undefined && FAILED_STATUSES.has(status);
}

export async function statusRows(ctx: OpsContext, exports: readonly BatchExport[]): Promise<StatusRow[]> {
  const after = new Date(ctx.now.getTime() - WINDOW_DAYS * 86_400_000).toISOString();
  return Promise.all(
    exports.map(async (b) => {
      const runs = await collect(ctx.client.runs.list(b.team_id, b.id, { after }), MAX_RUNS);
      return rowOf(b, runs, after);
    }),
  );
}

function rowOf(b: BatchExport, windowRuns: readonly BatchExportRun[], after: string): StatusRow {
  const byId = new Map<string, BatchExportRun>();
  for (const r of [...windowRuns, ...(b.latest_runs ?? [])]) byId.set(r.id, r);
  const newestFirst = [...byId.values()].sort((x, y) => Date.parse(y.created_at) - Date.parse(x.created_at));
  const inProgress = (r: BatchExportRun) => r.status === "Running" || r.status === "Starting";
  const latest = newestFirst.find((r) => !inProgress(r)) ?? newestFirst[0];
  const inWindow = newestFirst.filter((r) => Date.parse(r.created_at) >= Date.parse(after));
  return {
    project: b.team_id,
    id: b.id,
    name: b.name,
    destination: b.destination?.type ?? "unknown",
    model: b.model ?? null,
    interval: b.interval,
    paused: b.paused,
    paused_since: b.paused ? (b.last_paused_at ?? null) : null,
    latest_run: latest ? summarise(latest) : null,
    running: newestFirst.some(inProgress),
    runs_in_window: inWindow.length,
    failed_in_window: inWindow.filter((r) => isFailed(r.status)).length,
    records_in_window: inWindow.reduce((n, r) => n + (r.records_completed ?? 0), 0),
  };
}

function summarise(r: BatchExportRun): RunSummary {
  const { records_total_count: _total, bytes_exported: _bytes, backfill: _backfill, ...summary } = runItem(r);
  return summary;
}

/** Rows in a stable order: project, then name. */
export function sortRows(rows: StatusRow[]): StatusRow[] {
  return rows.sort(
    (a, b) => a.project - b.project || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
}
