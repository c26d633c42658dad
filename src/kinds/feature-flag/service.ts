/**
 * The feature-flag endpoints the tool calls (service-api.md §10), on the client's generic requests,
 * each answer checked against its shape (answers.ts) and its encrypted payloads, which a personal API
 * key reads in plain text, handed to the run's scrubber before anything else sees them: the list (100
 * a page; every list made with a personal API key counts as flag usage on the service), the exact,
 * case-insensitive `?key=` lookup (right before a create and for change-scoped reads), the list's size,
 * one flag by id (soft-deleted ones included), create, PATCH and the lifecycle actions. Creates are never repeated after they may have
 * reached the service; PATCHes and the lifecycle actions (idempotent) are retried.
 */
import type { ServiceClient } from "../../service/index.js";
import { type ProjectId, projectPath, segment as seg } from "../../service/query.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import { FLAG_ANSWERS as A, type FeatureFlag } from "./answers.js";

export type LifecycleAction = "enable" | "disable" | "archive" | "unarchive";

/** What the service answers for an encrypted payload to any key but a personal one: no secret. */
const SENTINEL = /^"?\*+ \(encrypted\)"?$/;

/**
 * Hides the live plain text of a flag's encrypted payloads from every output of the run, labelled by
 * flag and payload key: each value as stored (a JSON text) and as any output would write it again
 * (compact JSON, Python's spacing), and every scalar inside it, object keys and numbers included. The
 * scrubber leaves out what is shorter than its minimum (a `true`, a 2-digit number): those are only
 * found inside the longer forms, and it is the plan that never holds a live payload (plan.ts).
 */
export function hideEncryptedPayloads(client: ServiceClient, flag: FeatureFlag): FeatureFlag {
  const payloads = flag.has_encrypted_payloads === true ? flag.filters?.payloads : undefined;
  if (typeof payloads !== "object" || payloads === null || Array.isArray(payloads)) return flag;
  for (const [key, value] of Object.entries(payloads)) {
    if (typeof value !== "string" || SENTINEL.test(value)) continue;
    // No quotes in the label: outputs escape them, and the label should read the same everywhere.
    const label = `(encrypted payload ${key} of feature flag ${flag.key})`;
    for (const form of payloadForms(value)) client.hideSecret(form, label);
  }
  return flag;
}

/**
 * A stored payload (a JSON text) in every form an output could give it: as stored, compact, with
 * Python's `json.dumps` spacing, and each scalar and object key inside it, as text.
 */
export function payloadForms(json: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [json];
  }
  const forms = new Set([json]);
  try {
    forms.add(JSON.stringify(value)).add(spaced(value));
  } catch {
    // Nested past what a stack holds (RangeError): no output would show it whole either.
  }
  const walk = (v: unknown, depth: number): void => {
    if (depth > 64) return;
    if (typeof v === "string") forms.add(v);
    else if (typeof v === "number") forms.add(String(v));
    else if (Array.isArray(v)) for (const item of v) walk(item, depth + 1);
    else if (typeof v === "object" && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        forms.add(k);
        walk(item, depth + 1);
      }
    }
  };
  walk(value, 0);
  return [...forms];
}

/** A JSON value as Python's `json.dumps` writes it by default (`, ` and `: `), how the service stores payloads. */
function spaced(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spaced).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spaced(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
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
