/**
 * The feature-flag endpoints the tool calls (service-api.md §10), each answer checked against its
 * shape (shapes.ts) and its encrypted payloads, which a personal API key reads in plain text, handed
 * to the run's scrubber before anything else sees them: the list (100 a page; every list made with a personal API key counts as flag usage on the
 * service), the exact, case-insensitive `?key=` lookup (right before a create and for change-scoped
 * reads), one flag by id (soft-deleted ones included), create, PATCH, the lifecycle actions, and the
 * project's cohorts (read once, only when a file names cohorts).
 */
import type { ServiceClient } from "../../service/index.js";
import type { Cohort, FeatureFlag } from "../../service/types.js";
import { COHORT_PAGE, FLAG, FLAG_PAGE } from "./shapes.js";

export type LifecycleAction = "enable" | "disable" | "archive" | "unarchive";

const flags = (project: number, rest = "") => `/api/projects/${project}/feature_flags/${rest}`;

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

const hidden = (client: ServiceClient) => (flag: FeatureFlag) => hideEncryptedPayloads(client, flag);

/**
 * The project's flags that are neither soft-deleted nor archived (the list leaves archived flags out
 * unless asked), or with `archived` the archived ones only: the service has no list of both.
 */
export async function listFlags(
  client: ServiceClient,
  project: number,
  archived = false,
): Promise<FeatureFlag[]> {
  const found = await client.listAll<FeatureFlag>(
    flags(project),
    archived ? { archived: "true" } : {},
    FLAG_PAGE,
  );
  return found.map(hidden(client));
}

/**
 * The flags whose key is exactly `key` (not archived, or with `archived` the archived ones): the
 * service's `?key=` is case-insensitive, only exact matches count.
 */
export async function flagsWithKey(
  client: ServiceClient,
  project: number,
  key: string,
  archived = false,
): Promise<FeatureFlag[]> {
  const query = archived ? { key, archived: "true" } : { key };
  const found = await client.listAll<FeatureFlag>(flags(project), query, FLAG_PAGE);
  return found.map(hidden(client)).filter((f) => f.key === key);
}

/** One flag by id, soft-deleted ones included (the service reads them by id). */
export async function getFlag(client: ServiceClient, project: number, id: number): Promise<FeatureFlag> {
  const flag = await client.request<FeatureFlag>({
    method: "GET",
    path: flags(project, `${id}/`),
    expect: FLAG,
  });
  return hideEncryptedPayloads(client, flag);
}

export async function createFlag(
  client: ServiceClient,
  project: number,
  body: Record<string, unknown>,
): Promise<FeatureFlag> {
  const flag = await client.request<FeatureFlag>({
    method: "POST",
    path: flags(project),
    body,
    expect: FLAG,
  });
  return hideEncryptedPayloads(client, flag);
}

export async function patchFlag(
  client: ServiceClient,
  project: number,
  id: number,
  body: Record<string, unknown>,
): Promise<FeatureFlag> {
  const flag = await client.request<FeatureFlag>({
    method: "PATCH",
    path: flags(project, `${id}/`),
    body,
    expect: FLAG,
  });
  return hideEncryptedPayloads(client, flag);
}

/** `enable` / `disable` / `archive` / `unarchive`: no body, idempotent (safe to repeat). */
export async function flagAction(
  client: ServiceClient,
  project: number,
  id: number,
  action: LifecycleAction,
): Promise<FeatureFlag> {
  const flag = await client.request<FeatureFlag>({
    method: "POST",
    path: flags(project, `${id}/${action}/`),
    body: {},
    retrySafe: true,
    expect: FLAG,
  });
  return hideEncryptedPayloads(client, flag);
}

/** Every cohort of the project (not deleted): names resolve against these. */
export function listCohorts(client: ServiceClient, project: number): Promise<Cohort[]> {
  return client.listAll<Cohort>(`/api/projects/${project}/cohorts/`, {}, COHORT_PAGE);
}
