/**
 * A rough reading of the HogQL a batch export carries, enough for the service's checks that depend on
 * its shape (products/batch_exports/backend/hogql_source.py): a SELECT, `{data_interval_start}` /
 * `{data_interval_end}` as the only placeholders, named output columns. The emulator has no HogQL
 * parser: anything that does not start with SELECT (or WITH) "fails to parse", and the parser's own
 * message is not reproduced.
 */

export const DATA_INTERVAL_START = "data_interval_start";
const SUPPORTED = "{data_interval_start} and {data_interval_end}";

/** Splits at top-level commas (outside brackets and quotes). */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && text[i - 1] !== "\\") quote = null;
    } else if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

/** The `{name}` placeholders of a query (outside string literals, roughly). */
export function placeholders(query: string): string[] {
  return [...query.matchAll(/\{([^{}]*)\}/g)].map((m) => (m[1] ?? "").trim());
}

/** An error message of the service's UnsupportedHogQLQueryError for the query, or undefined. */
export function unsupportedQuery(query: string): string | undefined {
  if (!/^\s*(?:with\b[\s\S]*?)?\bselect\b/i.test(query)) {
    return "Failed to parse HogQL query: the query is not a SELECT";
  }
  for (const name of placeholders(query)) {
    if (name === DATA_INTERVAL_START || name === "data_interval_end") continue;
    if (name === "filters" || !/^[A-Za-z_][\w.]*$/.test(name)) {
      return `Unsupported placeholder. Only ${SUPPORTED} are supported in batch export queries`;
    }
    return `Unknown placeholder '{${name}}'. Only ${SUPPORTED} are supported in batch export queries`;
  }
  const columns = selectItems(query);
  if (columns.some((c) => c !== "*" && outputName(c) === undefined)) {
    return "Every column in the SELECT clause must be a field or have an alias (e.g. `count() AS event_count`)";
  }
  return undefined;
}

function selectItems(query: string): string[] {
  const m = /\bselect\b([\s\S]*?)\bfrom\b/i.exec(query) ?? /\bselect\b([\s\S]*)$/i.exec(query);
  return splitTopLevel(m?.[1] ?? "").map((c) => c.replace(/^distinct\s+/i, ""));
}

/** An item's output column: its alias, or the last segment of a bare field chain. */
function outputName(item: string): string | undefined {
  const alias = /\bas\s+`?([A-Za-z_][\w$]*)`?\s*$/i.exec(item);
  if (alias) return alias[1];
  const field = /^`?([A-Za-z_][\w$]*)`?(?:\.`?([A-Za-z_$][\w$]*)`?)*$/.exec(item);
  if (!field) return undefined;
  return item.split(".").pop()?.replace(/`/g, "");
}

/** Output column names, or undefined when `*` makes them unknowable here. */
export function outputColumns(query: string): Set<string> | undefined {
  const items = selectItems(query);
  if (items.some((c) => c === "*" || c.endsWith(".*"))) return undefined;
  return new Set(items.map(outputName).filter((n): n is string => n !== undefined));
}
