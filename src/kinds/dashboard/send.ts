/**
 * Dashboard requests: the body each action sends, and the request that carries it out. Dashboards have
 * no DELETE (405): a soft delete and a restore are PATCHes of `deleted`; a restore sends exactly
 * `{"deleted": false}` (older services refuse any other key on a deleted dashboard), and the update
 * planned after it reads the dashboard back and sends only the fields that differ (an unchanged
 * `restriction_level` would be a 403 for members who neither created the dashboard nor administer the
 * project). Collaborator and sharing actions have their own endpoints.
 */
import { alreadyDone, type Executed } from "../../apply/execute.js";
import { UserError } from "../../errors.js";
import type { Env } from "../../plan/secrets.js";
import type { Action } from "../../plan/types.js";
import { deepEqual } from "../../plan/values.js";
import type { ServiceClient } from "../../service/client.js";
import { ServiceError } from "../../service/errors.js";
import { collect } from "../../service/pages.js";
import type { DashboardWrite } from "../../service/types.js";
import { normaliseTags, normaliseText } from "../shared/normalise.js";
import { dashboardState } from "./live.js";

export function dashboardBody(action: Action, _env: Env): Record<string, unknown> | undefined {
  switch (action.action) {
    case "create":
    case "update":
      return { ...action.after };
    case "restore":
      return { deleted: false };
    case "soft_delete":
      return { deleted: true };
    case "add_collaborator":
      return { user_uuid: action.after?.user_uuid, level: action.after?.level ?? 37 };
    case "enable_sharing":
      return { enabled: true };
    case "disable_sharing":
      return { enabled: false };
    default:
      return undefined;
  }
}

export async function createDashboard(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<Executed> {
  const created = await client.dashboards.create(project, body as DashboardWrite);
  return { id: created.id, notes: ignoredTags(body, created.tags) };
}

export async function sendDashboard(
  client: ServiceClient,
  action: Action,
  id: number | string,
  body: Record<string, unknown> | undefined,
): Promise<Executed> {
  const { project } = action.object;
  const dashboardId = Number(id);
  switch (action.action) {
    case "update": {
      const send = liveUnknown(action) ? await onlyChanged(client, project, dashboardId, body) : body;
      if (send !== undefined && Object.keys(send).length === 0) {
        return { id, notes: ["the restored dashboard already had the declared values: nothing sent"] };
      }
      const result = await client.dashboards.update(project, dashboardId, send as DashboardWrite);
      return { id, notes: ignoredTags(send, result.tags) };
    }
    case "restore":
      await restore(client, action, dashboardId);
      return { id, notes: [] };
    case "soft_delete":
      await client.dashboards.update(project, dashboardId, { deleted: true });
      return { id, notes: [] };
    case "add_collaborator":
      await alreadyDone(
        () => client.collaborators.add(project, dashboardId, body as { user_uuid: string; level: 37 }),
        (e) => e.status === 400 && /already is a collaborator/i.test(e.detail ?? ""),
      );
      return { id, notes: [] };
    case "remove_collaborator":
      await alreadyDone(
        () => client.collaborators.remove(project, dashboardId, String(action.before?.user_uuid)),
        (e) => e.status === 404,
      );
      return { id, notes: [] };
    case "enable_sharing":
    case "disable_sharing":
      await client.sharing.update(project, dashboardId, { enabled: action.action === "enable_sharing" });
      return { id, notes: [] };
    default:
      throw new UserError(`${action.action} does not apply to a dashboard`);
  }
}

/** Live dashboards named exactly `name` (the list's search narrows the read). */
export async function findDashboards(
  client: ServiceClient,
  project: number,
  name: string,
): Promise<Array<number | string>> {
  const live = await collect(client.dashboards.list(project, { search: name.slice(0, 200), limit: 100 }));
  return live.filter((d) => d.name === name).map((d) => d.id);
}

async function restore(client: ServiceClient, action: Action, id: number): Promise<void> {
  try {
    // Older services refuse any other key on a deleted dashboard: the body is exactly {"deleted": false}.
    await client.dashboards.update(action.object.project, id, { deleted: false });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      throw new UserError(
        `restore of dashboard "${action.object.name}": id ${id} does not exist, live or soft-deleted; remove the \`id:\` pin to create it`,
      );
    }
    throw error;
  }
}

/**
 * An update planned while the live values were unknown (after a restore, the dashboard was not in the
 * live list): its `before` is empty.
 */
function liveUnknown(action: Action): boolean {
  return Object.keys(action.before ?? {}).length === 0;
}

/**
 * The fields of `body` that differ from the dashboard as it is now, read back right before the PATCH.
 * Sending an unchanged `restriction_level` is refused (403) to anyone but the dashboard's creator or a
 * project admin (service-api.md §1), so a field is sent only when it would change something.
 */
async function onlyChanged(
  client: ServiceClient,
  project: number,
  id: number,
  body: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (body === undefined) return undefined;
  const live = dashboardState(await client.dashboards.get(project, id));
  const desired = { ...body } as Record<string, unknown>;
  if (typeof desired.description === "string") desired.description = normaliseText(desired.description);
  if (Array.isArray(desired.tags)) desired.tags = normaliseTags(desired.tags as string[]);
  return Object.fromEntries(
    Object.entries(body).filter(([key]) => !deepEqual(desired[key], live[key as keyof typeof live])),
  );
}

/** The service drops tags without the tagging feature; say so rather than report success silently. */
function ignoredTags(body: Record<string, unknown> | undefined, returned: readonly string[] | undefined) {
  const sent = body?.tags;
  if (Array.isArray(sent) && sent.length > 0 && (returned ?? []).length === 0) {
    return ["the service ignored the tags (the organization lacks the tagging feature)"];
  }
  return [];
}
