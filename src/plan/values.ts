/**
 * Value helpers every stage shares: one canonical serialisation (equality and fingerprints), one string
 * order (stable across locales), and the plain-object test.
 */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON with sorted keys at every level: the one serialisation used for equality and fingerprints. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  return canonicalJson(a) === canonicalJson(b);
}

/** Code-point order: stable across locales; every sort in the planner uses it. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads a dotted path of a nested object. */
export function getPath(object: Record<string, unknown>, path: string): unknown {
  let current: unknown = object;
  for (const part of path.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

/** Writes a dotted path into a nested object, creating intermediate objects. */
export function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let current = object;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (!isPlainObject(next)) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts.at(-1) as string] = value;
}
