/**
 * Insights (service-api.md §11), a PostHog model (../define/model-api.ts): `/api/projects/{project}/
 * insights/`, each answer checked against its shape (answers.ts). Every insight endpoint carries the
 * service's ClickHouse throttles (240/minute, 1,200/hour), the scope the events endpoints are counted
 * in too: these requests draw from the client's `events` budget, paced apart from the other endpoints'
 * 480/minute. The list is read with `?basic=true`, the metadata-only shape that never computes
 * results. A dashboard's tiles place insights through these endpoints too (its tile verbs).
 */

import type { ServiceClient } from "../../service/index.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import { INSIGHT_ANSWERS as A, type Insight } from "./answers.js";

export const INSIGHT_ENDPOINTS: ModelEndpoints<Insight> = {
  path: "insights",
  shapes: { page: A.insightPage, one: A.insight },
  listQuery: { basic: "true" },
  budget: "events",
};

export function insightsApi(client: ServiceClient) {
  return modelApi<Insight>(client, INSIGHT_ENDPOINTS);
}
