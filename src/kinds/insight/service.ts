/**
 * Insights (service-api.md §11), on the client's generic requests, each answer checked against its
 * shape (answers.ts). Every insight endpoint carries the service's ClickHouse throttles (240/minute,
 * 1,200/hour), the scope the events endpoints are counted in too: these requests draw from the
 * client's `events` budget, paced apart from the other endpoints' 480/minute. The list is read with
 * `?basic=true`, the metadata-only shape that never computes results. Insights have no DELETE (405):
 * soft-delete with `update(project, id, { deleted: true })`. Creates are never repeated after they may
 * have reached the service; PATCHes are retried. A dashboard's tiles place insights through these
 * endpoints too (src/kinds/dashboard/tile-verbs.ts).
 */
import type { ServiceClient } from "../../service/index.js";
import { type ProjectId, projectPath, type Query, segment as seg } from "../../service/query.js";
import { INSIGHT_ANSWERS as A, type Insight, type InsightBasic, type InsightWrite } from "./answers.js";

export function insightsApi(client: ServiceClient) {
  const path = (project: ProjectId, rest = "") => projectPath(project, `insights/${rest}`);
  const budget = "events" as const;
  return {
    /** Every live insight (basic shape), pages after the first read concurrently. */
    listAll(project: ProjectId, query: Query = {}): Promise<InsightBasic[]> {
      return client.listAll<InsightBasic>(path(project), { basic: "true", ...query }, A.insightPage, budget);
    },
    /** How many live insights the list holds: one request for a one-item page. */
    async count(project: ProjectId): Promise<number> {
      const page = await client.request<{ count?: number; results: unknown[] }>({
        method: "GET",
        path: path(project),
        query: { basic: "true", limit: 1 },
        budget,
        expect: A.insightPage,
      });
      return page.count ?? page.results.length;
    },
    get(project: ProjectId, id: number): Promise<Insight> {
      return client.request({ method: "GET", path: path(project, `${seg(id)}/`), budget, expect: A.insight });
    },
    create(project: ProjectId, body: InsightWrite): Promise<Insight> {
      return client.request({ method: "POST", path: path(project), body, budget, expect: A.insight });
    },
    update(project: ProjectId, id: number, body: InsightWrite): Promise<Insight> {
      return client.request({
        method: "PATCH",
        path: path(project, `${seg(id)}/`),
        body,
        budget,
        expect: A.insight,
      });
    },
  };
}
