/**
 * The query the service shows for an insight that has only legacy `filters` (the model's
 * `query_from_filters`: `filter_to_query` wrapped in an InsightVizNode with `full: true`). Only the
 * common cases are converted here: the insight type, its event and action series, the date range and
 * the interval. Anything else answers null, which is what the service shows when its conversion fails.
 */
import type { JsonObject } from "posthog-gitops-shared/queries/python";

/** The query kind of each legacy insight type (`filters.insight`). */
export const KIND_BY_INSIGHT: Readonly<Record<string, string>> = {
  TRENDS: "TrendsQuery",
  FUNNELS: "FunnelsQuery",
  RETENTION: "RetentionQuery",
  PATHS: "PathsQuery",
  STICKINESS: "StickinessQuery",
  LIFECYCLE: "LifecycleQuery",
};

const SERIES_KINDS = new Set(["TrendsQuery", "FunnelsQuery", "StickinessQuery", "LifecycleQuery"]);

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function entities(filters: Record<string, unknown>): JsonObject[] | undefined {
  const out: Array<{ order: number; node: JsonObject }> = [];
  for (const [key, kind] of [
    ["events", "EventsNode"],
    ["actions", "ActionsNode"],
  ] as const) {
    const list = filters[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return undefined;
    list.forEach((entity, index) => {
      if (!isDict(entity)) return;
      const node: JsonObject = { kind };
      if (kind === "EventsNode") {
        node.event = (entity.id as string | null) ?? null;
        node.name = typeof entity.name === "string" ? entity.name : ((entity.id as string | null) ?? null);
      } else {
        node.id = entity.id as number;
        if (typeof entity.name === "string") node.name = entity.name;
      }
      if (typeof entity.math === "string") node.math = entity.math;
      if (typeof entity.custom_name === "string") node.custom_name = entity.custom_name;
      out.push({ order: typeof entity.order === "number" ? entity.order : index, node });
    });
  }
  return out.sort((a, b) => a.order - b.order).map((e) => e.node);
}

export function queryFromFilters(filters: Record<string, unknown>): JsonObject | null {
  const insight = typeof filters.insight === "string" ? filters.insight : "TRENDS";
  const kind = KIND_BY_INSIGHT[insight];
  if (kind === undefined) return null;
  const source: JsonObject = { kind };
  if (SERIES_KINDS.has(kind)) {
    const series = entities(filters);
    if (series === undefined) return null;
    source.series = series;
  }
  const dateRange: JsonObject = {};
  if (typeof filters.date_from === "string") dateRange.date_from = filters.date_from;
  if (typeof filters.date_to === "string") dateRange.date_to = filters.date_to;
  if (Object.keys(dateRange).length > 0) source.dateRange = dateRange;
  if (typeof filters.interval === "string") source.interval = filters.interval;
  return { kind: "InsightVizNode", source, full: true };
}

/** The insight query kinds: each takes a dashboard's date range and property filters. */
const INSIGHT_KINDS = new Set(Object.values(KIND_BY_INSIGHT));
/** The kinds that take a dashboard's breakdown (the query models with a `breakdownFilter`). */
const BREAKDOWN_KINDS = new Set(["TrendsQuery", "FunnelsQuery", "RetentionQuery"]);
const DATA_WAREHOUSE_NODES = new Set([
  "DataWarehouseNode",
  "FunnelsDataWarehouseNode",
  "LifecycleDataWarehouseNode",
]);
/** Property filter types whose model defaults `operator` to `exact`. */
const EXACT_BY_DEFAULT = new Set(["event", "person", "element", "session", "group"]);

/**
 * A dashboard property filter as the service reads it (`DashboardFilter` validation): a filter without
 * a `type` is an event property filter, and one without an `operator` compares `exact`. Only these
 * defaults are filled; the service's full model dump (every optional field as null) is not reproduced.
 */
function dashboardProperty(p: unknown): unknown {
  if (!isDict(p)) return p;
  const out: Record<string, unknown> = { ...p };
  if (out.type === undefined) out.type = "event";
  if (out.operator === undefined && EXACT_BY_DEFAULT.has(String(out.type))) out.operator = "exact";
  return out;
}

function hasPropertyFilters(properties: unknown): boolean {
  if (Array.isArray(properties)) return properties.length > 0;
  if (!isDict(properties) || !Array.isArray(properties.values)) return false;
  return properties.values.some((v) => (isDict(v) && "values" in v ? hasPropertyFilters(v) : true));
}

/**
 * The base `QueryRunner.apply_dashboard_filters` on an insight query: the date range replaces the
 * query's; property filters are added (AND-ed with the query's own as a property group, or set when it
 * has none); a breakdown replaces the query's on the kinds that take one. Queries over data-warehouse
 * series take no dashboard properties, and a trends query over them only a single data-warehouse
 * breakdown.
 */
function applyToInsightQuery(query: Record<string, unknown>, filters: Record<string, unknown>): void {
  const from = filters.date_from;
  const to = filters.date_to;
  if (typeof from === "string" && from !== "") {
    query.dateRange = {
      ...(isDict(query.dateRange) ? query.dateRange : {}),
      date_from: from,
      date_to: typeof to === "string" ? to : null,
    };
  }
  const warehouse =
    Array.isArray(query.series) &&
    query.series.some((n) => isDict(n) && DATA_WAREHOUSE_NODES.has(String(n.kind)));
  const properties = Array.isArray(filters.properties) ? filters.properties.map(dashboardProperty) : [];
  if (properties.length > 0 && !warehouse) {
    if (hasPropertyFilters(query.properties)) {
      query.properties = {
        type: "AND",
        values: [
          Array.isArray(query.properties) ? { type: "AND", values: query.properties } : query.properties,
          { type: "AND", values: properties },
        ],
      };
    } else query.properties = properties;
  }
  const breakdown = filters.breakdown_filter;
  if (isDict(breakdown) && BREAKDOWN_KINDS.has(String(query.kind))) {
    const multiple = Array.isArray(breakdown.breakdowns) && breakdown.breakdowns.length > 0;
    const ignored =
      query.kind === "TrendsQuery" &&
      warehouse &&
      (multiple || breakdown.breakdown_type !== "data_warehouse");
    if (!ignored) query.breakdownFilter = structuredClone(breakdown);
  }
}

/**
 * A query as a dashboard shows it (`apply_dashboard_filters_to_dict`): the dashboard's (or the tile's,
 * or the request's override) filters applied to the insight query (see `applyToInsightQuery`); HogQL
 * and events queries take the date range only.
 */
export function applyDashboardFilters(query: unknown, filters: Record<string, unknown>): unknown {
  if (!isDict(query)) return query;
  const out = structuredClone(query) as Record<string, unknown>;
  const source = isDict(out.source) ? out.source : undefined;
  if (out.kind === "InsightVizNode" && source && INSIGHT_KINDS.has(String(source.kind))) {
    applyToInsightQuery(source, filters);
    return out;
  }
  if (INSIGHT_KINDS.has(String(out.kind))) {
    applyToInsightQuery(out, filters);
    return out;
  }
  const from = filters.date_from;
  const to = filters.date_to;
  if (typeof from !== "string" || from === "") return query;
  const range = { date_from: from, date_to: typeof to === "string" ? to : null };
  if (out.kind === "InsightVizNode" && source)
    source.dateRange = { ...(isDict(source.dateRange) ? source.dateRange : {}), ...range };
  else if (
    (out.kind === "DataTableNode" || out.kind === "DataVisualizationNode") &&
    source?.kind === "HogQLQuery"
  ) {
    const hogqlFilters = isDict(source.filters) ? source.filters : {};
    source.filters = {
      ...hogqlFilters,
      dateRange: { ...(isDict(hogqlFilters.dateRange) ? hogqlFilters.dateRange : {}), ...range },
    };
  } else if (out.kind === "DataTableNode" && source?.kind === "EventsQuery") {
    source.after = range.date_from;
    if (range.date_to !== null) source.before = range.date_to;
  } else if (typeof out.kind === "string" && out.kind.endsWith("Query") && "series" in out) {
    out.dateRange = { ...(isDict(out.dateRange) ? out.dateRange : {}), ...range };
  }
  return out;
}
