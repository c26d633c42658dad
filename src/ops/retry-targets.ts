/**
 * Which runs `retry NAME --failed --since T` retries: failed runs created since T whose data interval
 * has not been exported since by a later completed run (an earlier retry, a backfill). That makes a
 * second `retry --failed` after a successful one a no-op instead of a duplicate export.
 */
import type { BatchExportRun } from "../service/types.js";
import { isFailed } from "./status.js";

export interface RetryTargets {
  retry: BatchExportRun[];
  /** Failed runs whose interval a later completed run already covered. */
  alreadyDone: BatchExportRun[];
}

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
