/**
 * One plan action → one request (restore and replace are already split into separate actions by the
 * planner). Knows which answers mean "already done" so a second apply after a partial failure
 * converges instead of failing on its own earlier success.
 */
import { UserError } from "../errors.js";
import { type Env, requestBodyFor } from "../kinds/index.js";
import type { Action } from "../plan/types.js";
import { type ServiceClient, ServiceError, UnknownOutcomeError } from "../service/index.js";
import type { BatchExportWrite, DashboardWrite } from "../service/types.js";
import { findCreated } from "./recover.js";

/** What one executed action learnt: the object's id (after a create) and things the user should know. */
export interface Executed {
  id?: number | string;
  notes: string[];
}

export interface ExecuteDeps {
  client: ServiceClient;
  env: Env;
  /** Live ids the plan already knows for this object's name: never mistaken for a lost create. */
  knownIds: ReadonlySet<number | string>;
}

export async function executeAction(
  action: Action,
  id: number | string | undefined,
  deps: ExecuteDeps,
): Promise<Executed> {
  const body = requestBodyFor(action, deps.env);
  const { project, kind } = action.object;
  const { client } = deps;
  if (action.action === "create") return create(action, body ?? {}, deps);
  if (id === undefined) {
    throw new UserError(`${action.action} of ${kind} "${action.object.name}": its id is not known`);
  }
  if (kind === "dashboard") {
    const dashboardId = Number(id);
    switch (action.action) {
      case "update": {
        const result = await client.dashboards.update(project, dashboardId, body as DashboardWrite);
        return { id, notes: ignoredTags(body, result.tags) };
      }
      case "restore":
        return restoreDashboard(action, dashboardId, deps);
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
    }
  } else {
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
    }
  }
  throw new UserError(`${action.action} does not apply to a ${kind}`);
}

async function create(action: Action, body: Record<string, unknown>, deps: ExecuteDeps): Promise<Executed> {
  const { project, kind, name } = action.object;
  const send = async () =>
    kind === "dashboard"
      ? deps.client.dashboards.create(project, body as DashboardWrite)
      : deps.client.batchExports.create(project, body as BatchExportWrite);
  try {
    const created = await send();
    return { id: created.id, notes: "tags" in created ? ignoredTags(body, created.tags) : [] };
  } catch (error) {
    if (!(error instanceof UnknownOutcomeError)) throw error;
    // The request may have been committed: look before creating again, never create blindly.
    const found = await findCreated(deps.client, action.object, deps.knownIds);
    if (found.length === 1) {
      return { id: found[0], notes: ["the create's answer was lost; found the created object by name"] };
    }
    if (found.length > 1) {
      throw new UserError(
        `create of ${kind} "${name}": the answer was lost and ${found.length} objects with that name now exist (ids ${found.join(", ")}); pin the right one with \`id:\` and delete the others`,
      );
    }
    const created = await send();
    return {
      id: created.id,
      notes: ["the first create was not committed (its answer was lost); created again"],
    };
  }
}

async function restoreDashboard(action: Action, id: number, deps: ExecuteDeps): Promise<Executed> {
  try {
    // The service refuses any other key on a deleted dashboard: the body is exactly {"deleted": false}.
    await deps.client.dashboards.update(action.object.project, id, { deleted: false });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      throw new UserError(
        `restore of dashboard "${action.object.name}": id ${id} does not exist, live or soft-deleted; remove the \`id:\` pin to create it`,
      );
    }
    throw error;
  }
  return { id, notes: [] };
}

/**
 * Runs a request whose particular refusal means the goal is already reached. Such a request is safe to
 * send again after an unknown outcome (e.g. a 502 after a collaborator POST): a repeat that finds the
 * work done is answered with that refusal, so one repeat settles it.
 */
async function alreadyDone(request: () => Promise<unknown>, done: (e: ServiceError) => boolean) {
  const attempt = async () => {
    try {
      await request();
    } catch (error) {
      if (!(error instanceof ServiceError && done(error))) throw error;
    }
  };
  try {
    await attempt();
  } catch (error) {
    if (!(error instanceof UnknownOutcomeError)) throw error;
    await attempt();
  }
}

/** The service drops tags without the tagging feature; say so rather than report success silently. */
function ignoredTags(body: Record<string, unknown> | undefined, returned: readonly string[] | undefined) {
  const sent = body?.tags;
  if (Array.isArray(sent) && sent.length > 0 && (returned ?? []).length === 0) {
    return ["the service ignored the tags (the organization lacks the tagging feature)"];
  }
  return [];
}
