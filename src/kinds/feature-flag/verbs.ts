/**
 * What a flag's verbs do besides the model's (../define/model.ts): create and update send the
 * declared values with payloads JSON-encoded (an encrypted payload is its variable's text, as the
 * service stores it) and flag dependencies and cohorts by the ids they have in this project: the
 * action `requires` them, and apply hands on the live id the plan knew or the id this apply gave a
 * flag it created first. An update that changes `filters` sends them whole: its changed keys over the
 * filters read at plan time (`wholeFilters`). An update also sends its preconditions, `version` and
 * the stored values of the fields it changes (`original_flag`), so the service refuses it when
 * someone changed those fields since the plan (409, naming who). A flag's live encrypted payloads are
 * in neither (their plain text is never kept; unless the change sends a new one, the service keeps
 * the stored ciphertext), so any write since the plan is a conflict rather than overwritten. A write
 * an approval policy holds answers 409 `approval_required`: apply reports it pending.
 */
import { isSecretRef } from "../../plan/secrets.js";
import type { ServiceClient } from "../../service/index.js";
import { modelBody } from "../define/model.js";
import type { Verb } from "../kind.js";
import { deepMerge, UPDATE } from "../shared/verbs.js";
import type { FeatureFlag } from "./answers.js";
import { flagFields } from "./fields.js";
import { encodePayloads, isObject, type Json, wholeFilters } from "./filters.js";
import { featureFlagsApi } from "./service.js";

/**
 * `after` with what it `sends` besides (encrypted payloads), payloads JSON-encoded (a secret stays
 * its variable's text), secrets resolved, flags and cohorts by id when `referenced` is given.
 */
const flagBody: Verb["body"] = (action, env, owner, referenced) => {
  const merged = deepMerge(action.after ?? {}, action.sends ?? {}) as Json;
  const filters = merged.filters;
  const payloads = isObject(filters) && isObject(filters.payloads) ? filters.payloads : undefined;
  if (isObject(filters) && payloads) filters.payloads = encodePayloads(payloads, isSecretRef);
  const body = modelBody(flagFields, { ...action, after: merged, sends: {} }, env, owner, referenced);
  const sent = isObject(body.filters) && isObject(body.filters.payloads) ? body.filters.payloads : {};
  for (const [key, value] of Object.entries(payloads ?? {})) {
    if (isSecretRef(value)) sent[key] = asPayloadText(sent[key]);
  }
  return body;
};

/**
 * An encrypted payload's variable holds the payload as JSON (`{"code": "X"}`, `"text"`, `42`); a value
 * that is not JSON is a plain text, sent as a JSON string (the service refuses payloads that do not
 * parse). compare.ts compares the same way.
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

/** An update's body: the changed fields, and the `version` + `original_flag` guard its preconditions hold. */
const updateBody: Verb["body"] = (action, env, owner, referenced) => {
  const body = flagBody(action, env, owner, referenced) ?? {};
  const { version, original_flag: original } = action.preconditions ?? {};
  if (typeof version === "number") body.version = version;
  if (isObject(original) && Object.keys(original).length > 0) body.original_flag = original;
  return body;
};

/** What the service dropped without saying: tags (the tagging feature), evaluation contexts (its own). */
export function ignored(body: Json, answer: FeatureFlag): string[] {
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

/** The look-up before a create: live flags with exactly this key (not archived). */
export async function findFlags(client: ServiceClient, project: number, key: string): Promise<number[]> {
  return (await featureFlagsApi(client).withKey(project, key)).map((f) => f.id);
}

export const FLAG_CREATE: Partial<Verb> = { body: flagBody };

/** Updates may turn a flag off or re-key it: the plan says when that is guarded (`destructive: "depends"`). */
export const FLAG_UPDATE: Partial<Verb> = {
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
