/**
 * Dashboards found without reading the whole list: by the list's `?search=` (a contains-match on the
 * name, of at most 200 characters: the first 200 of a longer name still find it; callers keep exact
 * matches), by id, and the list's size from a one-item page.
 */
import type { ServiceClient } from "../../service/index.js";
import { collect } from "../../service/pages.js";
import { readById } from "../shared/by-id.js";
import type { DashboardBasic } from "./answers.js";
import { dashboardsApi } from "./service.js";

/** The service's search accepts this many characters. */
const SEARCH_MAX = 200;
/**
 * A search's page: a contains-match of a short name can answer hundreds of dashboards, and the list
 * takes any limit (service-api.md §1), so one request holds them where pages of 100 would take many.
 */
const SEARCH_PAGE = 1000;

export function searchDashboards(
  client: ServiceClient,
  project: number,
  name: string,
): Promise<DashboardBasic[]> {
  return collect(
    dashboardsApi(client).list(project, { search: name.slice(0, SEARCH_MAX), limit: SEARCH_PAGE }),
  );
}

/** The dashboard with this id; undefined when the service has none (a soft-deleted one answers 404). */
export function getDashboard(
  client: ServiceClient,
  project: number,
  id: number | string,
): Promise<DashboardBasic | undefined> {
  return readById(id, (numeric) => dashboardsApi(client).get(project, numeric));
}

export function countDashboards(client: ServiceClient, project: number): Promise<number> {
  return dashboardsApi(client).count(project);
}
