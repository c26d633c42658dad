/**
 * Single runs and their log entries as the newest service serves them (service-api.md §4 "Runs",
 * "Logs"). A single run's GET, retry, cancel and logs go through the runs list's 7-day window: an older
 * run answers 404 unless the request widens it with `after`, so every such request carries the widest
 * window that means anything, from the export's creation. The run-logs route is broken on the newest
 * service (a 500): a run's entries are the export's entries whose `instance_id` is the run, which every
 * version serves. The logs endpoint returns at most 500 entries and never a `next` link: more are read
 * by asking again with `before` = an older timestamp.
 */
import { UserError } from "../../../errors.js";
import { collect, type ServiceClient, ServiceError } from "../../../service/index.js";
import { normaliseInstant } from "../../shared/normalise.js";
import type { BatchExport } from "../answers.js";
import type { BatchExportRun, LogEntry } from "./answers.js";
import { logsApi, runsApi } from "./service.js";

/** The service's largest page of log entries (`limit` above 500 is a 400). */
export const LOG_PAGE = 500;

/** `?after=` that lets every run of the export through a single-run request (ISO: run logs need it). */
export function allRunsWindow(b: Pick<BatchExport, "created_at">): { after: string } {
  const created = Date.parse(b.created_at ?? "");
  // Runs are never older than their export; without its creation time, a date before any export.
  return { after: Number.isNaN(created) ? "2000-01-01T00:00:00.000Z" : new Date(created).toISOString() };
}

/** One run of the export, however old; a run that is not the export's is a `UserError`. */
export async function getRun(
  client: ServiceClient,
  project: number,
  b: BatchExport,
  runId: string,
): Promise<BatchExportRun> {
  try {
    return await runsApi(client).get(project, b.id, runId, allRunsWindow(b));
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      throw new UserError(`no run ${runId} of batch export "${b.name}" in project ${project}`);
    }
    throw error;
  }
}

export interface LogRead {
  /** Newest first, at most `limit`. */
  entries: LogEntry[];
  /** True when older entries may exist beyond what was read (`--limit` reached, or paging stalled). */
  more: boolean;
  /** A timestamp the service cannot page past (over 500 entries share it): output is cut there. */
  stalledAt?: string;
}

export interface LogFilters {
  level?: string;
  search?: string;
  /** ISO instant: entries after it. */
  after?: string;
  /** A run id: only that run's entries. */
  instanceId?: string;
}

/**
 * Up to `limit` entries of the export, newest first, paging back with `before=`. A full page's oldest
 * timestamp may continue past the page, so its entries are read again with the next page (asked for
 * with `before` = the next newer timestamp of the page); at most ceil(limit / 500) × 4 + 2 requests.
 */
export async function readLogs(
  client: ServiceClient,
  project: number,
  exportId: string,
  filters: LogFilters,
  limit: number,
): Promise<LogRead> {
  const out: LogEntry[] = [];
  let before: string | undefined;
  const rounds = Math.ceil(limit / LOG_PAGE) * 4 + 2;
  for (let round = 0; round < rounds; round++) {
    const size = Math.min(LOG_PAGE, limit);
    const query = {
      limit: size,
      level: filters.level,
      search: filters.search,
      after: filters.after,
      instance_id: filters.instanceId,
      before,
    };
    const page = await collect(logsApi(client).list(project, exportId, query, size), size);
    if (page.length < size) {
      out.push(...page);
      return finish(out, limit, false);
    }
    if (out.length + page.length >= limit) {
      out.push(...page);
      return finish(out, limit, true);
    }
    const times = page.map((e) => normaliseInstant(e.timestamp) ?? e.timestamp);
    const oldest = times[times.length - 1] as string;
    const keep = times.findLastIndex((t) => t !== oldest);
    if (keep < 0) {
      out.push(...page);
      const read = finish(out, limit, true);
      if (out.length < limit) read.stalledAt = page[0]?.timestamp;
      return read;
    }
    out.push(...page.slice(0, keep + 1));
    before = page[keep]?.timestamp;
  }
  return finish(out, limit, true);
}

function finish(entries: LogEntry[], limit: number, more: boolean): LogRead {
  return { entries: entries.slice(0, limit), more: more || entries.length > limit };
}
