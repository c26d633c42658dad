/**
 * Event property filters (`properties=` on the events list): a JSON array of `{key, value, operator,
 * type}`; a group `{type: "AND", values: [...]}` is flattened. Anything else is "Properties are
 * unparsable!" like the service. `regex` and `not_regex` run on RE2 (the `re2js` package), as the
 * service's ClickHouse does: linear in the text, whatever the pattern.
 */
import type { PropertyOperator } from "posthog-gitops-shared/posthog";
import { RE2JS } from "re2js";
import { invalid } from "../errors.js";
import { isDict } from "../fields.js";

export interface PropertyFilter {
  key: string;
  value: unknown;
  operator: string;
}

/** A property's value as the matchers read it, beside the filter's value (as is and as strings). */
interface Compared {
  actual: unknown;
  text: string | undefined;
  value: unknown;
  values: string[];
}

/** Compiled patterns of a request's filters, by source (a filter is tested against every event). */
const compiled = new Map<string, RE2JS | null>();

/**
 * `match(value, pattern)` as the service's ClickHouse runs it: RE2, whose time is linear in the text,
 * so no pattern can hold the emulator (a JavaScript RegExp backtracks: `^(a+)+$` over a long text
 * never ends). A pattern RE2 cannot parse matches nothing.
 */
function regexHit({ text, value }: Compared): boolean {
  if (text === undefined) return false;
  const source = String(value);
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    try {
      pattern = RE2JS.compile(source);
    } catch {
      pattern = null;
    }
    if (compiled.size >= 256) compiled.clear();
    compiled.set(source, pattern);
  }
  return pattern?.matcher(text).find() === true;
}

/** The operators the events list evaluates (some of PostHog's): a filter with any other is unparsable. */
const MATCHERS: { readonly [operator in PropertyOperator]?: (c: Compared) => boolean } = {
  exact: ({ text, values }) => text !== undefined && values.includes(text),
  is_not: ({ text, values }) => text === undefined || !values.includes(text),
  icontains: ({ text, value }) => text?.toLowerCase().includes(String(value).toLowerCase()) === true,
  not_icontains: ({ text, value }) =>
    text === undefined || !text.toLowerCase().includes(String(value).toLowerCase()),
  regex: (c) => regexHit(c),
  not_regex: (c) => !regexHit(c),
  gt: ({ actual, value }) => Number(actual) > Number(value),
  gte: ({ actual, value }) => Number(actual) >= Number(value),
  lt: ({ actual, value }) => Number(actual) < Number(value),
  lte: ({ actual, value }) => Number(actual) <= Number(value),
  is_set: ({ text }) => text !== undefined,
  is_not_set: ({ text }) => text === undefined,
};

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
    if (!Object.hasOwn(MATCHERS, operator)) throw unparsable();
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
  const matcher = MATCHERS[f.operator as PropertyOperator];
  return matcher?.({ actual, text, value: f.value, values }) ?? false;
}

export function matchesAll(properties: Record<string, unknown>, filters: PropertyFilter[]): boolean {
  return filters.every((f) => matches(properties[f.key], f));
}
