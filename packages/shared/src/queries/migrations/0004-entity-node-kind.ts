/**
 * Ported from posthog/schema_migrations/0004_entity_node_kind.py: TrendsQuery and StickinessQuery
 * v3 → v4, LifecycleQuery, CalendarHeatmapQuery and FunnelsQuery v1 → v2. Series items (and funnel
 * exclusions) without a `kind` get the one the old undiscriminated union coerced them to: a
 * `table_name` item the kind's data warehouse node, a `nodes` item a GroupNode (Trends and Funnels
 * only), an `id` without `event` an ActionsNode, anything else an EventsNode. A key the service adds
 * inside a list: a declared series item without `kind` would differ from every read without this step.
 */
import { isDict, type Json, type JsonObject } from "../python.js";
import type { QueryMigration } from "./migration.js";

const SERIES_DATA_WAREHOUSE_KIND: Readonly<Record<string, string>> = {
  TrendsQuery: "DataWarehouseNode",
  StickinessQuery: "DataWarehouseNode",
  LifecycleQuery: "LifecycleDataWarehouseNode",
  CalendarHeatmapQuery: "DataWarehouseNode",
  FunnelsQuery: "FunnelsDataWarehouseNode",
};

const SERIES_WITH_GROUP_NODE = new Set(["TrendsQuery", "FunnelsQuery"]);

export const entityNodeKind: QueryMigration = {
  source: "posthog/schema_migrations/0004_entity_node_kind.py",
  targets: {
    TrendsQuery: 3,
    StickinessQuery: 3,
    LifecycleQuery: 1,
    CalendarHeatmapQuery: 1,
    FunnelsQuery: 1,
  },
  transform(query) {
    const kind = String(query.kind);
    const dataWarehouseKind = SERIES_DATA_WAREHOUSE_KIND[kind];
    if (dataWarehouseKind === undefined) return query;
    const allowGroup = SERIES_WITH_GROUP_NODE.has(kind);
    const series = query.series;
    if (Array.isArray(series)) {
      query.series = series.map((item) => stampKind(item, dataWarehouseKind, allowGroup));
    }
    const funnelsFilter = query.funnelsFilter;
    if (kind === "FunnelsQuery" && isDict(funnelsFilter)) {
      const exclusions = funnelsFilter.exclusions;
      if (Array.isArray(exclusions)) {
        query.funnelsFilter = {
          ...funnelsFilter,
          exclusions: exclusions.map((item) => stampKind(item, undefined, false)),
        };
      }
    }
    return query;
  },
};

function stampKind(item: Json, dataWarehouseKind: string | undefined, allowGroup: boolean): Json {
  if (!isDict(item) || "kind" in item) return item;
  let kind: string;
  if (dataWarehouseKind !== undefined && "table_name" in item) kind = dataWarehouseKind;
  else if (allowGroup && "nodes" in item) kind = "GroupNode";
  else if ("id" in item && !("event" in item)) kind = "ActionsNode";
  else kind = "EventsNode";
  const stamped: JsonObject = { ...item, kind };
  return stamped;
}
