/**
 * A flag's verbs and the requests that carry them out (service-api.md §10). Create and update send
 * the declared values with payloads JSON-encoded (an encrypted payload is its variable's text, as the
 * service stores it) and flag dependencies by the id the other flag has in this project: the action
 * `requires` them, and apply hands on the live id the plan knew or the id this apply gave a flag it
 * created first. An update that changes `filters` sends them whole: its changed keys over the filters
 * read at plan time (`wholeFilters`). An update also sends its preconditions, `version` and the stored
 * values of the fields it changes (`original_flag`), so the service refuses it when someone changed
 * those fields since the plan (409, naming who). A
 * flag's live encrypted payloads are in neither (their plain text is never kept; unless the change
 * sends a new one, the service keeps the stored ciphertext), so any write since the plan is a conflict
 * rather than overwritten. A write an approval policy holds answers 409 `approval_required`: apply reports it
 * pending.
 */
import type { Executed, ReferencedIds } from "../../apply/kinds.js";
import { UserError } from "../../errors.js";
import { isSecretRef, resolveSecrets } from "../../plan/secrets.js";
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import type { Verb } from "../kind.js";
import { CREATE, RESTORE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { FeatureFlag } from "./answers.js";
import { encodePayloads, isObject, type Json, toServiceFilters, wholeFilters } from "./filters.js";
import { FEATURE_FLAG } from "./name.js";
import { featureFlagsApi } from "./service.js";

/**
 * The filters of a body as the service takes them: flag dependencies by this project's ids, which the
 * action `requires` (the live id the plan knew, or the id this apply gave a flag it created).
 */
function serviceFilters(filters: Json, referenced: ReferencedIds | undefined, owner: string): Json {
  return toServiceFilters(filters, (key) => {
    const id = referenced?.idOf({ kind: FEATURE_FLAG, name: key });
    if (id === undefined) {
      throw new UserError(
        `${owner} depends on flag "${key}", which has no id in this project (it was not created by this apply); run plan again`,
      );
    }
    return Number(id);
  });
}

/**
 * `after` (with what it `sends` besides: encrypted payloads) with payloads JSON-encoded (a secret
 * stays its variable's text), secrets resolved, and flag dependencies by id when `referenced` is given.
 */
const flagBody: Verb["body"] = (action, env, owner, referenced) => {
  const after = structuredClone(action.after ?? {}) as Json;
  const sent = action.sends?.filters;
  if (isObject(sent)) after.filters = { ...(isObject(after.filters) ? after.filters : {}), ...sent };
  if (referenced !== undefined && isObject(after.filters)) {
    after.filters = serviceFilters(after.filters, referenced, owner);
  }
  return encodedBody(after, env, owner);
};

function encodedBody(after: Json, env: Parameters<NonNullable<Verb["body"]>>[1], owner: string): Json {
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
}

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
 * An update's body: the changed fields, and the `version` + `original_flag` guard (SPEC §3) its
 * preconditions hold: the values read at plan time of the changed fields the service compares, as it
 * stores them (a changed `filters` whole: plan.ts says why), never an encrypted payload.
 */
const updateBody: Verb["body"] = (action, env, owner, referenced) => {
  const body = flagBody(action, env, owner, referenced) ?? {};
  const { version, original_flag: original } = action.preconditions ?? {};
  if (typeof version === "number") body.version = version;
  if (isObject(original) && Object.keys(original).length > 0) body.original_flag = original;
  return body;
};

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
  const created = await featureFlagsApi(client).create(project, body);
  return { id: created.id, notes: ignored(body, created) };
}

export async function findFlags(client: ServiceClient, project: number, key: string): Promise<number[]> {
  return (await featureFlagsApi(client).withKey(project, key)).map((f) => f.id);
}

/** Updates may turn a flag off or re-key it: the plan says when that is guarded (`destructive: "depends"`). */
export const FLAG_UPDATE: Verb = {
  ...UPDATE,
  destructive: "depends",
  // `pull --refresh`: an encrypted payload (a change per payload key) is never written back.
  refreshes: (action) =>
    UPDATE.refreshes(action).filter(
      (path) => !(path[0] === "filters" && path[1] === "payloads" && path.length > 2),
    ),
  body: updateBody,
  async send(client, action, id, body) {
    const { project } = action.object;
    const sent = { ...(body ?? {}) };
    // The changed filters keys go out inside the whole filters read at plan time (filters.ts says why).
    const stored = body?.original_flag;
    if (isObject(sent.filters) && isObject(stored) && isObject(stored.filters)) {
      sent.filters = wholeFilters(stored.filters, sent.filters);
    }
    const answer = await featureFlagsApi(client).update(project, Number(id), sent);
    return { id, notes: ignored(sent, answer) };
  },
};

export const FLAG_CREATE: Verb = { ...CREATE, body: flagBody };

export const FLAG_SOFT_DELETE: Verb = {
  ...SOFT_DELETE,
  async send(client, action, id) {
    await featureFlagsApi(client).update(action.object.project, Number(id), { deleted: true });
    return { id, notes: [] };
  },
};

export const FLAG_RESTORE: Verb = {
  ...RESTORE,
  async send(client, action, id) {
    try {
      await featureFlagsApi(client).update(action.object.project, Number(id), { deleted: false });
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        throw new UserError(
          `restore of feature flag "${action.object.name}": id ${id} does not exist, live or soft-deleted; remove the \`id:\` pin to create it`,
        );
      }
      throw error;
    }
    return { id, notes: [] };
  },
};
