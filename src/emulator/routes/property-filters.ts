/**
 * Event property filters (`properties=` on the events list): a JSON array of `{key, value, operator,
 * type}`; a group `{type: "AND", values: [...]}` is flattened. Anything else is "Properties are
 * unparsable!" like the service.
 */
import { invalid } from "../errors.js";
import { isDict } from "../fields.js";

export interface PropertyFilter {
  key: string;
  value: unknown;
  operator: string;
}

const OPERATORS = new Set([
  "exact",
  "is_not",
  "icontains",
  "not_icontains",
  "regex",
  "not_regex",
  "gt",
  "gte",
  "lt",
  "lte",
  "is_set",
  "is_not_set",
]);

export function parsePropertyFilters(raw: string | null): PropertyFilter[] {
  if (raw === null || raw.trim() === "") return [];
  const unparsable = () => invalid("Properties are unparsable!");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw unparsable();
  }
  if (isDict(parsed) && Array.isArray(parsed.values)) parsed = parsed.values;
  if (!Array.isArray(parsed)) throw unparsable();
  const out: PropertyFilter[] = [];
  const visit = (item: unknown) => {
    if (!isDict(item)) throw unparsable();
    if ((item.type === "AND" || item.type === "OR") && Array.isArray(item.values)) {
      item.values.forEach(visit);
      return;
    }
    if (typeof item.key !== "string") throw unparsable();
    const operator = typeof item.operator === "string" ? item.operator : "exact";
    if (!OPERATORS.has(operator)) throw unparsable();
    out.push({ key: item.key, value: item.value, operator });
  };
  parsed.forEach(visit);
  return out;
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function matches(actual: unknown, f: PropertyFilter): boolean {
  const text = actual === undefined || actual === null ? undefined : String(actual);
  const values = asList(f.value).map(String);
  switch (f.operator) {
    case "exact":
      return text !== undefined && values.includes(text);
    case "is_not":
      return text === undefined || !values.includes(text);
    case "icontains":
      return text?.toLowerCase().includes(String(f.value).toLowerCase()) === true;
    case "not_icontains":
      return text === undefined || !text.toLowerCase().includes(String(f.value).toLowerCase());
    case "regex":
    case "not_regex": {
      let hit = false;
      try {
        hit = text !== undefined && new RegExp(String(f.value)).test(text);
      } catch {
        hit = false;
      }
      return f.operator === "regex" ? hit : !hit;
    }
    case "gt":
      return Number(actual) > Number(f.value);
    case "gte":
      return Number(actual) >= Number(f.value);
    case "lt":
      return Number(actual) < Number(f.value);
    case "lte":
      return Number(actual) <= Number(f.value);
    case "is_set":
      return text !== undefined;
    default:
      return text === undefined;
  }
}

export function matchesAll(properties: Record<string, unknown>, filters: PropertyFilter[]): boolean {
  return filters.every((f) => matches(properties[f.key], f));
}
