/**
 * A dashboard's verbs and the requests that carry them out. Dashboards have no DELETE (405): a soft
 * delete and a restore are PATCHes of `deleted`; a restore sends exactly `{"deleted": false}` (older
 * services refuse any other key on a deleted dashboard), and the update planned after it reads the
 * dashboard back and sends only the fields that differ (an unchanged `restriction_level` would be a
 * 403 for members who neither created the dashboard nor administer the project). Collaborators and the
 * sharing switch are verbs of their own, with their own endpoints.
 */
import { alreadyDone, type Executed } from "../../apply/execute.js";
import { UserError } from "../../errors.js";
import type { Action } from "../../plan/types.js";
import { deepEqual } from "../../plan/values.js";
import type { ServiceClient } from "../../service/client.js";
import { ServiceError } from "../../service/errors.js";
import { plural } from "../../words.js";
import type { Verb } from "../kind.js";
import { ignoredTags } from "../shared/tags.js";
import { CREATE, RESTORE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { DashboardWrite } from "./answers.js";
import { COLLABORATOR_LEVEL, dashboardFields } from "./fields.js";
import { collaboratorsApi, dashboardsApi, sharingApi } from "./service.js";
import { TILE_VERBS } from "./tile-verbs.js";

export async function createDashboard(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<Executed> {
  const created = await dashboardsApi(client).create(project, body as DashboardWrite);
  return { id: created.id, notes: ignoredTags(body, created.tags) };
}

/**
 * An update planned while the live values were unknown (after a restore, the dashboard was not in the
 * live list) says so in its preconditions (`live: "unknown"`): the fields of its body that differ from the dashboard as it is now
 * are read back right before the PATCH. Sending an unchanged `restriction_level` is refused (403) to
 * anyone but the dashboard's creator or a project admin (service-api.md §1), so a field is sent only
 * when it would change something.
 */
async function onlyChanged(
  client: ServiceClient,
  project: number,
  id: number,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const live = dashboardFields.state(await dashboardsApi(client).get(project, id));
  return Object.fromEntries(
    Object.entries(body).filter(
      ([key, value]) => !deepEqual(dashboardFields.normalised(key, value), live[key]),
    ),
  );
}

const update: Verb = {
  ...UPDATE,
  async send(client, action, id, body) {
    const { project } = action.object;
    const liveUnknown = action.preconditions?.live === "unknown";
    const send =
      liveUnknown && body !== undefined ? await onlyChanged(client, project, Number(id), body) : body;
    if (send !== undefined && Object.keys(send).length === 0) {
      return { id, notes: ["the restored dashboard already had the declared values: nothing sent"] };
    }
    const result = await dashboardsApi(client).update(project, Number(id), send as DashboardWrite);
    return { id, notes: ignoredTags(send, result.tags) };
  },
};

const restore: Verb = {
  ...RESTORE,
  async send(client, action, id) {
    try {
      // Older services refuse any other key on a deleted dashboard: the body is exactly {"deleted": false}.
      await dashboardsApi(client).update(action.object.project, Number(id), { deleted: false });
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        throw new UserError(
          `restore of dashboard "${action.object.name}": id ${id} does not exist, live or soft-deleted; remove the \`id:\` pin to create it`,
        );
      }
      throw error;
    }
    return { id, notes: [] };
  },
};

const softDelete: Verb = {
  ...SOFT_DELETE,
  async send(client, action, id) {
    await dashboardsApi(client).update(action.object.project, Number(id), { deleted: true });
    return { id, notes: [] };
  },
};

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

export const dashboardVerbs: readonly Verb[] = [
  CREATE,
  update,
  softDelete,
  restore,
  ADD_COLLABORATOR,
  REMOVE_COLLABORATOR,
  ENABLE_SHARING,
  DISABLE_SHARING,
  ...TILE_VERBS,
];
