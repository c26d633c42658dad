/**
 * Actions (service-api.md §13.1), a PostHog model (../define/model-api.ts): `/api/projects/{project}/
 * actions/`, each answer checked against its shape (answers.ts). The list sends no `next` links: read
 * with a `limit` above the service's 500 actions a project may hold, it answers them all to one request,
 * and its `count` says whether any remain (then read by offset).
 */
import type { ServiceClient } from "../../service/index.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import { ACTION_ANSWERS as A, type PostHogAction } from "./answers.js";

export const ACTION_ENDPOINTS: ModelEndpoints<PostHogAction> = {
  path: "actions",
  shapes: { page: A.actionPage, one: A.action },
  paging: { limit: 1000, byCount: true },
};

export function actionsApi(client: ServiceClient) {
  return modelApi<PostHogAction>(client, ACTION_ENDPOINTS);
}
