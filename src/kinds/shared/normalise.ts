/**
 * Value normalisers shared by the kinds: desired and live values pass through the same functions so
 * that two spellings of one value (tag case, timestamp precision, `"5432"` vs 5432) compare equal and a
 * plan never shows a change that apply cannot make go away.
 */
import { isPlainObject } from "../../plan/values.js";

/**
 * Tags as the service stores them: trimmed, lowercased, de-duplicated; sorted for comparison. Anything
 * but a list of strings (a missing value) is no tags.
 */
export function normaliseTags(tags: unknown): string[] {
  const set = new Set<string>();
  for (const tag of Array.isArray(tags) ? tags : []) {
    if (typeof tag !== "string") continue;
    const t = tag.trim().toLowerCase();
    if (t !== "") set.add(t);
  }
  return [...set].sort();
}

const INSTANT =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A timestamp as one canonical instant, `YYYY-MM-DDTHH:MM:SS.ffffffZ` (microseconds, UTC), so that
 * `2026-01-01T00:00:00Z`, `…00.000000Z` and `…00+00:00` are equal. A text that is not a timestamp is
 * returned unchanged (it then compares as text).
 */
export function normaliseInstant(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let known = instants.get(value);
  if (known === undefined) {
    if (instants.size >= 10_000) instants.clear();
    known = parseInstant(value);
    instants.set(value, known);
  }
  return known;
}

/** Plans see the same few timestamps many times over; parsing each once keeps 10,000 objects fast. */
const instants = new Map<string, string>();

function parseInstant(value: string): string {
  const m = INSTANT.exec(value.trim());
  if (!m) return value;
  const [, date, hh = "00", mm = "00", ss = "00", fraction = "", zone = "Z"] = m;
  const offset = zone === "Z" || zone === "z" ? "Z" : zoneWithColon(zone);
  const millis = Date.parse(`${date}T${hh}:${mm}:${ss}${offset}`);
  if (Number.isNaN(millis)) return value;
  const micros = fraction.padEnd(6, "0").slice(0, 6);
  return `${new Date(millis).toISOString().slice(0, 19)}.${micros}Z`;
}

function zoneWithColon(zone: string): string {
  const digits = zone.slice(1).replace(":", "");
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4).padEnd(2, "0")}`;
}

/**
 * Loose scalar equality for destination config: older service versions return booleans and numbers
 * as strings, so `"true"` equals true and `"5432"` equals 5432. Objects and arrays compare member-wise.
 */
export function looseEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => looseEqual(item, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!looseEqual(a[key], b[key])) return false;
    return true;
  }
  return scalarText(a) !== undefined && scalarText(a) === scalarText(b);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  if (typeof value === "string") {
    const t = value.trim();
    if (t === "True" || t === "False") return t.toLowerCase();
    if (t !== "" && Number.isFinite(Number(t))) return String(Number(t));
    return value;
  }
  return undefined;
}

/** HogQL as compared: surrounding whitespace and whitespace runs do not matter to the service. */
export function normaliseQuery(query: unknown): string {
  return (typeof query === "string" ? query : "").trim().replace(/\s+/g, " ");
}

/** Text the service stores verbatim except for a trailing newline that YAML block scalars add. */
export function normaliseText(text: unknown): string {
  return (typeof text === "string" ? text : "").replace(/\n+$/, "");
}
