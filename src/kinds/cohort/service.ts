/**
 * Cohorts (service-api.md §12.1), a PostHog model (../define/model-api.ts): `/api/projects/{project}/
 * cohorts/`, each answer checked against its shape (answers.ts); lists read with `basic=true`, the
 * shape without the heavy fields the tool never reads.
 */
import type { ServiceClient } from "../../service/index.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import { COHORT_ANSWERS as A, type Cohort } from "./answers.js";

export const COHORT_ENDPOINTS: ModelEndpoints<Cohort> = {
  path: "cohorts",
  shapes: { page: A.cohortPage, one: A.cohort },
  listQuery: { basic: "true" },
};

export function cohortsApi(client: ServiceClient) {
  return modelApi<Cohort>(client, COHORT_ENDPOINTS);
}
