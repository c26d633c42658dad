/**
 * Batch exports in project and organization scope, their runs, backfills and logs (service-api.md §4).
 * pause / unpause are idempotent on the service (pausing a paused export is a no-op), so they are
 * retried like PATCH; create, backfill, run retry and cancel are never repeated after they may have
 * reached the service.
 */
import { type ProjectId, projectPath } from "./dashboards.js";
import { collectOffsetPages, paginate } from "./pages.js";
import { type Query, segment as seg } from "./query.js";
import type { Transport } from "./transport.js";
import type {
  BackfillResponse,
  BatchExport,
  BatchExportBackfill,
  BatchExportRun,
  BatchExportWrite,
  LogEntry,
} from "./types.js";

const PAGE = "batchExportPage" as const;

export function batchExportsApi(t: Transport) {
  const path = (project: ProjectId, rest = "") => projectPath(project, `batch_exports/${rest}`);
  return {
    list(project: ProjectId, query: Query = {}, max?: number): AsyncIterable<BatchExport> {
      return paginate<BatchExport>(t, { method: "GET", path: path(project), query, expect: PAGE }, max);
    },
    /** Every export of the project, pages after the first read concurrently (see `collectOffsetPages`). */
    listAll(project: ProjectId, query: Query = {}): Promise<BatchExport[]> {
      return collectOffsetPages<BatchExport>(t, { method: "GET", path: path(project), query, expect: PAGE });
    },
    /** Exports of every project in the organization. */
    listForOrganization(orgId: string, query: Query = {}, max?: number): AsyncIterable<BatchExport> {
      const orgPath = `/api/organizations/${seg(orgId)}/batch_exports/`;
      return paginate<BatchExport>(t, { method: "GET", path: orgPath, query, expect: PAGE }, max);
    },
    get(project: ProjectId, id: string): Promise<BatchExport> {
      return t.send({ method: "GET", path: path(project, `${seg(id)}/`), expect: "batchExport" });
    },
    create(project: ProjectId, body: BatchExportWrite): Promise<BatchExport> {
      return t.send({ method: "POST", path: path(project), body, expect: "batchExport" });
    },
    update(project: ProjectId, id: string, body: BatchExportWrite): Promise<BatchExport> {
      return t.send({ method: "PATCH", path: path(project, `${seg(id)}/`), body, expect: "batchExport" });
    },
    /** 204. A retry that finds it already gone (404 after a lost answer) counts as done. */
    async delete(project: ProjectId, id: string): Promise<void> {
      await t.send({ method: "DELETE", path: path(project, `${seg(id)}/`) });
    },
    pause(project: ProjectId, id: string): Promise<{ paused: boolean }> {
      const spec = { method: "POST", path: path(project, `${seg(id)}/pause/`), retrySafe: true } as const;
      return t.send({ ...spec, expect: "paused" });
    },
    unpause(project: ProjectId, id: string, body: { backfill?: boolean } = {}): Promise<{ paused: boolean }> {
      const spec = {
        method: "POST",
        path: path(project, `${seg(id)}/unpause/`),
        body,
        retrySafe: true,
        expect: "paused",
      } as const;
      return t.send(spec);
    },
    backfill(
      project: ProjectId,
      id: string,
      body: { start_at: string; end_at: string },
    ): Promise<BackfillResponse> {
      return t.send({
        method: "POST",
        path: path(project, `${seg(id)}/backfills/`),
        body,
        expect: "backfillCreated",
      });
    },
    /** Cursor pages, newest first. */
    backfills(
      project: ProjectId,
      id: string,
      query: Query = {},
      max?: number,
    ): AsyncIterable<BatchExportBackfill> {
      return paginate<BatchExportBackfill>(
        t,
        { method: "GET", path: path(project, `${seg(id)}/backfills/`), query, expect: "backfillPage" },
        max,
      );
    },
    /** Newest first; `limit` 1–500 per page. */
    logs(project: ProjectId, id: string, query: Query = {}, max?: number): AsyncIterable<LogEntry> {
      const spec = {
        method: "GET",
        path: path(project, `${seg(id)}/logs/`),
        query,
        expect: "logPage",
      } as const;
      return paginate<LogEntry>(t, spec, max);
    },
  };
}

export function runsApi(t: Transport) {
  const path = (project: ProjectId, exportId: string, rest = "") =>
    projectPath(project, `batch_exports/${seg(exportId)}/runs/${rest}`);
  return {
    /** Cursor pages, newest first; the service only returns the last 7 days unless `after` is given. */
    list(
      project: ProjectId,
      exportId: string,
      query: Query = {},
      max?: number,
    ): AsyncIterable<BatchExportRun> {
      const spec = { method: "GET", path: path(project, exportId), query, expect: "runPage" } as const;
      return paginate<BatchExportRun>(t, spec, max);
    },
    /**
     * One run. Newest services look single runs up through the list's 7-day window: pass
     * `{ after: <ISO instant> }` to reach an older run (the same for retry, cancel and logs).
     */
    get(project: ProjectId, exportId: string, runId: string, query: Query = {}): Promise<BatchExportRun> {
      const spec = { method: "GET", path: path(project, exportId, `${seg(runId)}/`), query } as const;
      return t.send({ ...spec, expect: "run" });
    },
    /** Starts a backfill of the run's interval. */
    retry(project: ProjectId, exportId: string, runId: string, query: Query = {}): Promise<BackfillResponse> {
      const spec = { method: "POST", path: path(project, exportId, `${seg(runId)}/retry/`), query } as const;
      return t.send({ ...spec, expect: "backfillCreated" });
    },
    cancel(
      project: ProjectId,
      exportId: string,
      runId: string,
      query: Query = {},
    ): Promise<{ cancelled: boolean }> {
      const spec = { method: "POST", path: path(project, exportId, `${seg(runId)}/cancel/`), query } as const;
      return t.send({ ...spec, expect: "cancelled" });
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
      return paginate<LogEntry>(
        t,
        { method: "GET", path: path(project, exportId, `${seg(runId)}/logs/`), query, expect: "logPage" },
        max,
      );
    },
  };
}
