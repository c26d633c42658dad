/**
 * What a backfill window overlaps among the export's runs and backfills of the last 24 hours (its
 * scheduled runs, retries and backfills), so `backfill` can warn that the same data may be exported
 * twice before it sends anything. Two cursor lists, newest first, read only back to 24 hours ago.
 */
import type { ServiceClient } from "../../../service/index.js";
import type { BatchExportBackfill, BatchExportRun } from "./answers.js";
import { backfillsApi, runsApi } from "./service.js";

const DAY_MS = 86_400_000;
/** At most this many of each are read, however many the last day holds. */
const MAX_READ = 1_000;

export interface Overlap {
  /** `run`, `retry` (a run a backfill made) or `backfill`. */
  kind: "run" | "retry" | "backfill";
  id: string;
  status: string;
  start: string | null;
  end: string | null;
}

const overlapping = (start: string | null, end: string | null, from: number, to: number): boolean =>
  (start === null || Date.parse(start) < to) && (end === null || Date.parse(end) > from);

export async function recentOverlaps(
  client: ServiceClient,
  project: number,
  exportId: string,
  window: { start_at: string; end_at: string },
  now: Date,
): Promise<Overlap[]> {
  const since = now.getTime() - DAY_MS;
  const from = Date.parse(window.start_at);
  const to = Date.parse(window.end_at);
  const recent = async <T extends { created_at: string }>(pages: AsyncIterable<T>): Promise<T[]> => {
    const out: T[] = [];
    for await (const item of pages) {
      if (Date.parse(item.created_at) < since) break; // newest first: the rest are older
      out.push(item);
    }
    return out;
  };
  const [runs, backfills] = await Promise.all([
    recent<BatchExportRun>(runsApi(client).list(project, exportId, {}, MAX_READ)),
    recent<BatchExportBackfill>(backfillsApi(client).list(project, exportId, {}, MAX_READ)),
  ]);
  return [
    ...runs
      .filter((r) => overlapping(r.data_interval_start, r.data_interval_end, from, to))
      .map(
        (r): Overlap => ({
          kind: r.backfill === null ? "run" : "retry",
          id: r.id,
          status: r.status,
          start: r.data_interval_start,
          end: r.data_interval_end,
        }),
      ),
    ...backfills
      .filter((b) => overlapping(b.start_at, b.end_at, from, to))
      .map(
        (b): Overlap => ({ kind: "backfill", id: b.id, status: b.status, start: b.start_at, end: b.end_at }),
      ),
  ];
}
