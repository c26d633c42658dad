/**
 * The insight API's query validation (products/product_analytics/backend/api/insight.py
 * `QuerySchemaParser`): a truthy `query` in a request body must validate as PostHog's
 * `QuerySchemaRoot`, a union discriminated on `kind`, else the whole request is a 400 `parse_error`
 * whose detail is pydantic's message. The emulator checks the discriminators (the query, a wrapper's
 * `source`, each series item and funnel exclusion) and the required fields of the common node kinds
 * (src/queries/check.ts); it does not reproduce the generated models' every field (unknown keys pass). Also the MCP serializer's normalisation (`x-posthog-client: mcp`), which wraps raw queries and
 * re-serialises them with the models' defaults.
 */
import { nodeProblems, type QueryProblem, queryProblems } from "posthog-gitops-shared/queries/check";
import { ApiError, errorBody, invalid } from "../errors.js";
import { isDict, pyType } from "../fields.js";

/** Python's repr of a JSON value, as pydantic prints `input_value` (long values cut in the middle). */
export function pyRepr(value: unknown, top = true): string {
  let text: string;
  if (value === null || value === undefined) text = "None";
  else if (typeof value === "boolean") text = value ? "True" : "False";
  else if (typeof value === "number") text = String(value);
  else if (typeof value === "string") text = `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  else if (Array.isArray(value)) text = `[${value.map((v) => pyRepr(v, false)).join(", ")}]`;
  else {
    const entries = Object.entries(value as Record<string, unknown>);
    text = `{${entries.map(([k, v]) => `${pyRepr(k, false)}: ${pyRepr(v, false)}`).join(", ")}}`;
  }
  if (top && text.length > 50) return `${text.slice(0, 25)}...${text.slice(-24)}`;
  return text;
}

/** `str(ValidationError)` as pydantic v2 words it. */
export function describeProblems(title: string, problems: readonly QueryProblem[]): string {
  const count = problems.length === 1 ? "1 validation error" : `${problems.length} validation errors`;
  const lines = [`${count} for ${title}`];
  for (const p of problems) {
    if (p.loc.length > 0) lines.push(p.loc.join("."));
    lines.push(
      `  ${p.message} [type=${p.type}, input_value=${pyRepr(p.input)}, input_type=${pyType(p.input)}]`,
    );
  }
  return lines.join("\n");
}

/** `QuerySchemaParser.parse`: a truthy query that does not validate fails the request (400 parse_error). */
export function checkQueryOnParse(body: unknown): void {
  if (!isDict(body)) return;
  const query = body.query;
  if (query === undefined || query === null || query === false || query === 0 || query === "") return;
  if ((Array.isArray(query) && query.length === 0) || (isDict(query) && Object.keys(query).length === 0))
    return;
  const problems = queryProblems(query);
  if (problems.length > 0) {
    throw new ApiError(
      400,
      errorBody("invalid_request", "parse_error", describeProblems("QuerySchemaRoot", problems)),
    );
  }
}

/**
 * Defaults the schema models fill in when a query is re-serialised (`model_dump(exclude_none=True)`),
 * for the common node kinds: a subset of posthog/schema.py's field defaults.
 */
export const QUERY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  TrendsQuery: { filterTestAccounts: false, interval: "day", properties: [] },
  FunnelsQuery: { filterTestAccounts: false, interval: "day", properties: [] },
  StickinessQuery: { filterTestAccounts: false, interval: "day", properties: [] },
  LifecycleQuery: { filterTestAccounts: false, interval: "day", properties: [] },
  RetentionQuery: { filterTestAccounts: false, properties: [] },
  PathsQuery: { filterTestAccounts: false, properties: [] },
  EventsNode: { properties: [] },
  ActionsNode: { properties: [] },
};

/** The query with the models' defaults filled in at every depth (keys present are kept). */
export function withDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withDefaults);
  if (!isDict(value)) return value;
  const out: Record<string, unknown> = {};
  const defaults = typeof value.kind === "string" ? QUERY_DEFAULTS[value.kind] : undefined;
  for (const [key, item] of Object.entries(value)) {
    if (item !== null) out[key] = withDefaults(item);
  }
  for (const [key, item] of Object.entries(defaults ?? {})) {
    if (!(key in out)) out[key] = structuredClone(item);
  }
  return out;
}

/**
 * `MCPInsightSerializer.validate_query`: a HogQL query becomes a DataVisualizationNode, a wrapper is
 * kept, a raw insight query is wrapped in an InsightVizNode; each re-serialised with the defaults.
 * Anything else is a 400 "This query can't be saved: …" on `query`.
 */
export function normaliseMcpQuery(value: unknown): unknown {
  if (isDict(value) && value.kind === "HogQLQuery" && queryProblems(value).length === 0) {
    return withDefaults({ kind: "DataVisualizationNode", source: value });
  }
  if (isDict(value) && (value.kind === "DataVisualizationNode" || value.kind === "InsightVizNode")) {
    if (queryProblems(value).length === 0) return withDefaults(value);
  }
  const wrapped = { kind: "InsightVizNode", source: value };
  const problems = nodeProblems(wrapped, "InsightVizNode", [], []);
  if (problems.length === 0) return withDefaults(wrapped);
  const details = problems.map((p) => `${p.loc.join(".")}: ${p.message}`).join("; ");
  throw invalid(`This query can't be saved: ${details}`, "query");
}
