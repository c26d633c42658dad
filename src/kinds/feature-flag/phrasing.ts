/**
 * What a flag change does, in words a reviewer reads at a glance: "group 2: rollout 20% → 60%",
 * "turns the flag off for everyone", "variant test: 50% → 30%". Works on the comparable shapes of
 * filters.ts (flag dependencies by key, cohorts by id, payloads parsed); a cohort is named by its
 * property's `cohort` (the plan keeps the name there) or by the caller's lookup. Encrypted payloads
 * are named, never shown.
 */
import { ENCRYPTED, isObject, type Json, jsonEqual } from "./filters.js";

export interface PhrasingOptions {
  /** A cohort's name by id (undefined: shown as `cohort #id`). */
  cohortName?: (id: number) => string | undefined;
}

function quote(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function percent(value: unknown): string {
  return typeof value === "number" ? `${value}%` : "100%";
}

function condition(prop: Json, opts: PhrasingOptions): string {
  const negation = prop.negation === true ? "not " : "";
  if (prop.type === "flag") {
    return `${negation}flag ${String(prop.key)} is ${quote(prop.value ?? true)}`;
  }
  if (prop.type === "cohort") {
    const id = Number(prop.value);
    const name =
      typeof prop.cohort === "string"
        ? prop.cohort
        : Number.isInteger(id)
          ? opts.cohortName?.(id)
          : undefined;
    const inside = prop.operator === "not_in" ? "not in" : "in";
    return `${negation}${inside} cohort ${name === undefined ? `#${String(prop.value)}` : quote(name)}`;
  }
  const operator = typeof prop.operator === "string" ? prop.operator : "exact";
  const value = operator === "is_set" || operator === "is_not_set" ? "" : ` ${quote(prop.value)}`;
  return `${negation}${String(prop.key)} ${operator}${value}`;
}

function conditions(group: Json, opts: PhrasingOptions): string {
  const props = Array.isArray(group.properties) ? group.properties.filter(isObject) : [];
  return props.length === 0 ? "everyone" : props.map((p) => condition(p, opts)).join(" and ");
}

function audience(group: Json, opts: PhrasingOptions): string {
  const who = conditions(group, opts);
  return `${percent(group.rollout_percentage)} of ${who === "everyone" ? "everyone" : `those where ${who}`}`;
}

function aggregation(value: unknown): string {
  return typeof value === "number" ? `group type ${value}` : "persons";
}

function groupLines(before: unknown, after: unknown, opts: PhrasingOptions): string[] {
  const b = Array.isArray(before) ? before.filter(isObject) : [];
  const a = Array.isArray(after) ? after.filter(isObject) : [];
  if (a.length === 0 && b.length > 0) return ["removes every release condition: the flag is on for no one"];
  const lines: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const was = b[i];
    const now = a[i];
    const n = i + 1;
    if (!was && now) {
      lines.push(`adds group ${n}: ${audience(now, opts)}`);
      continue;
    }
    if (was && !now) {
      lines.push(`removes group ${n} (${audience(was, opts)})`);
      continue;
    }
    if (!was || !now) continue;
    if (!jsonEqual(was.rollout_percentage ?? null, now.rollout_percentage ?? null)) {
      lines.push(
        `group ${n}: rollout ${percent(was.rollout_percentage)} → ${percent(now.rollout_percentage)}`,
      );
    }
    if (!jsonEqual(was.properties ?? [], now.properties ?? [])) {
      lines.push(`group ${n}: conditions ${conditions(was, opts)} → ${conditions(now, opts)}`);
    }
    if ((was.variant ?? null) !== (now.variant ?? null)) {
      const name = (v: unknown) => (typeof v === "string" ? `variant ${v}` : "the rollout's variants");
      lines.push(`group ${n}: serves ${name(was.variant)} → ${name(now.variant)}`);
    }
    if ((was.aggregation_group_type_index ?? null) !== (now.aggregation_group_type_index ?? null)) {
      lines.push(
        `group ${n}: rolls out by ${aggregation(was.aggregation_group_type_index)} → ${aggregation(now.aggregation_group_type_index)}`,
      );
    }
    const rest = (g: Json) => {
      const {
        rollout_percentage: _r,
        properties: _p,
        variant: _v,
        aggregation_group_type_index: _a,
        ...other
      } = g;
      return other;
    };
    if (!jsonEqual(rest(was), rest(now))) lines.push(`group ${n}: ${quote(rest(was))} → ${quote(rest(now))}`);
  }
  return lines;
}

function variantList(value: unknown): Json[] {
  return isObject(value) && Array.isArray(value.variants) ? value.variants.filter(isObject) : [];
}

function variantLines(before: unknown, after: unknown): string[] {
  const b = variantList(before);
  const a = variantList(after);
  const share = (list: Json[]) =>
    list.map((v) => `${String(v.key)} ${percent(v.rollout_percentage)}`).join(", ");
  if (a.length === 0 && b.length > 0) return [`makes it a boolean flag (drops variants ${share(b)})`];
  if (b.length === 0 && a.length > 0) return [`serves variants ${share(a)}`];
  const lines: string[] = [];
  const was = new Map(b.map((v) => [String(v.key), v]));
  const now = new Map(a.map((v) => [String(v.key), v]));
  for (const [key, v] of now) {
    const old = was.get(key);
    if (!old) lines.push(`adds variant ${key} (${percent(v.rollout_percentage)})`);
    else if (!jsonEqual(old.rollout_percentage, v.rollout_percentage)) {
      lines.push(`variant ${key}: ${percent(old.rollout_percentage)} → ${percent(v.rollout_percentage)}`);
    }
    if (old && (old.name ?? null) !== (v.name ?? null))
      lines.push(`variant ${key}: name ${quote(old.name ?? "")} → ${quote(v.name ?? "")}`);
  }
  for (const key of was.keys()) if (!now.has(key)) lines.push(`removes variant ${key}`);
  return lines;
}

function payloadLines(before: unknown, after: unknown): string[] {
  const b = isObject(before) ? before : {};
  const a = isObject(after) ? after : {};
  const lines: string[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    const encrypted = b[key] === ENCRYPTED || a[key] === ENCRYPTED;
    const secret = encrypted ? "encrypted " : "";
    // A plain payload shows its value (compact JSON); an encrypted one never does.
    const value = (v: unknown) => (encrypted ? "" : `: ${quote(v)}`);
    if (!(key in b)) lines.push(`adds the ${secret}payload for ${key}${value(a[key])}`);
    else if (!(key in a)) lines.push(`removes the ${secret}payload for ${key}`);
    else if (encrypted) lines.push(`changes the encrypted payload for ${key}`);
    else if (!jsonEqual(b[key], a[key]))
      lines.push(`changes the payload for ${key}: ${quote(b[key])} → ${quote(a[key])}`);
  }
  return lines;
}

/**
 * Lines for one changed field of a flag (`path` as in the plan: `active`, `key`, `filters.groups`,
 * `filters.multivariate`, `filters.payloads`, ...), empty when the field has no wording of its own.
 */
export function describeFlagField(
  path: string,
  before: unknown,
  after: unknown,
  opts: PhrasingOptions = {},
): string[] {
  switch (path) {
    case "active":
      return [
        after === false ? "turns the flag off for everyone" : "turns the flag on for its release conditions",
      ];
    case "has_encrypted_payloads":
      return [
        after === false
          ? "turns payload encryption off: its payloads are stored in plain text from now on"
          : "turns payload encryption on: the service encrypts the payloads it is sent",
      ];
    case "archived":
      return [after === true ? "archives the flag (hidden from the flag list)" : "unarchives the flag"];
    case "deleted":
      return [after === true ? "soft-deletes the flag" : "restores the flag"];
    case "key":
      return [
        `renames the key ${quote(before)} → ${quote(after)}: code that checks ${quote(before)} no longer finds the flag`,
      ];
    case "filters.groups":
      return groupLines(before, after, opts);
    case "filters.multivariate":
      return variantLines(before, after);
    case "filters.payloads":
      return payloadLines(before, after);
    case "filters.aggregation_group_type_index":
      return [`rolls out by ${aggregation(before)} → ${aggregation(after)}`];
    default:
      return [];
  }
}
