/**
 * `--where key=value` → the events list's `properties` parameter: a JSON array of event property
 * filters with operator `exact`, all of which must match. The value is compared as text by the
 * service; the first `=` splits key from value, so values may contain `=`.
 */
import { UserError } from "../errors.js";
import type { PropertyFilter } from "../render/events.js";

export type { PropertyFilter } from "../render/events.js";

export function parseWhere(raw: string | readonly string[] | undefined): PropertyFilter[] {
  const items = raw === undefined ? [] : typeof raw === "string" ? [raw] : raw;
  return items.map((item) => {
    const at = item.indexOf("=");
    const key = at < 0 ? "" : item.slice(0, at).trim();
    if (!key) throw new UserError(`--where ${item} must look like key=value, e.g. --where '$browser=Chrome'`);
    return { key, value: item.slice(at + 1), operator: "exact", type: "event" };
  });
}
