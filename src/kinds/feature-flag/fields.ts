/**
 * A feature flag's fields (SPEC §2, service-api.md §10.2): the one place each is named. `key` is the
 * identity (unless `id` pins it); the service's `name` is the flag's description, kept apart from the
 * identity (`keptAs`: the desired object holds it as `description`, as live flags do). `filters` is compared by the plan hook
 * (plan.ts), which undoes the service's rewrites and resolves flags and cohorts per project; `archived`
 * is a switch flipped by the archive / unarchive endpoints.
 */
import type { SecretValue } from "../../config/secret.js";
import { choice, type DesiredOf, field, fieldTable, flag, integer, tags, text } from "../define/index.js";
import { normaliseText } from "../shared/normalise.js";
import type { Json } from "./filters.js";
import { ARCHIVE, UNARCHIVE } from "./lifecycle.js";
import { FLAG_KEY_PATTERN } from "./schema.js";

/** A flag reference of the declared filters and where it is written. */
export interface DeclaredReference {
  key: string;
  source: { file: string; line: number; column: number };
}

/** A cohort named by `cohort:` in the declared filters and where. */
export interface DeclaredCohort {
  name: string;
  source: { file: string; line: number; column: number };
}

/** Booleans the service may answer as null for a flag that never set them. */
const onlyTrue = (value: unknown) => value === true;

const sortedUnique = (value: unknown) =>
  Array.isArray(value)
    ? [...new Set(value.map(String))].sort()
    : value === null || value === undefined
      ? []
      : value;

export const flagFields = fieldTable(
  {
    key: text(
      "The flag's key, what code checks: its identity within the project unless `id` is given.",
      { minLength: 1, maxLength: 400, pattern: FLAG_KEY_PATTERN, "x-expect": "letters, digits, - and _" },
      { required: true },
    ),
    id: integer("The service's flag id: pins identity across key renames (pull writes it).", { minimum: 1 }),
    // The service's `name` is the flag's description: kept as `description`, as live flags keep it.
    name: text(
      "The flag's description (the service calls it `name`).",
      {},
      {
        keptAs: "description",
        wire: "description",
        declare: (value, at) => at.ctx.text(at.pointer, value),
        normalise: normaliseText,
      },
    ),
    active: flag("Whether the flag is on. false turns it off for everyone."),
    tags: tags("Tags, a case-insensitive set (needs the tagging feature)."),
    filters: field<Json, Json>(
      { $ref: "#/$defs/feature_flag_filters" },
      { compare: "none", live: false, pull: "never", declare: (value) => value },
    ),
    ensure_experience_continuity: flag("Keep a user's value across the anonymous-to-identified switch.", {
      normalise: onlyTrue,
      toYaml: onlyTrue,
    }),
    evaluation_runtime: choice(
      ["server", "client", "all"],
      "Where the flag may be evaluated: server SDKs, client SDKs or all (default).",
      { normalise: (value) => value ?? "all", toYaml: (value) => value ?? "all" },
    ),
    bucketing_identifier: choice(
      ["distinct_id", "device_id"],
      "What rollouts hash on: distinct_id (default) or device_id.",
      { normalise: (value) => value ?? "distinct_id", toYaml: (value) => value ?? "distinct_id" },
    ),
    is_remote_configuration: flag("A remote configuration flag: delivers its payload to everyone.", {
      normalise: onlyTrue,
      toYaml: onlyTrue,
    }),
    has_encrypted_payloads: flag(
      "Payloads are encrypted by the service (remote configuration flags only); they are secrets: ${NAME} references, never pulled.",
      { normalise: onlyTrue, toYaml: onlyTrue },
    ),
    evaluation_contexts: field<string[], string[]>(
      {
        type: "array",
        items: { type: "string", minLength: 1, maxLength: 255 },
        maxItems: 50,
        description: "Where the flag evaluates (e.g. production); needs the organization's feature.",
      },
      {
        compare: "set",
        normalise: sortedUnique,
        declare: (value, at) =>
          sortedUnique(value.map((v, i) => at.ctx.text(`${at.pointer}/${i}`, v))) as string[],
        pull: "nonEmpty",
      },
    ),
    archived: flag("Archive the flag (hidden from the flag list); needs active: false.", {
      compare: "none",
      toggles: { on: ARCHIVE, off: UNARCHIVE },
      normalise: onlyTrue,
      toYaml: onlyTrue,
    }),
    deleted: flag("Tombstone: soft-delete the flag (idempotent)."),
  },
  { identity: "key" },
);

/**
 * A declared flag: the table's fields (the `name` field as `description`), and the references its
 * filters make (flags by key, cohorts by name) with their places, for resolution per project.
 * Encrypted payload values are `SecretValue`s inside `filters.payloads`.
 */
export type DesiredFlag = DesiredOf<typeof flagFields.fields, "feature_flag"> & {
  id?: number;
  description?: string;
  filters?: Json;
  references: DeclaredReference[];
  cohorts: DeclaredCohort[];
  /** Encrypted payloads: variable names by payload key (values are SecretValues in `filters`). */
  secrets?: Record<string, SecretValue>;
};
