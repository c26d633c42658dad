/**
 * A batch export's runs, backfills and logs (service-api.md §4), on the client's generic requests,
 * each answer checked against its shape (answers.ts). Backfills, run retries and cancels are never
 * repeated after they may have reached the service.
 */

import type { ServiceClient } from "../../../service/index.js";
import { type ProjectId, type Query, segment as seg } from "../../../service/query.js";
import { exportPath } from "../service.js";
import {
  OPERATIONS_ANSWERS as A,
  type BackfillResponse,
  type BatchExportBackfill,
  type BatchExportRun,
  type LogEntry,
} from "./answers.js";

export function runsApi(client: ServiceClient) {
  const path = (project: ProjectId, exportId: string, rest = "") =>
    exportPath(project, `${seg(exportId)}/runs/${rest}`);
  return {
    /** Cursor pages, newest first; the service only returns the last 7 days unless `after` is given. */
    list(
      project: ProjectId,
      exportId: string,
      query: Query = {},
      max?: number,
    ): AsyncIterable<BatchExportRun> {
      const spec = { method: "GET", path: path(project, exportId), query, expect: A.runPage } as const;
      return client.pages<BatchExportRun>(spec, max);
    },
    /**
     * One run. Newest services look single runs up through the list's 7-day window: pass
     * `{ after: <ISO instant> }` to reach an older run (the same for retry, cancel and logs).
     */
    get(project: ProjectId, exportId: string, runId: string, query: Query = {}): Promise<BatchExportRun> {
      const spec = { method: "GET", path: path(project, exportId, `${seg(runId)}/`), query } as const;
      return client.request({ ...spec, expect: A.run });
    },
    /** Starts a backfill of the run's interval. */
    retry(project: ProjectId, exportId: string, runId: string, query: Query = {}): Promise<BackfillResponse> {
      const spec = { method: "POST", path: path(project, exportId, `${seg(runId)}/retry/`), query } as const;
      return client.request({ ...spec, expect: A.backfillCreated });
    },
    cancel(
      project: ProjectId,
      exportId: string,
      runId: string,
      query: Query = {},
    ): Promise<{ cancelled: boolean }> {
      const spec = { method: "POST", path: path(project, exportId, `${seg(runId)}/cancel/`), query } as const;
      return client.request({ ...spec, expect: A.cancelled });
    },
    /**
     * Older services only: the newest one answers 500 on this route (service-api.md §4 "Logs"); read
     * the export's logs with `instance_id` = the run instead, as `logs --run` does.
     */
    logs(
      project: ProjectId,
      exportId: string,
      runId: string,
      query: Query = {},
      max?: number,
    ): AsyncIterable<LogEntry> {
      return client.pages<LogEntry>(
        { method: "GET", path: path(project, exportId, `${seg(runId)}/logs/`), query, expect: A.logPage },
        max,
      );
    },
  };
}

export function backfillsApi(client: ServiceClient) {
  const path = (project: ProjectId, exportId: string) => exportPath(project, `${seg(exportId)}/backfills/`);
  return {
    /** Exports the window again (or for the first time). */
    start(
      project: ProjectId,
      exportId: string,
      body: { start_at: string; end_at: string },
    ): Promise<BackfillResponse> {
      return client.request({
        method: "POST",
        path: path(project, exportId),
        body,
        expect: A.backfillCreated,
      });
    },
    /** Cursor pages, newest first. */
    list(
      project: ProjectId,
      exportId: string,
      query: Query = {},
      max?: number,
    ): AsyncIterable<BatchExportBackfill> {
      return client.pages<BatchExportBackfill>(
        { method: "GET", path: path(project, exportId), query, expect: A.backfillPage },
        max,
      );
    },
  };
}

export function logsApi(client: ServiceClient) {
  return {
    /** The export's entries, newest first; `limit` 1–500 per page. */
    list(project: ProjectId, exportId: string, query: Query = {}, max?: number): AsyncIterable<LogEntry> {
      const spec = {
        method: "GET",
        path: exportPath(project, `${seg(exportId)}/logs/`),
        query,
        expect: A.logPage,
      } as const;
      return client.pages<LogEntry>(spec, max);
    },
  };
}
