/**
 * A feature flag's fields (SPEC §2, service-api.md §10.2): the one place each is named. `key` is the
 * identity (unless `id` pins it); the service's `name` is the flag's description, kept apart from the
 * identity (`keptAs`: the desired object holds it as `description`, as live flags do). `filters` is a
 * nested value: its shape (schema.ts), its comparison (compare.ts: every server rewrite undone, a
 * change in a reviewer's words), its declaration (declare.ts: encrypted payloads as secrets), its
 * pull form (pull.ts) and the objects it names (`FLAG_REFERENCES`: flags by key, cohorts by name);
 * `archived` is a switch flipped by the archive / unarchive endpoints.
 */
import { SecretValue } from "../../config/secret.js";
import { toSecretRef } from "../../plan/secrets.js";
import {
  choice,
  type DesiredOf,
  field,
  fieldTable,
  flag,
  integer,
  json,
  tags,
  text,
} from "../define/index.js";
import { normaliseText } from "../shared/normalise.js";
import { filterChanges } from "./compare.js";
import { declareFilters } from "./declare.js";
import { ENCRYPTED, isObject, type Json } from "./filters.js";
import { ARCHIVE, UNARCHIVE } from "./lifecycle.js";
import { describeFlagField } from "./phrasing.js";
import { pullFilters } from "./pull.js";
import { FLAG_REFERENCES } from "./references.js";
import { FLAG_KEY_PATTERN } from "./schema.js";

/** Booleans the service may answer as null for a flag that never set them. */
const onlyTrue = (value: unknown) => value === true;

const sortedUnique = (value: unknown) =>
  Array.isArray(value)
    ? [...new Set(value.map(String))].sort()
    : value === null || value === undefined
      ? []
      : value;

/** The live filters with encrypted payloads as a marker: their plain text never leaves the answer. */
function liveFilters(answer: Readonly<Record<string, unknown>>): Json {
  const filters = isObject(answer.filters) ? answer.filters : {};
  if (answer.has_encrypted_payloads !== true || !isObject(filters.payloads)) return filters;
  return {
    ...filters,
    payloads: Object.fromEntries(Object.keys(filters.payloads).map((k) => [k, ENCRYPTED])),
  };
}

/** The declared filters as the plan holds them: encrypted payloads as references to their variables. */
function planFilters(value: unknown): unknown {
  if (!isObject(value) || !isObject(value.payloads)) return value;
  const payloads = Object.fromEntries(
    Object.entries(value.payloads).map(([k, v]) => [k, v instanceof SecretValue ? toSecretRef(v) : v]),
  );
  return { ...value, payloads };
}

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
    filters: json<Json, Json>(
      { $ref: "#/$defs/feature_flag_filters" },
      {
        declare: declareFilters,
        live: liveFilters,
        send: planFilters,
        references: FLAG_REFERENCES,
        codec: {
          says: (path, before, after) => describeFlagField(path, before, after),
          compare: filterChanges,
        },
        toYaml: (value, answer) => pullFilters(value as Json, answer),
        pull: "always",
      },
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
 * A declared flag: the table's fields (the `name` field as `description`; the flags and cohorts its
 * filters name in `refs`, with their places). Encrypted payload values are `SecretValue`s inside
 * `filters.payloads`.
 */
export type DesiredFlag = DesiredOf<typeof flagFields.fields, "feature_flag"> & {
  id?: number;
  description?: string;
  filters?: Json;
};
