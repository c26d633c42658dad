/**
 * A dashboard's own verbs and the requests that carry them out: collaborators and the sharing switch,
 * with their own endpoints (the model's create, update, soft delete and restore are the kit's:
 * ../define/model.ts), and the tile verbs (tile-verbs.ts).
 */
import { alreadyDone } from "../../apply/execute.js";
import type { Action } from "../../plan/types.js";
import { plural } from "../../words.js";
import type { Verb } from "../kind.js";
import { COLLABORATOR_LEVEL } from "./fields.js";
import { collaboratorsApi, sharingApi } from "./service.js";
import { TILE_VERBS } from "./tile-verbs.js";

/** The collaborator an action names: `after` for an add, `before` for a remove. */
function collaborator(action: Action, side: "before" | "after") {
  const value = action[side];
  const level = typeof value?.level === "number" ? value.level : undefined;
  return {
    user: typeof value?.user_uuid === "string" ? value.user_uuid : "?",
    ...(level === undefined ? {} : { access: COLLABORATOR_LEVEL[level] ?? `level ${level}` }),
  };
}

const byUser = (action: Action) => {
  const side = action.after ?? action.before;
  return typeof side?.user_uuid === "string" ? side.user_uuid : "";
};

/** The user a collaborator action names, for outputs to say who it is. */
const users = (action: Action) => {
  const uuid = byUser(action);
  return uuid === "" ? [] : [uuid];
};

/** `after` = { user_uuid, level }. */
export const ADD_COLLABORATOR: Verb = {
  name: "add_collaborator",
  symbol: "+",
  word: "add collaborator",
  phrase: (n) => `${n} ${plural(n, "collaborator")} to add`,
  step: 3,
  destructive: false,
  sides: { before: "absent", after: "required" },
  sortKey: byUser,
  users,
  detail: (action) => collaborator(action, "after"),
  refreshes: () => [["collaborators"]],
  body: (action) => ({ user_uuid: action.after?.user_uuid, level: action.after?.level ?? 37 }),
  async send(client, action, id, body) {
    await alreadyDone(
      () =>
        collaboratorsApi(client).add(
          action.object.project,
          Number(id),
          body as { user_uuid: string; level: 37 },
        ),
      (e) => e.status === 400 && /already is a collaborator/i.test(e.detail ?? ""),
    );
    return { id, notes: [] };
  },
};

/** `before` = { user_uuid, level }. */
export const REMOVE_COLLABORATOR: Verb = {
  name: "remove_collaborator",
  symbol: "-",
  word: "remove collaborator",
  phrase: (n) => `${n} ${plural(n, "collaborator")} to remove`,
  step: 2,
  destructive: true,
  sides: { before: "required", after: "absent" },
  sortKey: byUser,
  users,
  detail: (action) => collaborator(action, "before"),
  refreshes: () => [["collaborators"]],
  async send(client, action, id) {
    await alreadyDone(
      () =>
        collaboratorsApi(client).remove(action.object.project, Number(id), String(action.before?.user_uuid)),
      (e) => e.status === 404,
    );
    return { id, notes: [] };
  },
};

/** `before` = { enabled }, `after` = { enabled }. */
function sharing(enabled: boolean): Verb {
  return {
    name: enabled ? "enable_sharing" : "disable_sharing",
    symbol: enabled ? "+" : "-",
    word: enabled ? "sharing on" : "sharing off",
    phrase: (n) => `${n} ${enabled ? "to share" : "to stop sharing"}`,
    step: 4,
    destructive: !enabled,
    sides: { before: "required", after: "required" },
    refreshes: () => [["sharing", "enabled"]],
    body: () => ({ enabled }),
    async send(client, action, id) {
      await sharingApi(client).update(action.object.project, Number(id), { enabled });
      return { id, notes: [] };
    },
  };
}

export const ENABLE_SHARING = sharing(true);
export const DISABLE_SHARING = sharing(false);

export const DASHBOARD_VERBS: readonly Verb[] = [
  ADD_COLLABORATOR,
  REMOVE_COLLABORATOR,
  ENABLE_SHARING,
  DISABLE_SHARING,
  ...TILE_VERBS,
];
