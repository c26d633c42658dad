/**
 * Insights found without reading the whole list (a change-scoped plan, SPEC §3): by the list's
 * `?search=` (name, derived name and description, at most 200 characters; callers keep exact names),
 * by id, and the list's size from a one-item page. All on the insight endpoints' own budget.
 */
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import type { InsightBasic } from "../../service/types.js";

/** The service's search accepts this many characters. */
const SEARCH_MAX = 200;

export function searchInsights(
  client: ServiceClient,
  project: number,
  name: string,
): Promise<InsightBasic[]> {
  return client.insights.listAll(project, { search: name.slice(0, SEARCH_MAX) });
}

/** The insight with this id; undefined when the service has none or it is soft-deleted. */
export async function getInsight(
  client: ServiceClient,
  project: number,
  id: number | string,
): Promise<InsightBasic | undefined> {
  const numeric = Number(id);
  if (!Number.isSafeInteger(numeric) || numeric < 1) return undefined;
  try {
    const insight = await client.insights.get(project, numeric);
    return insight.deleted === true ? undefined : insight;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

export function countInsights(client: ServiceClient, project: number): Promise<number> {
  return client.insights.count(project);
}
