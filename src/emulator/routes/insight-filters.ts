/**
 * The query the service shows for an insight that has only legacy `filters` (the model's
 * `query_from_filters`: `filter_to_query` wrapped in an InsightVizNode with `full: true`). Only the
 * common cases are converted here: the insight type, its event and action series, the date range and
 * the interval. Anything else answers null, which is what the service shows when its conversion fails.
 */
import type { JsonObject } from "../../queries/python.js";

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

/**
 * A query as a dashboard shows it (`apply_dashboard_filters_to_dict`): the dashboard's (or the tile's,
 * or the request's override) date range replaces the query's. Only the date range is applied here:
 * property and breakdown filters from a dashboard are not.
 */
export function applyDashboardFilters(query: unknown, filters: Record<string, unknown>): unknown {
  if (!isDict(query)) return query;
  const from = filters.date_from;
  const to = filters.date_to;
  if (typeof from !== "string" || from === "") return query;
  const range = { date_from: from, date_to: typeof to === "string" ? to : null };
  const out = structuredClone(query) as Record<string, unknown>;
  const source = isDict(out.source) ? out.source : undefined;
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
