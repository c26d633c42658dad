/**
 * The shapes of the flag and cohort answers the kind relies on (SPEC §8), checked before anything reads
 * them. Neither is in the service's OpenAPI subset; they follow service-api.md §10 and are narrowed to
 * what the kind reads: the identity, the fields the plan compares, `version` (an update sends it back)
 * and `last_called_at` (the guard on flags live in production). Objects stay open: the service adds
 * fields over time.
 */
import { answerObject, listPage } from "../../service/shapes.js";

const str = { type: "string" };
const strOrNull = { type: ["string", "null"] };
const bool = { type: "boolean" };
const boolOrNull = { type: ["boolean", "null"] };

const FLAG_SCHEMA = answerObject(
  {
    id: { type: "integer" },
    key: str,
    name: strOrNull,
    filters: { type: "object" },
    active: bool,
    archived: bool,
    deleted: bool,
    version: { type: ["integer", "null"] },
    tags: { type: "array", items: str },
    evaluation_contexts: { type: ["array", "null"], items: str },
    ensure_experience_continuity: boolOrNull,
    is_remote_configuration: boolOrNull,
    has_encrypted_payloads: boolOrNull,
    last_called_at: strOrNull,
  },
  ["id", "key", "filters", "active", "deleted"],
);

/** One flag: retrieve, create, PATCH and the lifecycle actions. */
export const FLAG = { schema: FLAG_SCHEMA };
/** A page of the flag list (limit/offset, 100 a page). */
export const FLAG_PAGE = listPage(FLAG_SCHEMA);
/** A page of the cohort list: what resolving a name needs. */
export const COHORT_PAGE = listPage(
  answerObject({ id: { type: "integer" }, name: strOrNull }, ["id", "name"]),
);
