/**
 * Batch export runs as the operations commands read them: `status` rows (latest run, failures and
 * records of the last 7 days, one runs walk per export, bounded), an export and its runs as the
 * `runs` and `logs` documents show them, and which failed runs `retry --failed` retries (those whose
 * interval no later completed run exported again).
 */

import type { ExportRef, RunItem } from "../../../render/runs.js";
import { type RunSummary, type StatusRow, WINDOW_DAYS } from "../../../render/status.js";
import { isFailed } from "../../../render/table.js";
import type { ServiceClient } from "../../../service/client.js";
import { collect } from "../../../service/pages.js";
import type { BatchExport } from "../answers.js";
import type { BatchExportRun } from "./answers.js";
import { runsApi } from "./service.js";

/** The export as the `runs` and `logs` documents name it. */
export function exportRef(project: number, b: BatchExport): ExportRef {
  return { project, id: b.id, name: b.name, interval: b.interval };
}

/** A run as the `runs` document lists it (and, less its counters, as `status` shows the latest). */
export function runItem(r: BatchExportRun): RunItem {
  return {
    id: r.id,
    status: r.status,
    created_at: r.created_at,
    finished_at: r.finished_at ?? null,
    data_interval_start: r.data_interval_start ?? null,
    data_interval_end: r.data_interval_end,
    records_completed: r.records_completed ?? null,
    records_total_count: r.records_total_count ?? null,
    bytes_exported: r.bytes_exported ?? null,
    latest_error: r.latest_error ?? null,
    backfill: r.backfill ?? null,
  };
}

/** Bound on runs read per export (7 days of 5-minute runs is 2,016). */
const MAX_RUNS = 5_000;

/** One row per export; the runs walks run concurrently (the client bounds requests in flight). */
export async function statusRows(
  client: ServiceClient,
  exports: readonly BatchExport[],
  now: Date,
): Promise<StatusRow[]> {
  const after = new Date(now.getTime() - WINDOW_DAYS * 86_400_000).toISOString();
  const rows = await Promise.all(
    exports.map(async (b) => {
      const runs = await collect(runsApi(client).list(b.team_id, b.id, { after }), MAX_RUNS);
      return rowOf(b, runs, after);
    }),
  );
  // A stable order: project, then name.
  return rows.sort(
    (a, b) => a.project - b.project || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
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
    latest_run: latest ? summary(latest) : null,
    running: newestFirst.some(inProgress),
    runs_in_window: inWindow.length,
    failed_in_window: inWindow.filter((r) => isFailed(r.status)).length,
    records_in_window: inWindow.reduce((n, r) => n + (r.records_completed ?? 0), 0),
  };
}

function summary(r: BatchExportRun): RunSummary {
  const { records_total_count: _total, bytes_exported: _bytes, backfill: _backfill, ...rest } = runItem(r);
  return rest;
}

export interface RetryTargets {
  retry: BatchExportRun[];
  /** Failed runs whose interval a later completed run already covered. */
  alreadyDone: BatchExportRun[];
}

/**
 * Failed runs whose data interval has not been exported since by a later completed run (an earlier
 * retry, a backfill): a second `retry --failed` after a successful one is then a no-op, not a duplicate.
 */
export function failedRunsToRetry(runs: readonly BatchExportRun[]): RetryTargets {
  const completedAfter = (failed: BatchExportRun) =>
    runs.some(
      (r) =>
        r.status === "Completed" &&
        Date.parse(r.created_at) >= Date.parse(failed.created_at) &&
        covers(r, failed),
    );
  const failed = runs.filter((r) => isFailed(r.status));
  const retry = failed.filter((r) => !completedAfter(r));
  const alreadyDone = failed.filter((r) => completedAfter(r));
  // Oldest first: the destination receives the intervals in order.
  const byInterval = (a: BatchExportRun, b: BatchExportRun) =>
    Date.parse(a.data_interval_end) - Date.parse(b.data_interval_end);
  return { retry: retry.sort(byInterval), alreadyDone };
}

/** `r`'s interval contains `failed`'s (a retry has the same interval; a backfill run may be wider). */
function covers(r: BatchExportRun, failed: BatchExportRun): boolean {
  const start = (x: BatchExportRun) =>
    x.data_interval_start ? Date.parse(x.data_interval_start) : -Infinity;
  return start(r) <= start(failed) && Date.parse(r.data_interval_end) >= Date.parse(failed.data_interval_end);
}
