/**
 * Insights found without reading the whole list (a change-scoped plan, SPEC §3): by the list's
 * `?search=` (name, derived name and description, at most 200 characters; callers keep exact names),
 * by id, and the list's size from a one-item page. All on the insight endpoints' own budget.
 */
import type { ServiceClient } from "../../service/index.js";
import { readById } from "../shared/by-id.js";
import type { InsightBasic } from "./answers.js";
import { insightsApi } from "./service.js";

/** The service's search accepts this many characters. */
const SEARCH_MAX = 200;

export function searchInsights(
  client: ServiceClient,
  project: number,
  name: string,
): Promise<InsightBasic[]> {
  return insightsApi(client).listAll(project, { search: name.slice(0, SEARCH_MAX) });
}

/** The insight with this id; undefined when the service has none or it is soft-deleted. */
export function getInsight(
  client: ServiceClient,
  project: number,
  id: number | string,
): Promise<InsightBasic | undefined> {
  return readById(id, (numeric) => insightsApi(client).get(project, numeric));
}

export function countInsights(client: ServiceClient, project: number): Promise<number> {
  return insightsApi(client).count(project);
}
