/**
 * Insights (service-api.md §11). Every insight endpoint carries the service's ClickHouse throttles
 * (240/minute, 1,200/hour), the scope the events endpoints are counted in too: these requests draw
 * from the client's `events` budget, paced apart from the other endpoints' 480/minute. The list is read
 * with `?basic=true`, the metadata-only shape that never computes results. Insights have no DELETE
 * (405): soft-delete with `update(project, id, { deleted: true })`. Creates are never repeated after
 * they may have reached the service; PATCHes are retried.
 */
import { type ProjectId, projectPath } from "./dashboards.js";
import { collectOffsetPages } from "./pages.js";
import { type Query, segment as seg } from "./query.js";
import type { Transport } from "./transport.js";
import type { Insight, InsightBasic, InsightWrite } from "./types.js";

export function insightsApi(t: Transport) {
  const path = (project: ProjectId, rest = "") => projectPath(project, `insights/${rest}`);
  const budget = "events" as const;
  return {
    /** Every live insight (basic shape), pages after the first read concurrently. */
    listAll(project: ProjectId, query: Query = {}): Promise<InsightBasic[]> {
      return collectOffsetPages<InsightBasic>(t, {
        method: "GET",
        path: path(project),
        query: { basic: "true", ...query },
        budget,
        expect: "insightPage",
      });
    },
    /** How many live insights the list holds: one request for a one-item page. */
    async count(project: ProjectId): Promise<number> {
      const page = await t.send<{ count?: number; results: unknown[] }>({
        method: "GET",
        path: path(project),
        query: { basic: "true", limit: 1 },
        budget,
        expect: "insightPage",
      });
      return page.count ?? page.results.length;
    },
    get(project: ProjectId, id: number): Promise<Insight> {
      return t.send({ method: "GET", path: path(project, `${seg(id)}/`), budget, expect: "insight" });
    },
    create(project: ProjectId, body: InsightWrite): Promise<Insight> {
      return t.send({ method: "POST", path: path(project), body, budget, expect: "insight" });
    },
    update(project: ProjectId, id: number, body: InsightWrite): Promise<Insight> {
      return t.send({ method: "PATCH", path: path(project, `${seg(id)}/`), body, budget, expect: "insight" });
    },
  };
}
