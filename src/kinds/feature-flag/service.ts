/**
 * The feature-flag endpoints the tool calls (service-api.md §10), on the client's generic requests,
 * each answer checked against its shape (answers.ts) and its encrypted payloads, which a personal API
 * key reads in plain text, handed to the run's scrubber before anything else sees them: the list (100
 * a page; every list made with a personal API key counts as flag usage on the service), the exact,
 * case-insensitive `?key=` lookup (right before a create and for change-scoped reads), the list's size,
 * one flag by id (soft-deleted ones included), create, PATCH, the lifecycle actions, and the project's
 * cohorts (read once, only when a file names cohorts). Creates are never repeated after they may have
 * reached the service; PATCHes and the lifecycle actions (idempotent) are retried.
 */
import type { ServiceClient } from "../../service/index.js";
import { type ProjectId, projectPath, segment as seg } from "../../service/query.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import { FLAG_ANSWERS as A, type Cohort, type FeatureFlag } from "./answers.js";

export type LifecycleAction = "enable" | "disable" | "archive" | "unarchive";

/** What the service answers for an encrypted payload to any key but a personal one: no secret. */
const SENTINEL = /^"?\*+ \(encrypted\)"?$/;

/**
 * Hides the live plain text of a flag's encrypted payloads from every output of the run: each value
 * as stored (a JSON text) and each text inside it, labelled by flag and payload key.
 */
export function hideEncryptedPayloads(client: ServiceClient, flag: FeatureFlag): FeatureFlag {
  const payloads = flag.has_encrypted_payloads === true ? flag.filters?.payloads : undefined;
  if (typeof payloads !== "object" || payloads === null || Array.isArray(payloads)) return flag;
  for (const [key, value] of Object.entries(payloads)) {
    if (typeof value !== "string" || SENTINEL.test(value)) continue;
    // No quotes in the label: outputs escape them, and the label should read the same everywhere.
    const label = `(encrypted payload ${key} of feature flag ${flag.key})`;
    client.hideSecret(value, label);
    for (const text of textsIn(value)) client.hideSecret(text, label);
  }
  return flag;
}

/** The texts inside a JSON text (a payload is any JSON value), for the scrubber. */
function textsIn(json: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null) Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}

/** Where flags live: a PostHog model (../define/model-api.ts), every answer's encrypted payloads hidden. */
export const FLAG_ENDPOINTS: ModelEndpoints<FeatureFlag> = {
  path: "feature_flags",
  shapes: { page: A.featureFlagPage, one: A.featureFlag },
  answer: hideEncryptedPayloads,
};

export function featureFlagsApi(client: ServiceClient) {
  const model = modelApi<FeatureFlag>(client, FLAG_ENDPOINTS);
  const path = (project: ProjectId, rest = "") => projectPath(project, `feature_flags/${rest}`);
  return {
    ...model,
    /**
     * The project's flags that are neither soft-deleted nor archived (the list leaves archived flags
     * out unless asked), or with `archived` the archived ones only: the service has no list of both.
     */
    listAll: (project: ProjectId, archived = false): Promise<FeatureFlag[]> =>
      model.listAll(project, archived ? { archived: "true" } : {}),
    /**
     * The flags whose key is exactly `key` (not archived, or with `archived` the archived ones): the
     * service's `?key=` is case-insensitive, only exact matches count.
     */
    async withKey(project: ProjectId, key: string, archived = false): Promise<FeatureFlag[]> {
      const found = await model.listAll(project, archived ? { key, archived: "true" } : { key });
      return found.filter((f) => f.key === key);
    },
    /** `enable` / `disable` / `archive` / `unarchive`: no body, idempotent (safe to repeat). */
    async act(project: ProjectId, id: number, action: LifecycleAction): Promise<FeatureFlag> {
      const answer = await client.request<FeatureFlag>({
        method: "POST",
        path: path(project, `${seg(id)}/${action}/`),
        body: {},
        retrySafe: true,
        expect: A.featureFlag,
      });
      return hideEncryptedPayloads(client, answer);
    },
  };
}

export function cohortsApi(client: ServiceClient) {
  return {
    /** Every cohort of the project (not deleted): names resolve against these. */
    listAll(project: ProjectId): Promise<Cohort[]> {
      return client.listAll<Cohort>(projectPath(project, "cohorts/"), {}, A.cohortPage);
    },
  };
}
