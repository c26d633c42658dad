/**
 * The few Python semantics the ported query migrations depend on: truthiness, `==` on JSON values
 * (dicts compare by content whatever their key order) and `int(str)`. The migrations are ports of
 * PostHog's Python code; where that code reads a value's truthiness, so must the port.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isDict(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's truthiness of a JSON value: None, False, 0, "", [] and {} are false. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's `==` on JSON values: dicts by their entries (order ignored), lists element by element. */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEqual(item, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && pyEqual(a[k], b[k]));
  }
  return false;
}

/** Python's `int(text)` for a string, or undefined where it would raise (signs, spaces and `_` allowed). */
export function pyInt(text: string): number | undefined {
  const m = /^\s*([+-]?)(\d+(?:_\d+)*)\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number((m[2] ?? "").replaceAll("_", ""));
  return m[1] === "-" ? -n : n;
}

/** `str(n)` for a JSON number, as Python prints an int. */
export function pyStr(value: unknown): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null) return "None";
  return String(value);
}

export function deepCopy<T>(value: T): T {
  return structuredClone(value);
}
