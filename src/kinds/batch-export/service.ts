/**
 * Batch exports in project and organization scope (service-api.md §4), on the client's generic
 * requests, each answer checked against its shape (answers.ts); their runs, backfills and logs are the
 * operations' (operations/service.ts). pause / unpause are idempotent on the service (pausing a paused
 * export is a no-op), so they are retried like PATCH; create is never repeated after it may have
 * reached the service.
 */

import type { ServiceClient } from "../../service/index.js";
import { type ProjectId, projectPath, type Query, segment as seg } from "../../service/query.js";
import { BATCH_EXPORT_ANSWERS as A, type BatchExport, type BatchExportWrite } from "./answers.js";

/** `/api/projects/{project}/batch_exports/{rest}`. */
export function exportPath(project: ProjectId, rest = ""): string {
  return projectPath(project, `batch_exports/${rest}`);
}

export function batchExportsApi(client: ServiceClient) {
  const path = exportPath;
  return {
    list(project: ProjectId, query: Query = {}, max?: number): AsyncIterable<BatchExport> {
      return client.pages<BatchExport>(
        { method: "GET", path: path(project), query, expect: A.batchExportPage },
        max,
      );
    },
    /** Every export of the project, pages after the first read concurrently (see `ServiceClient.listAll`). */
    listAll(project: ProjectId, query: Query = {}): Promise<BatchExport[]> {
      return client.listAll<BatchExport>(path(project), query, A.batchExportPage);
    },
    /** Exports of every project in the organization. */
    listForOrganization(orgId: string, query: Query = {}, max?: number): AsyncIterable<BatchExport> {
      const orgPath = `/api/organizations/${seg(orgId)}/batch_exports/`;
      return client.pages<BatchExport>(
        { method: "GET", path: orgPath, query, expect: A.batchExportPage },
        max,
      );
    },
    get(project: ProjectId, id: string): Promise<BatchExport> {
      return client.request({ method: "GET", path: path(project, `${seg(id)}/`), expect: A.batchExport });
    },
    create(project: ProjectId, body: BatchExportWrite): Promise<BatchExport> {
      return client.request({ method: "POST", path: path(project), body, expect: A.batchExport });
    },
    update(project: ProjectId, id: string, body: BatchExportWrite): Promise<BatchExport> {
      return client.request({
        method: "PATCH",
        path: path(project, `${seg(id)}/`),
        body,
        expect: A.batchExport,
      });
    },
    /** 204. A retry that finds it already gone (404 after a lost answer) counts as done. */
    async delete(project: ProjectId, id: string): Promise<void> {
      await client.request({ method: "DELETE", path: path(project, `${seg(id)}/`) });
    },
    pause(project: ProjectId, id: string): Promise<{ paused: boolean }> {
      const spec = { method: "POST", path: path(project, `${seg(id)}/pause/`), retrySafe: true } as const;
      return client.request({ ...spec, expect: A.paused });
    },
    unpause(project: ProjectId, id: string, body: { backfill?: boolean } = {}): Promise<{ paused: boolean }> {
      const spec = {
        method: "POST",
        path: path(project, `${seg(id)}/unpause/`),
        body,
        retrySafe: true,
        expect: A.paused,
      } as const;
      return client.request(spec);
    },
  };
}
