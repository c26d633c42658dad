/**
 * Cohorts (service-api.md §12.1), a PostHog model (../define/model-api.ts): `/api/projects/{project}/
 * cohorts/`, each answer checked against its shape (answers.ts). Lists are read whole, not with
 * `basic=true`: the readings of which fields that leaves out disagree (`filters`, which the plan
 * compares, among them or not), and a plan that lost the filters would see every cohort change.
 */
import type { ServiceClient } from "../../service/index.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import { COHORT_ANSWERS as A, type Cohort } from "./answers.js";

export const COHORT_ENDPOINTS: ModelEndpoints<Cohort> = {
  path: "cohorts",
  shapes: { page: A.cohortPage, one: A.cohort },
};

export function cohortsApi(client: ServiceClient) {
  return modelApi<Cohort>(client, COHORT_ENDPOINTS);
}
