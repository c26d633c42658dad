/**
 * A cohort's `filters` (SPEC §2 "Cohorts and actions", service-api.md §12.3, §12.4): their schema,
 * the objects they name, and one comparable form for both sides. Groups `{type: AND|OR, values}` nest
 * freely; leaves are `person`, `person_metadata`, `cohort` (another cohort, by `cohort:` name or
 * `value:` id) and `behavioral` (an event by name, or with `event_type: actions` an action by
 * `action:` name or `key:` id; a sequence's second event likewise: `seq_action:` or `seq_event:`).
 *
 * The service stores `model_dump(exclude_none=True)`: nulls dropped, `negation: false` added, numeric
 * strings made integers, a one-element list unwrapped for a one-value operator, and each leaf given
 * `bytecode`, `conditionHash` or `bytecode_error` (rewritten whenever its compiler changes). The
 * comparable form undoes each of those, on both sides; pull writes it without the default negation.
 */
import type { SchemaNode } from "../../config/kinds.js";
import { isPlainObject } from "../../plan/values.js";
import type { ReferenceSpec } from "../define/index.js";

export type Json = Record<string, unknown>;

/** A cohort breakdown (insights): `cohort: [NAME, …]` in the file, `breakdown: [ID, …]` on the service. */
export const COHORT_BREAKDOWN: ReferenceSpec = {
  kind: "cohort",
  at: "**",
  where: { breakdown_type: "cohort" },
  name: "cohort",
  id: "breakdown",
  list: true,
};

/** Where filters name cohorts and actions (the service's form: ids; the file's: names). */
export const COHORT_FILTER_REFERENCES: readonly ReferenceSpec[] = [
  {
    kind: "cohort",
    at: "**",
    where: { type: "cohort" },
    name: "cohort",
    id: "value",
    fixed: { key: "id" },
    verb: { one: "contains", many: "contain" },
    holder: "cohort condition",
  },
  {
    kind: "action",
    at: "**",
    where: { type: "behavioral", event_type: "actions" },
    name: "action",
    id: "key",
  },
  {
    kind: "action",
    at: "**",
    where: { type: "behavioral", seq_event_type: "actions" },
    name: "seq_action",
    id: "seq_event",
  },
];

/** Keys the service adds to every leaf: its compiled form. */
const SERVER_KEYS = new Set(["bytecode", "conditionHash", "bytecode_error"]);
/** Integer fields a numeric string is coerced to. */
const INTEGER_KEYS = new Set([
  "time_value",
  "operator_value",
  "seq_time_value",
  "total_periods",
  "min_periods",
]);
/** Operators that take one value: a one-element list is stored as that value. */
const ONE_VALUE_OPERATORS = new Set(["icontains", "not_icontains", "is_date_after", "is_date_before"]);
export const LEAF_TYPES = ["person", "person_metadata", "cohort", "behavioral"] as const;
const LEAVES = new Set<string>(LEAF_TYPES);

const integer = (value: unknown) =>
  typeof value === "string" && /^[+-]?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

/** One node (group or leaf) in its comparable form; `negation` says whether the default is written. */
function comparable(node: unknown, negation: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => comparable(n, negation));
  if (!isPlainObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === null || value === undefined || SERVER_KEYS.has(key)) continue;
    out[key] = INTEGER_KEYS.has(key) ? integer(value) : comparable(value, negation);
  }
  if (typeof out.type === "string" && LEAVES.has(out.type)) {
    if (out.type === "cohort") out.value = integer(out.value);
    if (ONE_VALUE_OPERATORS.has(String(out.operator)) && Array.isArray(out.value) && out.value.length === 1) {
      out.value = out.value[0];
    }
    if (negation && out.negation === undefined) out.negation = false;
    if (!negation && out.negation === false) delete out.negation;
  }
  return out;
}

/** Filters as the plan compares them (both sides, their references already by name). */
export function comparableFilters(value: Readonly<Json>): Json {
  return comparable(value, true) as Json;
}

/** Filters as pull writes them: the comparable form without the default `negation: false`. */
export function pulledFilters(value: unknown): unknown {
  return isPlainObject(value) ? comparable(value, false) : value;
}

/** Every leaf of filters, with its JSON pointer from the filters. */
export function leaves(filters: unknown): Array<{ leaf: Json; pointer: string }> {
  const out: Array<{ leaf: Json; pointer: string }> = [];
  const walk = (node: unknown, pointer: string, depth: number): void => {
    if (depth > 100 || !isPlainObject(node)) return;
    if (typeof node.type === "string" && LEAVES.has(node.type)) out.push({ leaf: node, pointer });
    else if (Array.isArray(node.values)) {
      for (const [i, v] of node.values.entries()) walk(v, `${pointer}/values/${i}`, depth + 1);
    }
  };
  if (isPlainObject(filters)) walk(filters.properties, "/properties", 0);
  return out;
}

/** Whether filters hold a leaf on events or actions (the service's "behavioral" cohort). */
export const hasBehavioralLeaf = (filters: unknown) =>
  leaves(filters).some(({ leaf }) => leaf.type === "behavioral");

const nullable = (type: string, description: string): SchemaNode => ({ type: [type, "null"], description });

/** The schema's definitions: the filters, a group, a leaf. */
export const COHORT_DEFS: Record<string, SchemaNode> = {
  cohort_filters: {
    type: "object",
    description:
      "The cohort's criteria: `properties`, a group of conditions. Compared after the service's rewrites (its compiled bytecode, `negation: false`, nulls, one-element lists).",
    additionalProperties: false,
    required: ["properties"],
    properties: {
      properties: { $ref: "#/$defs/cohort_filter_group" },
      filterTestAccounts: { type: "boolean", description: "Leave out the project's test accounts." },
    },
  },
  cohort_filter_group: {
    type: "object",
    description: "Conditions joined by AND (all must match) or OR (any); groups nest.",
    additionalProperties: false,
    required: ["type", "values"],
    properties: {
      type: { enum: ["AND", "OR"], description: "How the values combine." },
      values: {
        type: "array",
        description: "Groups or conditions.",
        items: {
          anyOf: [{ $ref: "#/$defs/cohort_filter_group" }, { $ref: "#/$defs/cohort_filter_condition" }],
        },
      },
    },
  },
  cohort_filter_condition: {
    type: "object",
    description:
      "A condition: `person` (a person property), `person_metadata` (a column of the persons table), `cohort` (membership of another cohort: `cohort:` its name, or `value:` its id) or `behavioral` (what the person did: an event, or with `event_type: actions` an action by `action:` name or `key:` id).",
    additionalProperties: false,
    required: ["type"],
    properties: {
      type: { enum: [...LEAF_TYPES], description: "What the condition looks at." },
      key: {
        type: ["string", "integer"],
        description:
          "The property (person, person_metadata), `id` (cohort), or the event's name (behavioral; an action's id with `event_type: actions`).",
      },
      value: {
        description:
          "What is compared (person); the cohort's id (cohort); the behaviour, e.g. performed_event (behavioral).",
      },
      operator: nullable("string", "Comparison (person); count comparison (behavioral)."),
      negation: { type: "boolean", description: "Invert the condition." },
      cohort: { type: "string", minLength: 1, description: "For `type: cohort`: the other cohort's name." },
      action: {
        type: "string",
        minLength: 1,
        description: "For `type: behavioral` with `event_type: actions`: the action's name.",
      },
      event_type: { enum: ["events", "actions"], description: "Whether `key` names an event or an action." },
      time_value: {
        type: ["integer", "string", "null"],
        description: "How far back (with `time_interval`).",
      },
      time_interval: nullable("string", "day, week, month or year."),
      explicit_datetime: nullable("string", "From this date (relative `-30d` or absolute)."),
      explicit_datetime_to: nullable("string", "Up to this date."),
      operator_value: { type: ["integer", "string", "null"], description: "The count compared against." },
      seq_event: {
        type: ["string", "integer", "null"],
        description: "A sequence's second event (an action's id with `seq_event_type: actions`).",
      },
      seq_action: {
        type: "string",
        minLength: 1,
        description: "For `seq_event_type: actions`: the second action's name.",
      },
      seq_event_type: { enum: ["events", "actions", null], description: "What `seq_event` names." },
      seq_time_value: {
        type: ["integer", "string", "null"],
        description: "Within (with seq_time_interval).",
      },
      seq_time_interval: nullable("string", "day, week, month or year."),
      total_periods: {
        type: ["integer", "string", "null"],
        description: "Regularly: over this many periods.",
      },
      min_periods: { type: ["integer", "string", "null"], description: "Regularly: in at least this many." },
      event_filters: {
        type: ["array", "null"],
        description: "Narrows the event: `{type: event|element|hogql, key, value, operator}` each.",
        items: { type: "object" },
      },
    },
  },
};
