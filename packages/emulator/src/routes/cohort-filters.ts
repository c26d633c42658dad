/**
 * A cohort's `filters` as the service validates and stores them (service-api.md §12.3-§12.4; the
 * newest posthog/api/cohort.py `CohortFilters`, pydantic models with unknown keys forbidden): groups
 * `{type: AND|OR, values}` nesting freely, leaves `person`, `person_metadata`, `cohort` and
 * `behavioral`. Validation collects every error as pydantic does (`PyError`, in tree order); the
 * stored form is `model_dump(exclude_none=True)`: nulls dropped, `negation: false` added, numeric
 * strings coerced where the field is an integer, one-element lists unwrapped for one-value operators,
 * and each leaf's server keys `bytecode`, `conditionHash` or `bytecode_error`.
 *
 * The bytecode is the emulator's own compilation of a leaf (HogQL's operation codes and layout, not
 * PostHog's compiler byte for byte): deterministic per leaf and compiler version
 * (`service.cohort_bytecode_version`), so writing back what was read stores the same thing, and a
 * version change rewrites it the way a service upgrade does. `conditionHash` is the first 16 hex digits
 * of the SHA-256 of the bytecode as Python's `json.dumps` writes it, as the service computes it.
 */
import { createHash } from "node:crypto";
import { isDict } from "../fields.js";
import type { ActionRecord, CohortRecord } from "../types.js";
import { pyJsonDumps, pyRepr } from "./flag-payloads.js";

type Json = Record<string, unknown>;
type Loc = Array<string | number>;

/** One pydantic error, as `exc.errors()` lists it (without the documentation `url`). */
export interface PyError {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
}

/** What the rewrite needs of the project: other cohorts (cohort leaves), actions (behavioural leaves). */
export interface FilterContext {
  cohort(id: number): CohortRecord | undefined;
  action(id: number): ActionRecord | undefined;
  bytecodeVersion: number;
}

/** Top-level persons-table columns a `person_metadata` leaf may name (posthog/hogql/property.py). */
export const PERSON_METADATA_FIELDS = ["created_at"];
/** Operators whose value is one value: a one-element list is unwrapped to it. */
const ONE_VALUE_OPERATORS = new Set(["icontains", "not_icontains", "is_date_after", "is_date_before"]);
const DATE_OPERATORS = new Set(["is_date_after", "is_date_before"]);
/** Behavioural values the realtime compiler supports (others: `bytecode_error`, not realtime). */
const REALTIME_BEHAVIOURS = new Set(["performed_event", "performed_event_multiple"]);
const LEAF_TAGS = ["behavioral", "cohort", "person", "person_metadata", "AND", "OR"];

class Errors {
  list: PyError[] = [];
  add(type: string, loc: Loc, msg: string, input: unknown): void {
    this.list.push({ type, loc, msg, input });
  }
}

// ── pydantic's lax coercions ─────────────────────────────────────────────────────────────────────

const MISSING = Symbol("missing");
type Field = (value: unknown, loc: Loc, errors: Errors) => unknown;

function str(value: unknown, loc: Loc, errors: Errors): unknown {
  if (typeof value === "string") return value;
  errors.add("string_type", loc, "Input should be a valid string", value);
  return MISSING;
}

function int(value: unknown, loc: Loc, errors: Errors): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") {
    if (Number.isInteger(value)) return value;
    errors.add(
      "int_from_float",
      loc,
      "Input should be a valid integer, got a number with a fractional part",
      value,
    );
    return MISSING;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (/^[+-]?\d+$/.test(text)) return Number(text);
    errors.add(
      "int_parsing",
      loc,
      "Input should be a valid integer, unable to parse string as an integer",
      value,
    );
    return MISSING;
  }
  errors.add("int_type", loc, "Input should be a valid integer", value);
  return MISSING;
}

const TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

function bool(value: unknown, loc: Loc, errors: Errors): unknown {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (TRUE.has(text)) return true;
    if (FALSE.has(text)) return false;
    errors.add("bool_parsing", loc, "Input should be a valid boolean, unable to interpret input", value);
    return MISSING;
  }
  errors.add("bool_type", loc, "Input should be a valid boolean", value);
  return MISSING;
}

function strOrInt(value: unknown, loc: Loc, errors: Errors): unknown {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  errors.add("string_type", [...loc, "str"], "Input should be a valid string", value);
  errors.add("int_type", [...loc, "int"], "Input should be a valid integer", value);
  return MISSING;
}

const any: Field = (value) => value;
const list: Field = (value, loc, errors) => {
  if (Array.isArray(value)) return value;
  errors.add("list_type", loc, "Input should be a valid list", value);
  return MISSING;
};
const literal =
  (...allowed: string[]): Field =>
  (value, loc, errors) => {
    if (typeof value === "string" && allowed.includes(value)) return value;
    const expected =
      allowed.length === 1
        ? `'${allowed[0]}'`
        : `${allowed
            .slice(0, -1)
            .map((a) => `'${a}'`)
            .join(", ")} or '${allowed.at(-1)}'`;
    errors.add("literal_error", loc, `Input should be ${expected}`, value);
    return MISSING;
  };

interface FieldSpec {
  parse: Field;
  /** Required (no default); `nullable`: None accepted. */
  required?: boolean;
  nullable?: boolean;
  /** The default dumped when the key is absent (only `negation`'s False). */
  fallback?: unknown;
}

const BYTECODE_FIELDS: Record<string, FieldSpec> = {
  bytecode: { parse: list, nullable: true },
  bytecode_error: { parse: str, nullable: true },
  conditionHash: { parse: str, nullable: true },
};

/** Each model's fields in pydantic's order (base classes' fields first), which is the dump's order. */
const MODELS: Record<string, Record<string, FieldSpec>> = {
  behavioral: {
    ...BYTECODE_FIELDS,
    type: { parse: literal("behavioral"), required: true },
    key: { parse: strOrInt, required: true },
    value: { parse: str, required: true },
    event_type: { parse: str, required: true },
    time_value: { parse: int, nullable: true },
    time_interval: { parse: str, nullable: true },
    negation: { parse: bool, fallback: false },
    operator: { parse: str, nullable: true },
    operator_value: { parse: int, nullable: true },
    seq_time_interval: { parse: str, nullable: true },
    seq_time_value: { parse: int, nullable: true },
    seq_event: { parse: strOrInt, nullable: true },
    seq_event_type: { parse: str, nullable: true },
    total_periods: { parse: int, nullable: true },
    min_periods: { parse: int, nullable: true },
    event_filters: { parse: list, nullable: true },
    explicit_datetime: { parse: str, nullable: true },
    explicit_datetime_to: { parse: str, nullable: true },
  },
  cohort: {
    ...BYTECODE_FIELDS,
    type: { parse: literal("cohort"), required: true },
    key: { parse: literal("id"), required: true },
    value: { parse: int, required: true },
    negation: { parse: bool, fallback: false },
  },
  person: {
    operator: { parse: str, nullable: true },
    value: { parse: any, nullable: true },
    ...BYTECODE_FIELDS,
    type: { parse: literal("person"), required: true },
    key: { parse: str, required: true },
    negation: { parse: bool, fallback: false },
  },
  person_metadata: {
    operator: { parse: str, nullable: true },
    value: { parse: any, nullable: true },
    ...BYTECODE_FIELDS,
    type: { parse: literal("person_metadata"), required: true },
    key: { parse: str, required: true },
    negation: { parse: bool, fallback: false },
  },
};

const EVENT_FILTER_MODELS: Record<string, Record<string, FieldSpec>> = {
  EventPropFilter: {
    type: { parse: literal("event", "element"), required: true },
    key: { parse: str, required: true },
    value: { parse: any, required: true, nullable: true },
    operator: { parse: str, nullable: true },
  },
  HogQLFilter: {
    type: { parse: literal("hogql"), required: true },
    key: { parse: str, required: true },
    value: { parse: any, nullable: true },
  },
};

/** A model's fields: every error collected, the values in field order (absent ones left out). */
function parseModel(raw: Json, spec: Record<string, FieldSpec>, loc: Loc, errors: Errors): Json | undefined {
  const before = errors.list.length;
  const out: Json = {};
  for (const [name, field] of Object.entries(spec)) {
    if (!(name in raw)) {
      if (field.required) errors.add("missing", [...loc, name], "Field required", raw);
      else if (field.fallback !== undefined) out[name] = field.fallback;
      continue;
    }
    const value = raw[name];
    if (value === null && field.nullable) {
      out[name] = null;
      continue;
    }
    const parsed = field.parse(value, [...loc, name], errors);
    if (parsed !== MISSING) out[name] = parsed;
  }
  for (const key of Object.keys(raw)) {
    if (!(key in spec))
      errors.add("extra_forbidden", [...loc, key], "Extra inputs are not permitted", raw[key]);
  }
  return errors.list.length === before ? out : undefined;
}

// ── dates (posthog/queries/base.py determine_parsed_date_for_property_matching) ─────────────────

/** A relative date (`-7d`, `30d`, under 10,000 units) or a date dateutil would read. */
export function parsesAsDate(value: unknown): boolean {
  const text = String(value);
  const relative = /^-?(\d+)([a-z])$/.exec(text);
  if (relative) {
    if (Number(relative[1]) >= 10_000) return false;
    if ("hdwmy".includes(relative[2] as string)) return true;
  }
  if (text.trim() === "") return false;
  return !Number.isNaN(Date.parse(text));
}

// ── leaves ───────────────────────────────────────────────────────────────────────────────────────

function personChecks(leaf: Json, noun: string, loc: Loc, errors: Errors): boolean {
  if (
    ONE_VALUE_OPERATORS.has(String(leaf.operator)) &&
    Array.isArray(leaf.value) &&
    leaf.value.length === 1
  ) {
    leaf.value = leaf.value[0];
  }
  const missing: string[] = [];
  const operator = leaf.operator ?? null;
  if ((leaf.value ?? null) === null && operator !== "is_set" && operator !== "is_not_set")
    missing.push("value");
  if (operator === null) missing.push("operator");
  if (missing.length > 0) {
    const msg = `Missing required keys for ${noun} filter: ${missing.join(", ")}`;
    errors.add("value_error", loc, `Value error, ${msg}`, leaf);
    return false;
  }
  if (DATE_OPERATORS.has(String(operator)) && leaf.value !== null && !parsesAsDate(leaf.value)) {
    const msg = `Invalid date value '${String(leaf.value)}' for operator '${String(operator)}'. Expected a relative date (e.g., '-7d', '30d') or an ISO 8601 date (e.g., '2024-01-15').`;
    errors.add("value_error", loc, `Value error, ${msg}`, leaf);
    return false;
  }
  return true;
}

function parseEventFilters(raw: unknown[], loc: Loc, errors: Errors): Json[] | undefined {
  const out: Json[] = [];
  raw.forEach((item, i) => {
    if (!isDict(item)) {
      for (const name of Object.keys(EVENT_FILTER_MODELS))
        errors.add(
          "model_type",
          [...loc, i, name],
          `Input should be a valid dictionary or instance of ${name}`,
          item,
        );
      return;
    }
    const attempts = new Errors();
    for (const [name, spec] of Object.entries(EVENT_FILTER_MODELS)) {
      const parsed = parseModel(item, spec, [...loc, i, name], attempts);
      if (parsed) {
        out.push(parsed);
        return;
      }
    }
    errors.list.push(...attempts.list);
  });
  return out.length === raw.length ? out : undefined;
}

function parseLeaf(raw: Json, tag: string, loc: Loc, errors: Errors, ctx: FilterContext): Json | undefined {
  const here = [...loc, tag];
  const leaf = parseModel(raw, MODELS[tag] as Record<string, FieldSpec>, here, errors);
  if (!leaf) return undefined;
  if (tag === "behavioral" && Array.isArray(leaf.event_filters)) {
    const parsed = parseEventFilters(leaf.event_filters, [...here, "event_filters"], errors);
    if (!parsed) return undefined;
    leaf.event_filters = parsed;
  }
  if (tag === "person" || tag === "person_metadata") {
    if (!personChecks(leaf, tag, here, errors)) return undefined;
    if (tag === "person_metadata" && !PERSON_METADATA_FIELDS.includes(String(leaf.key))) {
      const msg = `Unsupported person_metadata key '${String(leaf.key)}'. Allowed keys: ${[...PERSON_METADATA_FIELDS].sort().join(", ")}.`;
      errors.add("value_error", here, `Value error, ${msg}`, raw);
      return undefined;
    }
  }
  const compiled = compileLeaf(dropNulls(leaf), ctx);
  if (compiled.bytecode) {
    leaf.bytecode = compiled.bytecode;
    leaf.conditionHash = conditionHash(compiled.bytecode);
  }
  if (compiled.error) leaf.bytecode_error = compiled.error;
  return leaf;
}

function parseNode(raw: unknown, loc: Loc, errors: Errors, ctx: FilterContext): Json | undefined {
  if (!isDict(raw)) {
    errors.add(
      "model_attributes_type",
      loc,
      "Input should be a valid dictionary or object to extract fields from",
      raw,
    );
    return undefined;
  }
  if (!("type" in raw)) {
    errors.add("union_tag_not_found", loc, "Unable to extract tag using discriminator 'type'", raw);
    return undefined;
  }
  const tag = raw.type;
  if (typeof tag !== "string" || !LEAF_TAGS.includes(tag)) {
    errors.add(
      "union_tag_invalid",
      loc,
      `Input tag '${String(tag)}' found using 'type' does not match any of the expected tags: ${LEAF_TAGS.map((t) => `'${t}'`).join(", ")}`,
      raw,
    );
    return undefined;
  }
  if (tag === "AND" || tag === "OR") return parseGroup(raw, [...loc, tag], errors, ctx);
  return parseLeaf(raw, tag, loc, errors, ctx);
}

function parseGroup(raw: unknown, loc: Loc, errors: Errors, ctx: FilterContext): Json | undefined {
  if (!isDict(raw)) {
    errors.add("model_type", loc, "Input should be a valid dictionary or instance of CohortFilterGroup", raw);
    return undefined;
  }
  const before = errors.list.length;
  const out: Json = {};
  if (!("type" in raw)) errors.add("missing", [...loc, "type"], "Field required", raw);
  else {
    const type = literal("AND", "OR")(raw.type, [...loc, "type"], errors);
    if (type !== MISSING) out.type = type;
  }
  if (!("values" in raw)) errors.add("missing", [...loc, "values"], "Field required", raw);
  else if (!Array.isArray(raw.values))
    errors.add("list_type", [...loc, "values"], "Input should be a valid list", raw.values);
  else {
    const values: Json[] = [];
    raw.values.forEach((child, i) => {
      const node = parseNode(child, [...loc, "values", i], errors, ctx);
      if (node) values.push(node);
    });
    out.values = values;
  }
  for (const key of Object.keys(raw)) {
    if (key !== "type" && key !== "values")
      errors.add("extra_forbidden", [...loc, key], "Extra inputs are not permitted", raw[key]);
  }
  return errors.list.length === before ? out : undefined;
}

/** `model_dump(exclude_none=True)`: every null dropped, at any depth. */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(dropNulls) as T;
  if (isDict(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, dropNulls(v)]),
    ) as T;
  }
  return value;
}

/**
 * `CohortFilters.model_validate(raw).model_dump(exclude_none=True)`: the stored form, or pydantic's
 * errors. The top level takes `properties` and, as the reference has it, `filterTestAccounts`.
 */
export function validateCohortFilters(
  raw: Json,
  ctx: FilterContext,
): { ok: true; filters: Json } | { ok: false; errors: PyError[] } {
  const errors = new Errors();
  const out: Json = {};
  if (!("properties" in raw)) errors.add("missing", ["properties"], "Field required", raw);
  else {
    const properties = parseGroup(raw.properties, ["properties"], errors, ctx);
    if (properties) out.properties = properties;
  }
  if ("filterTestAccounts" in raw && raw.filterTestAccounts !== null) {
    const value = bool(raw.filterTestAccounts, ["filterTestAccounts"], errors);
    if (value !== MISSING) out.filterTestAccounts = value;
  }
  for (const key of Object.keys(raw)) {
    if (key !== "properties" && key !== "filterTestAccounts")
      errors.add("extra_forbidden", [key], "Extra inputs are not permitted", raw[key]);
  }
  if (errors.list.length > 0) return { ok: false, errors: errors.list };
  return { ok: true, filters: dropNulls(out) };
}

/**
 * `CohortSerializer._cohort_error_message`: the first "Missing required keys" message, else pydantic's
 * error list as Python prints it.
 */
export function cohortErrorMessage(errors: PyError[]): string {
  for (const error of errors) {
    if (error.type === "value_error") {
      const at = error.msg.indexOf("Missing required keys");
      if (at !== -1) return error.msg.slice(at);
    }
    if (error.type === "missing") {
      const loc = error.loc.map(String);
      const field = loc.at(-1);
      for (const kind of ["behavioral", "cohort", "person"]) {
        if (loc.includes(kind)) return `Missing required keys for ${kind} filter: ${field}`;
      }
    }
  }
  const entry = (e: PyError) =>
    `{'type': ${pyRepr(e.type)}, 'loc': (${e.loc.map(pyRepr).join(", ")}${e.loc.length === 1 ? "," : ""}), 'msg': ${pyRepr(e.msg)}, 'input': ${pyRepr(e.input)}}`;
  return `[${errors.map(entry).join(", ")}]`;
}

// ── realtime support and bytecode ────────────────────────────────────────────────────────────────

/** Whether every leaf compiled (`_calculate_realtime_support`): the cohort is `realtime`. */
export function realtimeSupported(filters: Json): boolean {
  if (filters.filterTestAccounts === true) return false;
  const walk = (node: unknown): boolean => {
    if (!isDict(node)) return false;
    if (Array.isArray(node.values) && (node.type === "AND" || node.type === "OR"))
      return node.values.every(walk);
    if (node.type === "person_metadata") return false;
    return Array.isArray(node.bytecode) && node.bytecode.length > 0 && node.bytecode_error === undefined;
  };
  return walk(filters.properties);
}

// HogQL bytecode operations (posthog/hogql/compiler/bytecode.py `Operation`).
const OP = {
  GET_GLOBAL: 1,
  CALL_GLOBAL: 2,
  AND: 3,
  OR: 4,
  NOT: 5,
  EQ: 11,
  NOT_EQ: 12,
  GT: 13,
  GT_EQ: 14,
  LT: 15,
  LT_EQ: 16,
  LIKE: 17,
  ILIKE: 18,
  NOT_ILIKE: 20,
  REGEX: 23,
  NOT_REGEX: 24,
  IN_COHORT: 27,
  TRUE: 29,
  FALSE: 30,
  NULL: 31,
  STRING: 32,
  INTEGER: 33,
  FLOAT: 34,
} as const;

function constant(value: unknown): unknown[] {
  if (value === null || value === undefined) return [OP.NULL];
  if (typeof value === "boolean") return [value ? OP.TRUE : OP.FALSE];
  if (typeof value === "number") return Number.isInteger(value) ? [OP.INTEGER, value] : [OP.FLOAT, value];
  if (typeof value === "string") return [OP.STRING, value];
  return [OP.STRING, JSON.stringify(value)];
}

function field(chain: string[]): unknown[] {
  return [...[...chain].reverse().flatMap((part) => [OP.STRING, part]), OP.GET_GLOBAL, chain.length];
}

function comparison(chain: string[], operator: string, value: unknown): unknown[] | undefined {
  const target = field(chain);
  const values = Array.isArray(value) ? value : [value];
  const each = (op: number, wrap: (v: unknown) => unknown = (v) => v) => {
    const parts = values.map((v) => [...constant(wrap(v)), ...target, op]);
    return parts.length === 1 ? parts[0] : [...parts.flat(), OP.OR, parts.length];
  };
  switch (operator) {
    case "exact":
      return each(OP.EQ);
    case "is_not":
      return each(OP.NOT_EQ);
    case "icontains":
      return each(OP.ILIKE, (v) => `%${String(v)}%`);
    case "not_icontains":
      return each(OP.NOT_ILIKE, (v) => `%${String(v)}%`);
    case "regex":
      return each(OP.REGEX);
    case "not_regex":
      return each(OP.NOT_REGEX);
    case "gt":
      return each(OP.GT);
    case "gte":
      return each(OP.GT_EQ);
    case "lt":
      return each(OP.LT);
    case "lte":
      return each(OP.LT_EQ);
    case "is_set":
      return [OP.NULL, ...target, OP.NOT_EQ];
    case "is_not_set":
      return [OP.NULL, ...target, OP.EQ];
    case "is_date_exact":
    case "is_date_after":
    case "is_date_before": {
      const op = operator === "is_date_after" ? OP.GT : operator === "is_date_before" ? OP.LT : OP.EQ;
      return [...constant(values[0]), OP.CALL_GLOBAL, "toDateTime", 1, ...target, op];
    }
    default:
      return undefined;
  }
}

function actionExpression(action: ActionRecord): unknown[] {
  const steps = action.steps.map((step) => {
    const parts: unknown[][] = [];
    if (typeof step.event === "string") parts.push([...constant(step.event), ...field(["event"]), OP.EQ]);
    if (typeof step.url === "string" && step.url !== "") {
      const matching = step.url_matching ?? "contains";
      const op = matching === "exact" ? OP.EQ : matching === "regex" ? OP.REGEX : OP.LIKE;
      const url = matching === "contains" ? `%${step.url}%` : step.url;
      parts.push([...constant(url), ...field(["properties", "$current_url"]), op]);
    }
    if (parts.length === 0) return [OP.TRUE];
    return parts.length === 1 ? (parts[0] as unknown[]) : [...parts.flat(), OP.AND, parts.length];
  });
  if (steps.length === 0) return [OP.FALSE];
  return steps.length === 1 ? (steps[0] as unknown[]) : [...steps.flat(), OP.OR, steps.length];
}

function compileLeaf(leaf: Json, ctx: FilterContext): { bytecode?: unknown[]; error?: string } {
  const header = ["_H", ctx.bytecodeVersion];
  let body: unknown[] | undefined;
  switch (leaf.type) {
    case "behavioral": {
      if (!REALTIME_BEHAVIOURS.has(String(leaf.value)))
        return { error: "Unsupported behavioral filter for realtime bytecode" };
      if (leaf.event_type === "actions") {
        const action = /^\d+$/.test(String(leaf.key)) ? ctx.action(Number(leaf.key)) : undefined;
        if (!action) return { error: "Action matching query does not exist." };
        body = actionExpression(action);
      } else body = [...constant(leaf.key), ...field(["event"]), OP.EQ];
      const filters = Array.isArray(leaf.event_filters) ? (leaf.event_filters as Json[]) : [];
      const parts = filters
        .filter((f) => f.type === "event")
        .map((f) => comparison(["properties", String(f.key)], String(f.operator ?? "exact"), f.value));
      if (parts.some((p) => p === undefined))
        return { error: "Unsupported event filter for realtime bytecode" };
      if (parts.length > 0) body = [...body, ...(parts as unknown[][]).flat(), OP.AND, parts.length + 1];
      break;
    }
    case "cohort": {
      const referenced = ctx.cohort(Number(leaf.value));
      if (referenced?.cohort_type !== "realtime") return {};
      body = [...constant(Number(leaf.value)), ...field(["person_id"]), OP.IN_COHORT];
      break;
    }
    case "person":
    case "person_metadata": {
      const chain =
        leaf.type === "person" ? ["person", "properties", String(leaf.key)] : ["person", String(leaf.key)];
      body = comparison(chain, String(leaf.operator ?? "exact"), leaf.value);
      if (!body) return { error: `Unsupported property operator: ${String(leaf.operator)}` };
      break;
    }
    default:
      return {};
  }
  if (leaf.negation === true) body = [...body, OP.NOT];
  return { bytecode: [...header, ...body] };
}

/** The service's `conditionHash`: SHA-256 of `json.dumps(bytecode, sort_keys=True)`, 16 hex digits. */
export function conditionHash(bytecode: unknown[]): string {
  return createHash("sha256").update(pyJsonDumps(bytecode)).digest("hex").slice(0, 16);
}

/** Whether `filters.properties` has at least one value (`cohort_filters_have_values`). */
export function filtersHaveValues(filters: unknown): boolean {
  const properties = isDict(filters) ? filters.properties : undefined;
  return isDict(properties) && Array.isArray(properties.values) && properties.values.length > 0;
}

/**
 * Every leaf of stored filters compiled again (a compiler upgrade): `bytecode` and `conditionHash`
 * rewritten, or `bytecode_error` set, the leaf's other keys kept. Returns a new tree.
 */
export function recompileFilters(filters: Json, ctx: FilterContext): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isDict(node)) return node;
    if ((node.type === "AND" || node.type === "OR") && Array.isArray(node.values))
      return { ...node, values: node.values.map(walk) };
    if (typeof node.type !== "string" || !(node.type in MODELS)) return node;
    const { bytecode: _b, conditionHash: _h, bytecode_error: _e, ...rest } = node;
    const compiled = compileLeaf(dropNulls(rest), ctx);
    const out: Json = { ...rest };
    if (compiled.bytecode) {
      out.bytecode = compiled.bytecode;
      out.conditionHash = conditionHash(compiled.bytecode);
    }
    if (compiled.error) out.bytecode_error = compiled.error;
    return out;
  };
  return {
    ...filters,
    ...(filters.properties !== undefined ? { properties: walk(filters.properties) } : {}),
  };
}
