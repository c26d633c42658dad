/**
 * A batch export's verbs and the requests that carry them out. Creates and updates send the planned
 * body with secrets resolved from the environment at that moment; pause and unpause have their own
 * endpoints (pausing a paused export is a no-op on the service), never a PATCH of `paused`; a delete
 * answered 404 has already happened.
 */
import { alreadyDone, type Executed } from "../../apply/execute.js";
import { resolveSecrets } from "../../plan/secrets.js";
import { isPlainObject } from "../../plan/values.js";
import type { ServiceClient } from "../../service/client.js";
import { collect } from "../../service/pages.js";
import type { Verb } from "../kind.js";
import { CREATE, DELETE, deepMerge, UPDATE } from "../shared/verbs.js";
import type { BatchExportWrite } from "./answers.js";
import { batchExportsApi } from "./service.js";

const LOOKUP_PAGE = 1000;

export async function createBatchExport(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<Executed> {
  const created = await batchExportsApi(client).create(project, body as BatchExportWrite);
  return { id: created.id, notes: [] };
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
  const live = await collect(batchExportsApi(client).list(project, { limit: LOOKUP_PAGE }));
  return live.filter((b) => b.name === name).map((b) => b.id);
}

/**
 * An update's body: the changed fields (`after`) with what it `sends` besides laid over them (secrets,
 * resolved from the environment now, and the destination's and schedule's companions); a changed
 * `destination.integration` goes as the destination's `integration_id`, which `sends` carries.
 */
const updateBody: Verb["body"] = (action, env, owner) => {
  const body = deepMerge(action.after ?? {}, action.sends ?? {});
  if (isPlainObject(body.destination)) delete body.destination.integration;
  return resolveSecrets(body, env, owner);
};

const update: Verb = {
  ...UPDATE,
  body: updateBody,
  async send(client, action, id, body) {
    await batchExportsApi(client).update(action.object.project, String(id), body as BatchExportWrite);
    return { id, notes: [] };
  },
};

const remove: Verb = {
  ...DELETE,
  async send(client, action, id) {
    await alreadyDone(
      () => batchExportsApi(client).delete(action.object.project, String(id)),
      (e) => e.status === 404,
    );
    return { id, notes: [] };
  },
};

/** `before` = { paused: false }, `after` = { paused: true }. */
export const PAUSE: Verb = {
  name: "pause",
  symbol: "⏸",
  word: "pause",
  phrase: (n) => `${n} to pause`,
  step: 5,
  destructive: true,
  sides: { before: "required", after: "required" },
  refreshes: () => [["paused"]],
  async send(client, action, id) {
    await batchExportsApi(client).pause(action.object.project, String(id));
    return { id, notes: [] };
  },
};

/** `before` = { paused: true }, `after` = { paused: false }; `sends` = { backfill: true } exports the gap. */
export const UNPAUSE: Verb = {
  name: "unpause",
  symbol: "▶",
  word: "unpause",
  phrase: (n) => `${n} to unpause`,
  step: 5,
  destructive: false,
  sides: { before: "required", after: "required" },
  detail: (action) =>
    action.sends?.backfill === true ? { text: "(with backfill of the paused gap)" } : undefined,
  refreshes: () => [["paused"]],
  body: (action) => (action.sends?.backfill === true ? { backfill: true } : undefined),
  async send(client, action, id, body) {
    await batchExportsApi(client).unpause(
      action.object.project,
      String(id),
      (body ?? {}) as { backfill?: boolean },
    );
    return { id, notes: [] };
  },
};

export { CREATE, remove as DELETE, update as UPDATE };

export const batchExportVerbs: readonly Verb[] = [CREATE, update, remove, PAUSE, UNPAUSE];
