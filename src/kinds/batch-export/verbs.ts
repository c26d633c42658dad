/**
 * A batch export's verbs and the requests that carry them out. Creates and updates send the planned
 * body with secrets resolved from the environment at that moment; pause and unpause have their own
 * endpoints (pausing a paused export is a no-op on the service), never a PATCH of `paused`; a delete
 * answered 404 has already happened.
 */
import { alreadyDone } from "../../apply/execute.js";
import type { BatchExportWrite } from "../../service/types.js";
import type { Verb } from "../kind.js";
import { CREATE, DELETE, UPDATE } from "../shared/verbs.js";

const update: Verb = {
  ...UPDATE,
  async send(client, action, id, body) {
    await client.batchExports.update(action.object.project, String(id), body as BatchExportWrite);
    return { id, notes: [] };
  },
};

const remove: Verb = {
  ...DELETE,
  async send(client, action, id) {
    await alreadyDone(
      () => client.batchExports.delete(action.object.project, String(id)),
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
    await client.batchExports.pause(action.object.project, String(id));
    return { id, notes: [] };
  },
};

/** `before` = { paused: true }, `after` = { paused: false } (with `backfill: true` to export the gap). */
export const UNPAUSE: Verb = {
  name: "unpause",
  symbol: "▶",
  word: "unpause",
  phrase: (n) => `${n} to unpause`,
  step: 5,
  destructive: false,
  sides: { before: "required", after: "required" },
  detail: (action) =>
    action.after?.backfill === true ? { text: "(with backfill of the paused gap)" } : undefined,
  refreshes: () => [["paused"]],
  body: (action) => (action.after?.backfill === true ? { backfill: true } : undefined),
  async send(client, action, id, body) {
    await client.batchExports.unpause(
      action.object.project,
      String(id),
      (body ?? {}) as { backfill?: boolean },
    );
    return { id, notes: [] };
  },
};

export { CREATE, remove as DELETE, update as UPDATE };

export const batchExportVerbs: readonly Verb[] = [CREATE, update, remove, PAUSE, UNPAUSE];
