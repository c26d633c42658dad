/**
 * The feature-flag endpoints the tool calls (service-api.md §10), each answer checked against its
 * shape: the list (100 a page; every list made with a personal API key counts as flag usage on the
 * service), the exact, case-insensitive `?key=` lookup (right before a create and for change-scoped
 * reads), one flag by id (soft-deleted ones included), create, PATCH, the lifecycle actions, and the
 * project's cohorts (read once, only when a file names cohorts).
 */
import type { ServiceClient } from "../../service/index.js";
import type { Cohort, FeatureFlag } from "../../service/types.js";

export type LifecycleAction = "enable" | "disable" | "archive" | "unarchive";

const flags = (project: number, rest = "") => `/api/projects/${project}/feature_flags/${rest}`;

/**
 * The project's flags that are neither soft-deleted nor archived (the list leaves archived flags out
 * unless asked), or with `archived` the archived ones only: the service has no list of both.
 */
export function listFlags(client: ServiceClient, project: number, archived = false): Promise<FeatureFlag[]> {
  return client.listAll<FeatureFlag>(flags(project), archived ? { archived: "true" } : {}, "featureFlagPage");
}

/**
 * The flags (not archived) whose key is exactly `key`: the service's `?key=` is case-insensitive, only
 * exact matches count.
 */
export async function flagsWithKey(
  client: ServiceClient,
  project: number,
  key: string,
): Promise<FeatureFlag[]> {
  const found = await client.listAll<FeatureFlag>(flags(project), { key }, "featureFlagPage");
  return found.filter((f) => f.key === key);
}

/** One flag by id, soft-deleted ones included (the service reads them by id). */
export function getFlag(client: ServiceClient, project: number, id: number): Promise<FeatureFlag> {
  return client.request<FeatureFlag>({
    method: "GET",
    path: flags(project, `${id}/`),
    expect: "featureFlag",
  });
}

export function createFlag(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<FeatureFlag> {
  return client.request<FeatureFlag>({ method: "POST", path: flags(project), body, expect: "featureFlag" });
}

export function patchFlag(
  client: ServiceClient,
  project: number,
  id: number,
  body: Record<string, unknown>,
): Promise<FeatureFlag> {
  return client.request<FeatureFlag>({
    method: "PATCH",
    path: flags(project, `${id}/`),
    body,
    expect: "featureFlag",
  });
}

/** `enable` / `disable` / `archive` / `unarchive`: no body, idempotent (safe to repeat). */
export function flagAction(
  client: ServiceClient,
  project: number,
  id: number,
  action: LifecycleAction,
): Promise<FeatureFlag> {
  return client.request<FeatureFlag>({
    method: "POST",
    path: flags(project, `${id}/${action}/`),
    body: {},
    retrySafe: true,
    expect: "featureFlag",
  });
}

/** Every cohort of the project (not deleted): names resolve against these. */
export function listCohorts(client: ServiceClient, project: number): Promise<Cohort[]> {
  return client.listAll<Cohort>(`/api/projects/${project}/cohorts/`, {}, "cohortPage");
}
