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

/**
 * Fields of the events table as HogQL resolves them (a field outside these is "Unable to resolve
 * field"), and the ones an events-model export may read (`EXPORTABLE_EVENTS_MODEL_FIELDS`). `person.x`
 * is the lazily joined person: its database field is `person_x`.
 */
const EVENTS_FIELDS = new Set([
  "uuid",
  "event",
  "properties",
  "timestamp",
  "team_id",
  "distinct_id",
  "elements_chain",
  "created_at",
  "person_id",
  "person_properties",
  "person",
  "pdi",
  "poe",
  "goe_0",
  "goe_1",
  "goe_2",
  "goe_3",
  "goe_4",
  "$session_id",
  "$window_id",
  "$group_0",
  "$group_1",
  "$group_2",
  "$group_3",
  "$group_4",
  "elements_chain_href",
  "elements_chain_texts",
  "elements_chain_ids",
  "elements_chain_elements",
  "events",
]);
const EXPORTABLE_EVENTS_FIELDS = [
  "created_at",
  "distinct_id",
  "elements_chain",
  "event",
  "person_id",
  "person_properties",
  "properties",
  "team_id",
  "timestamp",
  "uuid",
];
const KEYWORDS = new Set([
  "select",
  "distinct",
  "as",
  "from",
  "where",
  "and",
  "or",
  "not",
  "in",
  "is",
  "null",
  "true",
  "false",
  "like",
  "ilike",
  "between",
  "case",
  "when",
  "then",
  "else",
  "end",
  "limit",
  "order",
  "by",
  "asc",
  "desc",
  "group",
  "having",
  "interval",
]);

type Token = { kind: "word" | "string" | "number" | "punct"; text: string; depth: number };

/** Words (identifiers and keywords, `$` allowed), quoted strings, numbers and punctuation, with depth. */
function tokenize(query: string): Token[] | undefined {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < query.length) {
    const c = query[i] ?? "";
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      const end = query.indexOf(c, i + 1);
      if (end < 0) return undefined;
      const text = query.slice(i, end + 1);
      tokens.push({ kind: c === "'" ? "string" : "word", text: c === "'" ? text : text.slice(1, -1), depth });
      i = end + 1;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(query.slice(i));
    if (word) {
      tokens.push({ kind: "word", text: word[0], depth });
      i += word[0].length;
      continue;
    }
    const number = /^\d+(?:\.\d+)?/.exec(query.slice(i));
    if (number) {
      tokens.push({ kind: "number", text: number[0], depth });
      i += number[0].length;
      continue;
    }
    if (c === "(") depth++;
    if (c === ")") {
      depth--;
      if (depth < 0) return undefined;
    }
    tokens.push({ kind: "punct", text: c, depth: c === "(" ? depth - 1 : depth });
    i++;
  }
  return depth === 0 ? tokens : undefined;
}

const isWord = (t: Token | undefined, word: string) => t?.kind === "word" && t.text.toLowerCase() === word;

/**
 * The select items (top level, between SELECT and FROM) of a parsed query, or undefined when the
 * query does not parse: no expression after SELECT, an empty item (`a,,b`), an unbalanced bracket.
 */
function topLevelSelect(tokens: Token[]): Token[][] | undefined {
  const start = tokens.findIndex((t) => t.depth === 0 && isWord(t, "select"));
  if (start < 0) return undefined;
  const from = tokens.findIndex((t, i) => i > start && t.depth === 0 && isWord(t, "from"));
  const body = tokens.slice(start + 1, from < 0 ? undefined : from);
  if (isWord(body[0], "distinct")) body.shift();
  const items: Token[][] = [[]];
  for (const t of body) {
    if (t.kind === "punct" && t.text === "," && t.depth === 0) items.push([]);
    else items[items.length - 1]?.push(t);
  }
  return items.some((item) => item.length === 0) ? undefined : items;
}

/** The database fields (and unknown names) an item reads: leading identifiers of field chains. */
function fieldsRead(item: Token[]): { fields: string[]; unknown?: string } {
  const fields: string[] = [];
  for (let i = 0; i < item.length; i++) {
    const t = item[i] as Token;
    if (t.kind !== "word") continue;
    const prev = item[i - 1];
    const next = item[i + 1];
    if (KEYWORDS.has(t.text.toLowerCase())) continue;
    if (isWord(prev, "as")) continue; // an alias
    if (prev?.kind === "punct" && prev.text === ".") continue; // the tail of a chain
    if (next?.kind === "punct" && next.text === "(") continue; // a function
    if (!EVENTS_FIELDS.has(t.text)) return { fields, unknown: t.text };
    if (t.text === "person" && item[i + 2]?.kind === "word" && next?.text === ".") {
      fields.push(`person_${item[i + 2]?.text}`);
    } else fields.push(t.text);
  }
  return { fields };
}

/**
 * The events-model query checks the newest service keeps for teams that already own an export with a
 * compiled `schema` (exports.py `_validate_events_hogql_query`), in its order: the parse ("Failed to
 * parse query"), field resolution ("Invalid HogQL query: ..."), then UNION, no FROM, CTE, a subquery in
 * FROM, a table other than events, JOIN, a subquery in a select item, fields outside the exportable
 * ones. Returns the message of the first failure, or undefined.
 */
export function eventsQueryError(query: string): string | undefined {
  const tokens = tokenize(query);
  const items = tokens ? topLevelSelect(tokens) : undefined;
  if (!tokens || !items) return "Failed to parse query";
  const top = tokens.filter((t) => t.depth === 0);
  const union = top.some((t) => isWord(t, "union"));
  const cte = isWord(tokens[0], "with");
  const fromAt = tokens.findIndex((t) => t.depth === 0 && isWord(t, "from"));
  const source = fromAt < 0 ? undefined : tokens[fromAt + 1];
  const subqueryFrom = source?.kind === "punct" && source.text === "(";
  const join = top.some((t) => isWord(t, "join"));
  const simple = !union && !cte && !subqueryFrom && !join && source?.text === "events";
  if (simple) {
    for (const item of items) {
      if (item.some((t) => isWord(t, "select"))) continue;
      const { unknown } = fieldsRead(item);
      if (unknown) return `Invalid HogQL query: Unable to resolve field: ${unknown}`;
    }
  }
  if (union) return "UNIONs are not supported";
  if (fromAt < 0) return "Query must SELECT FROM events";
  if (cte) return "CTEs are not supported";
  if (subqueryFrom) return "Subqueries are not supported";
  if (source?.text !== "events") return "Query must only SELECT FROM events";
  if (join) return "JOINs are not supported";
  if (items.some((item) => item.some((t) => isWord(t, "select")))) {
    return "Subqueries in SELECT expressions are not supported";
  }
  const read = new Set(items.flatMap((item) => fieldsRead(item).fields));
  const unsupported = [...read].filter((f) => !EXPORTABLE_EVENTS_FIELDS.includes(f)).sort();
  if (unsupported.length > 0) {
    return `Batch exports cannot read these fields: ${unsupported.join(", ")}. Supported fields are: ${EXPORTABLE_EVENTS_FIELDS.join(", ")}.`;
  }
  return undefined;
}
