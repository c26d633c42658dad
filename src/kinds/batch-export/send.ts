/**
 * Batch export requests. Creates and updates send the planned body with secrets resolved from the
 * environment at that moment; pause and unpause have their own endpoints (pausing a paused export is a
 * no-op on the service); a delete answered 404 has already happened.
 */
import { alreadyDone, type Executed } from "../../apply/execute.js";
import { UserError } from "../../errors.js";
import { type Env, resolveSecrets } from "../../plan/secrets.js";
import type { Action } from "../../plan/types.js";
import type { ServiceClient } from "../../service/client.js";
import { collect } from "../../service/pages.js";
import type { BatchExportWrite } from "../../service/types.js";

const LOOKUP_PAGE = 1000;

export function batchExportBody(action: Action, env: Env): Record<string, unknown> | undefined {
  const where = `batch export "${action.object.name}"`;
  switch (action.action) {
    case "create":
    case "update":
      return resolveSecrets({ ...action.after }, env, where);
    case "unpause":
      return action.after?.backfill === true ? { backfill: true } : undefined;
    default:
      return undefined;
  }
}

export async function createBatchExport(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<Executed> {
  const created = await client.batchExports.create(project, body as BatchExportWrite);
  return { id: created.id, notes: [] };
}

export async function sendBatchExport(
  client: ServiceClient,
  action: Action,
  id: number | string,
  body: Record<string, unknown> | undefined,
): Promise<Executed> {
  const { project } = action.object;
  const exportId = String(id);
  switch (action.action) {
    case "update":
      await client.batchExports.update(project, exportId, body as BatchExportWrite);
      return { id, notes: [] };
    case "pause":
      await client.batchExports.pause(project, exportId);
      return { id, notes: [] };
    case "unpause":
      await client.batchExports.unpause(project, exportId, (body ?? {}) as { backfill?: boolean });
      return { id, notes: [] };
    case "delete":
      await alreadyDone(
        () => client.batchExports.delete(project, exportId),
        (e) => e.status === 404,
      );
      return { id, notes: [] };
    default:
      throw new UserError(`${action.action} does not apply to a batch export`);
  }
}

/**
 * Live exports named exactly `name`. The list has no name filter, so the whole list is read, in pages
 * of 1,000 (the service takes any `limit`, service-api.md "General framework facts"): one request for
 * any project of ordinary size, since this runs right before every create.
 */
export async function findBatchExports(
  client: ServiceClient,
  project: number,
  name: string,
): Promise<Array<number | string>> {
  const live = await collect(client.batchExports.list(project, { limit: LOOKUP_PAGE }));
  return live.filter((b) => b.name === name).map((b) => b.id);
}
