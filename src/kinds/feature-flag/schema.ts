/**
 * The JSON Schema of one declared feature flag (SPEC §2, service-api.md §10.2), composed into
 * schemas/config.schema.json. A flag is identified by `key` (or a pinned `id`); in `filters`, a `type:
 * flag` property names the other flag by key and a `type: cohort` property names a cohort by `cohort:`
 * (its name) or `value:` (its id): both are resolved per project at plan time. Payloads of flags with
 * `has_encrypted_payloads` are secrets (`${NAME}` references only); the declare step checks that, the
 * schema cannot.
 */
import type { ConfigKind, SchemaNode } from "../../config/kinds.js";

/** The service's key rule: letters, digits, `-` and `_`, at most 400 characters. */
export const FLAG_KEY_PATTERN = "^[a-zA-Z0-9_-]+$";

/** Property operators the service accepts (`min` / `max` are aliases it stores as `gte` / `lte`). */
export const FLAG_OPERATORS = [
  "exact",
  "is_not",
  "icontains",
  "not_icontains",
  "icontains_multi",
  "not_icontains_multi",
  "regex",
  "not_regex",
  "gt",
  "gte",
  "lt",
  "lte",
  "min",
  "max",
  "semver_gt",
  "semver_gte",
  "semver_lt",
  "semver_lte",
  "semver_eq",
  "semver_neq",
  "semver_tilde",
  "semver_caret",
  "semver_wildcard",
  "is_set",
  "is_not_set",
  "is_date_exact",
  "is_date_after",
  "is_date_before",
  "in",
  "not_in",
  "flag_evaluates_to",
] as const;

const percentage = (description: string): SchemaNode => ({
  type: ["number", "null"],
  minimum: 0,
  maximum: 100,
  description,
});

const key: SchemaNode = {
  type: "string",
  minLength: 1,
  maxLength: 400,
  pattern: FLAG_KEY_PATTERN,
  "x-expect": "letters, digits, - and _",
};

const properties: Record<string, SchemaNode> = {
  feature_flag_property: {
    type: "object",
    description:
      "A condition on a person, group, cohort or another flag. `type: flag` names the flag by key; `type: cohort` names the cohort by `cohort:` (its name) or `value:` (its id).",
    additionalProperties: false,
    required: ["type"],
    properties: {
      type: {
        enum: ["person", "group", "cohort", "flag"],
        description: "What the condition looks at.",
      },
      key: {
        type: ["string", "number"],
        description:
          "The property's name (person, group); for `type: flag` the other flag's key, resolved to its id in each project.",
      },
      operator: {
        enum: [...FLAG_OPERATORS],
        description:
          "Comparison; default exact. `flag_evaluates_to` for flags; `in` / `not_in` only for cohorts. `min` / `max` are stored as `gte` / `lte`.",
      },
      value: {
        description:
          "The value compared against (any JSON value the operator takes); for `type: flag` the value the other flag must evaluate to; for `type: cohort` the cohort's id.",
      },
      cohort: {
        type: "string",
        minLength: 1,
        description: "For `type: cohort`: the cohort's name, resolved to its id in each project.",
      },
      group_type_index: {
        type: "integer",
        minimum: 0,
        description: "For `type: group`: the group type the property belongs to.",
      },
      negation: { type: "boolean", description: "Invert the condition." },
      label: { type: "string", description: "A label the service's UI shows." },
    },
  },
  feature_flag_group: {
    type: "object",
    description: "A release condition: everyone matching all its properties, at its rollout percentage.",
    additionalProperties: false,
    properties: {
      properties: {
        type: "array",
        items: { $ref: "#/$defs/feature_flag_property" },
        description: "Conditions, all of which must match; none: everyone.",
      },
      rollout_percentage: percentage("Share of the matching users or groups that get the flag; empty: all."),
      variant: {
        type: ["string", "null"],
        description:
          "Serve this variant (one of `multivariate.variants`) to everyone this condition matches.",
      },
      aggregation_group_type_index: {
        type: ["integer", "null"],
        minimum: 0,
        description: "Group type this condition rolls out by; null: persons. Default: the flag's.",
      },
      description: { type: "string", description: "What this condition is for (shown in the service's UI)." },
    },
  },
  feature_flag_filters: {
    type: "object",
    description:
      "Targeting. Every top-level key written here is managed whole (the service merges `filters` key by key); keys left out keep their live values.",
    additionalProperties: false,
    properties: {
      groups: {
        type: "array",
        items: { $ref: "#/$defs/feature_flag_group" },
        description: "Release conditions, in order; a user matching any gets the flag. A new flag needs one.",
      },
      multivariate: {
        type: ["object", "null"],
        description: "Variants served to those the flag is on for; null: a boolean flag.",
        additionalProperties: false,
        required: ["variants"],
        properties: {
          variants: {
            type: "array",
            description: "The variants; their rollout percentages sum to 100.",
            items: {
              type: "object",
              additionalProperties: false,
              required: ["key", "rollout_percentage"],
              properties: {
                key: { ...key, description: "The variant's key, what SDKs receive." },
                name: { type: ["string", "null"], description: "A label for the variant." },
                rollout_percentage: {
                  type: "number",
                  minimum: 0,
                  maximum: 100,
                  description: "Share of the flag's audience that gets this variant.",
                },
              },
            },
          },
        },
      },
      payloads: {
        type: "object",
        description:
          "A payload per variant key (`true` for a boolean flag): any YAML value, sent as JSON. With `has_encrypted_payloads`, a ${NAME} reference (a secret).",
        additionalProperties: true,
      },
      aggregation_group_type_index: {
        type: ["integer", "null"],
        minimum: 0,
        description: "Group type the flag rolls out by (groups without their own); null: persons.",
      },
      holdout: {
        type: ["object", "null"],
        description: "An experiment holdout (`id`, `exclusion_percentage`).",
      },
      feature_enrollment: { type: ["boolean", "null"], description: "Users may opt in (early access)." },
      early_exit: {
        type: ["boolean", "null"],
        description: "Stop at the first matching condition (needs the organization's feature).",
      },
    },
  },
};

export const featureFlagSchema: ConfigKind["schema"] = {
  description:
    "Feature flags of the project, identified by key. Listing the key (even empty) lets --prune remove undeclared ones.",
  item: { $ref: "#/$defs/feature_flag" },
  defs: {
    feature_flag: {
      type: "object",
      description: "A feature flag. Only the keys written here are managed; the others are left as they are.",
      additionalProperties: false,
      required: ["key"],
      properties: {
        key: {
          ...key,
          description:
            "The flag's key, what code checks: its identity within the project unless `id` is given.",
        },
        id: {
          type: "integer",
          minimum: 1,
          description: "The service's flag id: pins identity across key renames (pull writes it).",
        },
        name: { type: "string", description: "The flag's description (the service calls it `name`)." },
        active: { type: "boolean", description: "Whether the flag is on. false turns it off for everyone." },
        tags: {
          type: "array",
          items: { type: "string", minLength: 1 },
          description: "Tags, a case-insensitive set (needs the tagging feature).",
        },
        filters: { $ref: "#/$defs/feature_flag_filters" },
        ensure_experience_continuity: {
          type: "boolean",
          description: "Keep a user's value across the anonymous-to-identified switch.",
        },
        evaluation_runtime: {
          enum: ["server", "client", "all"],
          description: "Where the flag may be evaluated: server SDKs, client SDKs or all (default).",
        },
        bucketing_identifier: {
          enum: ["distinct_id", "device_id"],
          description: "What rollouts hash on: distinct_id (default) or device_id.",
        },
        is_remote_configuration: {
          type: "boolean",
          description: "A remote configuration flag: delivers its payload to everyone.",
        },
        has_encrypted_payloads: {
          type: "boolean",
          description:
            "Payloads are encrypted by the service (remote configuration flags only); they are secrets: ${NAME} references, never pulled.",
        },
        evaluation_contexts: {
          type: "array",
          items: { type: "string", minLength: 1, maxLength: 255 },
          maxItems: 50,
          description: "Where the flag evaluates (e.g. production); needs the organization's feature.",
        },
        archived: {
          type: "boolean",
          description: "Archive the flag (hidden from the list); needs active: false.",
        },
        deleted: { type: "boolean", description: "Tombstone: soft-delete the flag (idempotent)." },
      },
    },
    ...properties,
  },
};
