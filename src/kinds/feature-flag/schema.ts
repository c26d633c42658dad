/**
 * The JSON Schema of a flag's `filters` (SPEC §2, service-api.md §10.2), the definitions the field
 * table (fields.ts) refers to. In `filters`, a `type: flag` property names the other flag by key and
 * a `type: cohort` property names a cohort by `cohort:` (its name) or `value:` (its id): both are
 * resolved per project at plan time. Payloads of flags with `has_encrypted_payloads` are secrets
 * (`${NAME}` references only); the declare hook checks that, the schema cannot.
 */

import { type FlagPropertyType, PROPERTY_OPERATORS } from "posthog-gitops-shared/posthog";
import type { SchemaNode } from "../../config/kinds.js";

/** The service's key rule: letters, digits, `-` and `_`, at most 400 characters. */
export const FLAG_KEY_PATTERN = "^[a-zA-Z0-9_-]+$";

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
        enum: ["person", "group", "cohort", "flag"] satisfies FlagPropertyType[],
        description: "What the condition looks at.",
      },
      key: {
        type: ["string", "number"],
        description:
          "The property's name (person, group); for `type: flag` the other flag's key, resolved to its id in each project.",
      },
      operator: {
        enum: [...PROPERTY_OPERATORS],
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
      "Targeting. Every top-level key written here is managed whole; keys left out keep their live values (an update sends the filters it read with the changed keys in them).",
    additionalProperties: false,
    properties: {
      groups: {
        type: "array",
        items: { $ref: "#/$defs/feature_flag_group" },
        description:
          "Release conditions, in order; a user matching any gets the flag. A new flag declared with `filters` needs one here (the service refuses `groups: []` on create); one declared without `filters` is created with none, on for no one.",
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

/** The definitions the flag's `filters` field refers to (`#/$defs/feature_flag_filters`). */
export const FLAG_DEFS: Record<string, SchemaNode> = properties;

const keysOf = (def: string): ReadonlySet<string> =>
  new Set(Object.keys((properties[def]?.properties ?? {}) as Record<string, unknown>));

/**
 * The keys a condition group, a property and `filters` may have. What else the service answers (a
 * group's `sort_key`, which its UI sets; `cohort_name`, which it adds on read; keys it drops once its
 * validation is enforced) is neither compared nor pulled.
 */
export const GROUP_KEYS = keysOf("feature_flag_group");
export const PROPERTY_KEYS = keysOf("feature_flag_property");
export const FILTER_KEYS = keysOf("feature_flag_filters");

/** The key of a flag (and of a variant): the service's pattern and length. */
export const KEY_SCHEMA = key;
