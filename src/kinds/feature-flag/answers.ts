/**
 * What the service answers about feature flags (service-api.md §10; it is not in the
 * OpenAPI subset): each answer's type, as the real service sends it (only the fields the tool reads or
 * writes are typed precisely), and its shape, checked before anything reads it (SPEC §8; the words and
 * the rules of shapes are src/service/shapes.ts's). The shapes are narrowed to what the kind reads: the
 * identity, the fields the plan compares, `version` (an update sends it back) and `last_called_at` (the
 * guard on flags live in production). Objects stay open: the service adds fields over time.
 */
import { type AnswerShape, answerTypes, listPage } from "../../service/shapes.js";
import type { UserBasic } from "../../service/types.js";

/**
 * A feature flag as the service answers it (FeatureFlagSerializer): the fields the tool reads.
 * `filters` is as read: payload values JSON-encoded strings (encrypted ones in plain text to a
 * personal API key), `cohort_name` added to cohort properties, flag dependencies by id.
 */
export interface FeatureFlag {
  id: number;
  key: string;
  /** The flag's description. */
  name: string;
  filters: Record<string, unknown>;
  active: boolean;
  archived?: boolean;
  deleted: boolean;
  /** Bumped on every write; sent back with `original_flag` so a stale write is refused (409). */
  version?: number;
  tags?: string[];
  ensure_experience_continuity?: boolean | null;
  is_remote_configuration?: boolean | null;
  has_encrypted_payloads?: boolean | null;
  evaluation_runtime?: string | null;
  bucketing_identifier?: string | null;
  evaluation_contexts?: string[];
  /** When an SDK last evaluated the flag: within 30 days, the flag is live in production. */
  last_called_at?: string | null;
  created_at?: string;
  updated_at?: string;
  last_modified_by?: UserBasic | null;
}

const { obj, str, strOrNull, int, list } = answerTypes;
const bool = answerTypes.bool;
const boolOrNull = { type: ["boolean", "null"] };

const featureFlag = obj(
  {
    id: int,
    key: str,
    name: strOrNull,
    filters: { type: "object" },
    active: bool,
    archived: bool,
    deleted: bool,
    version: { type: ["integer", "null"] },
    tags: list(str),
    evaluation_contexts: { type: ["array", "null"], items: str },
    ensure_experience_continuity: boolOrNull,
    is_remote_configuration: boolOrNull,
    has_encrypted_payloads: boolOrNull,
    last_called_at: strOrNull,
  },
  ["id", "key", "filters", "active", "deleted"],
);

/** The shapes of the flag kind's answers, by name (the registry lists them: `Kind.answers`). */
export const FLAG_ANSWERS = {
  /** A page of the flag list (limit/offset, 100 a page; `?key=` answers one too). */
  featureFlagPage: listPage(featureFlag),
  /** One flag: retrieve, create, PATCH and the lifecycle actions. */
  featureFlag: { schema: featureFlag },
} as const satisfies Record<string, AnswerShape>;
