/**
 * The query node kinds an insight's `query` may have (PostHog's `QuerySchemaRoot`, the union
 * the insight API validates against; posthog/schema.py) and what each wrapper holds. The tool's offline
 * check and the emulator's validation read the same tables. Not the whole schema: the service's
 * validator is a generated model of several hundred node kinds and fields; these are the kinds a
 * saved insight uses.
 */

/** Insight queries an `InsightVizNode` wraps (product analytics). */
export const INSIGHT_QUERY_KINDS = [
  "TrendsQuery",
  "FunnelsQuery",
  "RetentionQuery",
  "PathsQuery",
  "StickinessQuery",
  "LifecycleQuery",
  "CalendarHeatmapQuery",
] as const;

/** Sources a `DataTableNode` shows. */
export const DATA_TABLE_SOURCE_KINDS = [
  "EventsQuery",
  "HogQLQuery",
  "ActorsQuery",
  "GroupsQuery",
  "PersonsNode",
  "SessionsQuery",
  "TracesQuery",
  "ErrorTrackingQuery",
  "WebOverviewQuery",
  "WebStatsTableQuery",
  "WebExternalClicksTableQuery",
  "WebGoalsQuery",
  "RevenueAnalyticsOverviewQuery",
  "RevenueExampleEventsQuery",
  "MarketingAnalyticsTableQuery",
] as const;

/** The wrappers a saved insight's query normally is, with the source kinds each accepts. */
export const WRAPPER_SOURCE_KINDS: Readonly<Record<string, readonly string[]>> = {
  InsightVizNode: INSIGHT_QUERY_KINDS,
  DataVisualizationNode: ["HogQLQuery"],
  DataTableNode: DATA_TABLE_SOURCE_KINDS,
};

/** Top-level kinds the service accepts for a saved insight besides the wrappers (raw nodes). */
export const RAW_QUERY_KINDS = [...INSIGHT_QUERY_KINDS, ...DATA_TABLE_SOURCE_KINDS, "HogQuery"] as const;

/** Every top-level kind accepted, for messages and suggestions. */
export const TOP_LEVEL_QUERY_KINDS: readonly string[] = [
  ...Object.keys(WRAPPER_SOURCE_KINDS),
  ...new Set<string>(RAW_QUERY_KINDS),
];

/** Series entity kinds (the members of an insight query's `series`). */
export const ENTITY_NODE_KINDS = [
  "EventsNode",
  "ActionsNode",
  "DataWarehouseNode",
  "GroupNode",
  "FunnelsDataWarehouseNode",
  "LifecycleDataWarehouseNode",
] as const;

/** What an insight query of each kind requires (fields pydantic reports as missing). */
export const REQUIRED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  InsightVizNode: ["source"],
  DataVisualizationNode: ["source"],
  DataTableNode: ["source"],
  TrendsQuery: ["series"],
  FunnelsQuery: ["series"],
  StickinessQuery: ["series"],
  LifecycleQuery: ["series"],
  CalendarHeatmapQuery: ["series"],
  RetentionQuery: ["retentionFilter"],
  PathsQuery: ["pathsFilter"],
  HogQLQuery: ["query"],
  HogQuery: [],
  EventsQuery: ["select"],
  ActionsNode: ["id"],
};
