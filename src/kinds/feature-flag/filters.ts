/**
 * A flag's `filters` in one comparable shape, whichever side it comes from. The service rewrites what
 * it stores and adds to what it answers (service-api.md §10.2), and each rewrite here has its inverse so
 * that a plan never shows a change apply cannot make go away:
 *
 * - `aggregation_group_type_index` is copied into every group and re-derived at flag level: each
 *   group carries its effective value (its own, else the flag's, else persons: null) and the flag-level
 *   value is derived back from the groups;
 * - payload values are stored as JSON-encoded strings (Python's spacing): compared as parsed values;
 * - `cohort_name` (and `group_key_names`) are added on read, a group's `sort_key` is the UI's: dropped
 *   (only the keys the file's schema knows are compared: schema.ts);
 * - property operators `min` / `max` are stored as `gte` / `lte`; property keys as strings;
 * - groups without `properties` read back with `[]`; a `variant`, `rollout_percentage` or variant
 *   `name` of null reads like one left out; legacy `holdout_groups` / `super_groups` vanish on a save;
 * - a remote-configuration flag's rollout of 0 or none is 100%.
 *
 * Flag dependencies compare by the other flag's key and cohorts by name (both sides name them before
 * this: ../define/references.ts; an id no name is known for stays an id). Encrypted payload values
 * never reach the comparable shape: both sides show a marker, so a live plain text is never kept.
 */

import { OPERATOR_ALIASES } from "posthog-gitops-shared/posthog";
import { GROUP_KEYS, PROPERTY_KEYS } from "./schema.js";

export type Json = Record<string, unknown>;

/** What a comparable encrypted payload value is, on both sides. */
export const ENCRYPTED = "(encrypted)";

const LEGACY_KEYS = new Set(["holdout_groups", "super_groups"]);

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface NormaliseOptions {
  /** A remote-configuration flag: rollouts of 0 or none mean 100%. */
  remoteConfiguration: boolean;
  /** The flag's payloads are encrypted: their values are secrets and compare as `ENCRYPTED`. */
  encrypted: boolean;
  /**
   * The flag-level aggregation the service holds for keys the write does not send (the live value on
   * update, null on create): groups without their own aggregation take it.
   */
  storedAggregation?: number | null;
}

function normaliseProperty(prop: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(prop)) {
    if (!PROPERTY_KEYS.has(k) || v === undefined) continue;
    out[k] = v;
  }
  if (typeof out.key === "number") out.key = String(out.key);
  if (typeof out.operator === "string" && OPERATOR_ALIASES[out.operator])
    out.operator = OPERATOR_ALIASES[out.operator];
  if (out.operator === null) delete out.operator;
  if (out.type === "cohort") {
    // A cohort property's `key` is always "id": its `cohort:` name (or, unknown, its `value` id) says
    // which cohort.
    delete out.key;
    if (typeof out.value === "string" && /^\d+$/.test(out.value.trim())) out.value = Number(out.value);
  }
  return out;
}

function normaliseGroup(group: Json, aggregation: number | null, opts: NormaliseOptions): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(group))
    if (GROUP_KEYS.has(k) && v !== null && v !== undefined) out[k] = v;
  out.properties = Array.isArray(group.properties)
    ? group.properties.filter(isObject).map(normaliseProperty)
    : [];
  out.aggregation_group_type_index =
    "aggregation_group_type_index" in group ? (group.aggregation_group_type_index ?? null) : aggregation;
  if (opts.remoteConfiguration && (out.rollout_percentage === undefined || out.rollout_percentage === 0)) {
    out.rollout_percentage = 100;
  }
  return out;
}

/** A stored payload (a JSON text) as its value; a text that does not parse stays as it is. */
export function parsePayload(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function normalisePayloads(payloads: unknown, live: boolean, opts: NormaliseOptions): unknown {
  if (!isObject(payloads)) return payloads;
  const out: Json = {};
  for (const [k, v] of Object.entries(payloads)) {
    out[k] = opts.encrypted ? ENCRYPTED : live ? parsePayload(v) : v;
  }
  return out;
}

function normaliseMultivariate(value: unknown): unknown {
  if (!isObject(value)) return value ?? null;
  const variants = Array.isArray(value.variants) ? value.variants.filter(isObject) : [];
  return {
    variants: variants.map((v) => {
      const out: Json = { key: v.key, rollout_percentage: v.rollout_percentage };
      if (v.name !== null && v.name !== undefined) out.name = v.name;
      return out;
    }),
  };
}

function normalise(filters: Json, live: boolean, opts: NormaliseOptions): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(filters)) {
    if (live && LEGACY_KEYS.has(k)) continue;
    out[k] = v;
  }
  const flagLevel =
    "aggregation_group_type_index" in filters
      ? (filters.aggregation_group_type_index ?? null)
      : (opts.storedAggregation ?? null);
  if ("groups" in filters) {
    const groups = Array.isArray(filters.groups) ? filters.groups.filter(isObject) : [];
    const normalised = groups.map((g) => normaliseGroup(g, flagLevel as number | null, opts));
    out.groups = normalised;
    if (normalised.length > 0) {
      const first = normalised[0]?.aggregation_group_type_index ?? null;
      const same = normalised.every((g) => (g.aggregation_group_type_index ?? null) === first);
      out.aggregation_group_type_index = same ? first : null;
    }
  }
  // No payloads, stored or answered as none, is an empty map.
  out.payloads = normalisePayloads(filters.payloads ?? {}, live, opts);
  if ("multivariate" in filters) out.multivariate = normaliseMultivariate(filters.multivariate);
  return out;
}

/** The live filters (as the service answers them) in the comparable shape. */
export function normaliseLiveFilters(filters: Json, opts: NormaliseOptions): Json {
  return normalise(filters, true, opts);
}

/**
 * Declared filters (flags by key, cohorts by name) in the comparable shape. Payload values are
 * the declared YAML values (or, for encrypted payloads, secrets), compared with the parsed live ones.
 */
export function normaliseDesiredFilters(filters: Json, opts: NormaliseOptions): Json {
  return normalise(filters, false, opts);
}

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
    );
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * The top-level filters keys the declaration manages (`declared`: the keys its file writes) whose
 * comparable values differ. The flag-level aggregation derived from `groups` is compared only when the
 * file declares it: otherwise `groups` already carries it.
 */
export function differingFilterKeys(declared: readonly string[], desired: Json, live: Json): string[] {
  return declared.filter((key) => !jsonEqual(desired[key] ?? null, live[key] ?? null));
}

/** What the service adds to `filters` on read, never stored: properties' `cohort_name` and `group_key_names`. */
const READ_ONLY_PROPERTY_KEYS = ["cohort_name", "group_key_names"];

/** Live filters as the service stores them: what it adds on read removed. */
export function storedFilters(live: Json): Json {
  const filters = structuredClone(live);
  for (const group of Array.isArray(filters.groups) ? filters.groups.filter(isObject) : []) {
    for (const prop of Array.isArray(group.properties) ? group.properties.filter(isObject) : []) {
      for (const key of READ_ONLY_PROPERTY_KEYS) delete prop[key];
    }
  }
  return filters;
}

/**
 * The `filters` an update sends: the stored filters read at plan time, with the changed top-level keys
 * (already in the service's form) laid over them, `groups` always present and the legacy keys left
 * out (the service drops them on any save). `stored` is the update's `before.filters`, the copy its
 * `original_flag` carries: what the read adds (`cohort_name`, `group_key_names`) is already removed
 * and an encrypted flag's payloads are already left out (plan.ts), so the service keeps their
 * ciphertext and no plain text is ever sent back.
 *
 * Why whole: PostHog's newest service merges a PATCH's `filters` over the stored ones at the top level
 * (`{**stored, **sent}`, since PostHog #74761), but before that change (self-hosted deployments may
 * still run it) a PATCH whose `filters` had no `groups` was ignored and one with `groups` replaced the
 * stored filters whole, dropping `multivariate` and `payloads` a change left out. A whole object means
 * the same under both. The stored keys go back unchanged, so this writes nothing the plan does not
 * show; a key someone changed since the plan is not overwritten either: `filters` is one field to the
 * service's version check, and `original_flag.filters` no longer equals the stored row (409).
 */
export function wholeFilters(stored: Json, changed: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(stored)) {
    if (!LEGACY_KEYS.has(key)) out[key] = structuredClone(value);
  }
  Object.assign(out, structuredClone(changed));
  if (!("groups" in out)) out.groups = [];
  return out;
}

/**
 * Payload values as the service stores them, JSON texts; `keep` says which values are sent as they
 * are (a secret's reference, resolved later to its variable's text, which is already JSON).
 */
export function encodePayloads(payloads: Json, keep: (value: unknown) => boolean = () => false): Json {
  return Object.fromEntries(Object.entries(payloads).map(([k, v]) => [k, keep(v) ? v : JSON.stringify(v)]));
}
