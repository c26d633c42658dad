/**
 * An insight's verbs and the requests that carry them out (service-api.md §11). Insights have no
 * DELETE (405): a soft delete and a restore are PATCHes of `deleted`. Every request goes through the
 * client's insights namespace, paced on the insight endpoints' own budget. A create is marked `saved`
 * (an insight the UI lists among the saved ones) and never names dashboards: the dashboards' tiles do
 * (src/kinds/dashboard/tile-verbs.ts).
 */
import type { Executed } from "../../apply/execute.js";
import type { ServiceClient } from "../../service/client.js";
import { ServiceError } from "../../service/errors.js";
import type { Verb } from "../kind.js";
import { restoring } from "../shared/restore.js";
import { ignoredTags } from "../shared/tags.js";
import { CREATE, RESTORE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { InsightWrite } from "./answers.js";
import { insightsApi } from "./service.js";

/** Live insights named exactly `name` (the list's search narrows the read; `?basic=true`). */
export async function findInsights(
  client: ServiceClient,
  project: number,
  name: string,
): Promise<Array<number | string>> {
  const live = await insightsApi(client).listAll(project, { search: name.slice(0, 200) });
  return live.filter((i) => (i.name ?? "") === name).map((i) => i.id);
}

export async function createInsight(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<Executed> {
  const created = await insightsApi(client).create(project, { ...(body as InsightWrite), saved: true });
  return { id: created.id, notes: ignoredTags(body, created.tags) };
}

const update: Verb = {
  ...UPDATE,
  async send(client, action, id, body) {
    const result = await insightsApi(client).update(action.object.project, Number(id), body as InsightWrite);
    return { id, notes: ignoredTags(body, result.tags) };
  },
};

const restore: Verb = {
  ...RESTORE,
  async send(client, action, id) {
    // Older services refuse any other key on a deleted object: the body is exactly {"deleted": false}.
    await restoring(action, id, "insight", () =>
      insightsApi(client).update(action.object.project, Number(id), { deleted: false }),
    );
    return { id, notes: [] };
  },
};

const softDelete: Verb = {
  ...SOFT_DELETE,
  async send(client, action, id) {
    try {
      await insightsApi(client).update(action.object.project, Number(id), { deleted: true });
    } catch (error) {
      // Already gone (deleted since the plan): the goal is reached.
      if (!(error instanceof ServiceError && error.status === 404)) throw error;
    }
    return { id, notes: [] };
  },
};

export const insightVerbs: readonly Verb[] = [CREATE, update, softDelete, restore];
