/**
 * A flag's verbs and the requests that carry them out (service-api.md §10). Create and update send
 * the declared values with payloads JSON-encoded (an encrypted payload is its variable's text, as the
 * service stores it) and flag dependencies by the id the other flag has in this project, looked up
 * when the request is built (a flag created earlier in the same apply has one by then). An update that
 * changes `filters` sends them whole: its changed keys over the filters read at plan time
 * (`wholeFilters`). An update also sends `version` and the live values it changes (`original_flag`),
 * so the service refuses it when someone changed those fields since the plan (409, naming who). A
 * flag's live encrypted payloads are in neither (their plain text is never kept; unless the change
 * sends a new one, the service keeps the stored ciphertext), so any write since the plan is a conflict
 * rather than overwritten. A write an approval policy holds answers 409 `approval_required`: apply reports it
 * pending.
 */
import type { Executed } from "../../apply/kinds.js";
import { UserError } from "../../errors.js";
import { isSecretRef, resolveSecrets } from "../../plan/secrets.js";
import type { ServiceClient } from "../../service/index.js";
import type { Verb } from "../kind.js";
import { restoring } from "../shared/restore.js";
import { CREATE, RESTORE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { FeatureFlag } from "./answers.js";
import { flagReferences } from "./dependencies.js";
import { encodePayloads, isObject, type Json, toServiceFilters, wholeFilters } from "./filters.js";
import { dependencies, dependents, flagOrder } from "./order.js";
import { featureFlagsApi } from "./service.js";

/** Ids of flag keys per client and project, for the run: each key is looked up once. */
const known = new WeakMap<ServiceClient, Map<string, number>>();

async function flagId(client: ServiceClient, project: number, key: string, owner: string): Promise<number> {
  let ids = known.get(client);
  if (ids === undefined) {
    ids = new Map();
    known.set(client, ids);
  }
  const cached = ids.get(`${project}/${key}`);
  if (cached !== undefined) return cached;
  // The list's `?key=` leaves archived flags out unless asked: an archived flag is looked up second.
  const found =
    (await featureFlagsApi(client).withKey(project, key)).at(0) ??
    (await featureFlagsApi(client).withKey(project, key, true)).at(0);
  if (found === undefined) {
    throw new UserError(`${owner} depends on flag "${key}", which project ${project} does not have`);
  }
  ids.set(`${project}/${key}`, found.id);
  return found.id;
}

/** Remembers a flag this run created or read, so that a dependent's request finds its id at once. */
export function rememberFlag(
  client: ServiceClient,
  project: number,
  flag: Pick<FeatureFlag, "id" | "key">,
): void {
  let ids = known.get(client);
  if (ids === undefined) {
    ids = new Map();
    known.set(client, ids);
  }
  ids.set(`${project}/${flag.key}`, flag.id);
}

/** The filters of a body as the service takes them: flag dependencies by this project's ids. */
async function serviceFilters(
  client: ServiceClient,
  project: number,
  filters: Json,
  owner: string,
): Promise<Json> {
  const keys = [...new Set(flagReferences(filters).map((r) => r.key))];
  const ids = new Map(
    await Promise.all(keys.map(async (key) => [key, await flagId(client, project, key, owner)] as const)),
  );
  return toServiceFilters(filters, (key) => ids.get(key) ?? 0);
}

/** `after` with payloads JSON-encoded (a secret stays its variable's text) and secrets resolved. */
const flagBody: Verb["body"] = (action, env, owner) => {
  const after = structuredClone(action.after ?? {}) as Json;
  const filters = after.filters;
  if (!isObject(filters) || !isObject(filters.payloads)) return resolveSecrets(after, env, owner);
  const payloads = filters.payloads;
  filters.payloads = encodePayloads(payloads, isSecretRef);
  const body = resolveSecrets(after, env, owner);
  const sent = (body.filters as Json).payloads as Json;
  for (const [key, value] of Object.entries(payloads)) {
    if (isSecretRef(value)) sent[key] = asPayloadText(sent[key]);
  }
  return body;
};

/**
 * An encrypted payload's variable holds the payload as JSON (`{"code": "X"}`, `"text"`, `42`); a value
 * that is not JSON is a plain text, sent as a JSON string (the service refuses payloads that do not
 * parse). plan.ts compares the same way.
 */
export function asPayloadText(value: unknown): string {
  const text = String(value);
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

/**
 * Changed fields the service's version check never compares, so never sent in `original_flag`
 * (posthog/api/feature_flag.py, FeatureFlagSerializer.update and _get_conflicting_changes): the check
 * runs on the validated fields after `evaluation_contexts` was popped from them, and compares each with
 * `getattr(instance, field)`, an attribute of the flag's row, which has no `tags` (they are tagged
 * items of their own): a tags entry could only make the check read what is not there.
 */
const UNCOMPARED = new Set(["tags", "evaluation_contexts"]);

/**
 * An update's body: the changed fields, and the `version` + `original_flag` guard (SPEC §3): the
 * values read at plan time of the fields the update changes that the service compares, as it stores
 * them (a changed `filters` whole: plan.ts says why), never an encrypted payload.
 */
const updateBody: Verb["body"] = (action, env, owner) => {
  const body = flagBody(action, env, owner) ?? {};
  const before = action.before ?? {};
  const original: Json = {};
  for (const key of Object.keys(action.after ?? {})) {
    if (key in before && !UNCOMPARED.has(key)) original[key] = before[key];
  }
  if (typeof before.version === "number") body.version = before.version;
  if (Object.keys(original).length > 0) body.original_flag = original;
  return body;
};

async function withIds(client: ServiceClient, project: number, body: Json, owner: string): Promise<Json> {
  return isObject(body.filters)
    ? { ...body, filters: await serviceFilters(client, project, body.filters, owner) }
    : body;
}

/** The service drops tags without the tagging feature: said rather than reported as done. */
function ignored(body: Json, answer: FeatureFlag): string[] {
  const notes: string[] = [];
  if (Array.isArray(body.tags) && body.tags.length > 0 && (answer.tags ?? []).length === 0) {
    notes.push("the service ignored the tags (the organization lacks the tagging feature)");
  }
  if (
    Array.isArray(body.evaluation_contexts) &&
    body.evaluation_contexts.length > 0 &&
    (answer.evaluation_contexts ?? []).length === 0
  ) {
    notes.push(
      "the service ignored the evaluation contexts (the organization lacks its flag-evaluation-tags feature)",
    );
  }
  return notes;
}

export async function createFeatureFlag(
  client: ServiceClient,
  project: number,
  body: Json,
): Promise<Executed> {
  const owner = `feature flag "${String(body.key)}"`;
  const created = await featureFlagsApi(client).create(project, await withIds(client, project, body, owner));
  rememberFlag(client, project, created);
  return { id: created.id, notes: ignored(body, created) };
}

export async function findFlags(client: ServiceClient, project: number, key: string): Promise<number[]> {
  return (await featureFlagsApi(client).withKey(project, key)).map((f) => f.id);
}

/** Updates may turn a flag off or re-key it: the plan says when that is guarded (`destructive: "depends"`). */
export const FLAG_UPDATE: Verb = {
  ...UPDATE,
  destructive: "depends",
  references: flagOrder,
  // `pull --refresh`: an encrypted payload (a change per payload key) is never written back.
  refreshes: (action) =>
    UPDATE.refreshes(action).filter(
      (path) => !(path[0] === "filters" && path[1] === "payloads" && path.length > 2),
    ),
  body: updateBody,
  async send(client, action, id, body) {
    const { project } = action.object;
    const owner = `feature flag "${action.object.name}"`;
    const sent = await withIds(client, project, body ?? {}, owner);
    // The changed filters keys go out inside the whole filters read at plan time (filters.ts says why).
    const stored = action.before?.filters;
    if (isObject(sent.filters) && isObject(stored)) sent.filters = wholeFilters(stored, sent.filters);
    const answer = await featureFlagsApi(client).update(project, Number(id), sent);
    rememberFlag(client, project, answer);
    return { id, notes: ignored(sent, answer) };
  },
};

export const FLAG_CREATE: Verb = { ...CREATE, body: flagBody, references: dependencies };

export const FLAG_SOFT_DELETE: Verb = {
  ...SOFT_DELETE,
  references: dependents,
  async send(client, action, id) {
    await featureFlagsApi(client).update(action.object.project, Number(id), { deleted: true });
    return { id, notes: [] };
  },
};

export const FLAG_RESTORE: Verb = {
  ...RESTORE,
  async send(client, action, id) {
    await restoring(action, id, "feature flag", async () => {
      const answer = await featureFlagsApi(client).update(action.object.project, Number(id), {
        deleted: false,
      });
      rememberFlag(client, action.object.project, answer);
    });
    return { id, notes: [] };
  },
};
