/** Ported from PostHog's posthog/schema_migrations/test/test_0004_entity_node_kind.py. */
import { describe, expect, it } from "vitest";
import { entityNodeKind as migration } from "../../../src/queries/migrations/0004-entity-node-kind.js";
import type { Json, JsonObject } from "../../../src/queries/python.js";
import { upgradeQuery } from "../../../src/queries/upgrade.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_0004_entity_node_kind.py");
const transform = (query: JsonObject) => migration.transform(structuredClone(query));

describe(name("test_kindless_series_item_gets_stamped"), () => {
  const GROUP = { nodes: [{ kind: "EventsNode" }], operator: "OR" };
  const WAREHOUSE = { table_name: "orders", id: "orders" };
  const cases: Array<[string, string, JsonObject, string]> = [
    ["event_shaped", "TrendsQuery", { event: "$pageview" }, "EventsNode"],
    ["empty_dict", "TrendsQuery", {}, "EventsNode"],
    ["math_only", "TrendsQuery", { math: "dau", event: "$pageview" }, "EventsNode"],
    ["id_only", "TrendsQuery", { id: 5 }, "ActionsNode"],
    ["id_and_event", "TrendsQuery", { id: "$pageview", event: "$pageview" }, "EventsNode"],
    ["data_warehouse_shaped", "TrendsQuery", WAREHOUSE, "DataWarehouseNode"],
    ["group_shaped", "TrendsQuery", GROUP, "GroupNode"],
    ["funnels_event_shaped", "FunnelsQuery", { event: "$pageview" }, "EventsNode"],
    ["funnels_data_warehouse_shaped", "FunnelsQuery", WAREHOUSE, "FunnelsDataWarehouseNode"],
    ["funnels_group_shaped", "FunnelsQuery", GROUP, "GroupNode"],
    ["lifecycle_event_shaped", "LifecycleQuery", { event: "$pageview" }, "EventsNode"],
    ["lifecycle_data_warehouse_shaped", "LifecycleQuery", WAREHOUSE, "LifecycleDataWarehouseNode"],
    ["stickiness_event_shaped", "StickinessQuery", { event: "$pageview" }, "EventsNode"],
    ["stickiness_data_warehouse_shaped", "StickinessQuery", WAREHOUSE, "DataWarehouseNode"],
    // StickinessQuery.series has no GroupNode member: group-shaped items stay invalid (EventsNode).
    ["stickiness_group_shaped", "StickinessQuery", GROUP, "EventsNode"],
    ["calendar_heatmap_event_shaped", "CalendarHeatmapQuery", { event: "$pageview" }, "EventsNode"],
    ["calendar_heatmap_data_warehouse_shaped", "CalendarHeatmapQuery", WAREHOUSE, "DataWarehouseNode"],
  ];
  it.each(cases)("%s", (_case, queryKind, seriesItem, expectedKind) => {
    const result = transform({ kind: queryKind, series: [seriesItem] });
    expect((result.series as Json[])[0]).toEqual({ ...seriesItem, kind: expectedKind });
  });
});

describe(name("test_non_stampable_series_items_unchanged"), () => {
  const cases: Array<[string, Json[]]> = [
    ["tagged_item", [{ kind: "ActionsNode", id: 5 }]],
    ["string_placeholder", ["{SIGNED_UP}"]],
    ["null_item", [null]],
  ];
  it.each(cases)("%s", (_case, series) => {
    expect(transform({ kind: "TrendsQuery", series }).series).toEqual(series);
  });
});

it(name("test_missing_or_invalid_series_unchanged"), () => {
  expect(transform({ kind: "TrendsQuery" })).toEqual({ kind: "TrendsQuery" });
  expect(transform({ kind: "TrendsQuery", series: null })).toEqual({ kind: "TrendsQuery", series: null });
});

it(name("test_funnel_exclusions_get_stamped"), () => {
  const query: JsonObject = {
    kind: "FunnelsQuery",
    series: [
      { kind: "EventsNode", event: "a" },
      { kind: "EventsNode", event: "b" },
    ],
    funnelsFilter: {
      exclusions: [
        { event: "$pageleave", funnelFromStep: 0, funnelToStep: 1 },
        { id: 5, funnelFromStep: 0, funnelToStep: 1 },
        // exclusions have no GroupNode member, so group-shaped items fall through
        { nodes: [{ kind: "EventsNode" }], operator: "OR" },
      ],
      funnelVizType: "steps",
    },
  };
  const filter = transform(query).funnelsFilter as JsonObject;
  expect((filter.exclusions as JsonObject[]).map((e) => e.kind)).toEqual([
    "EventsNode",
    "ActionsNode",
    "EventsNode",
  ]);
  expect(filter.funnelVizType).toBe("steps");
});

// The three tests below validate the upgraded query with PostHog's generated pydantic models; the
// port checks the fields those models read (each series item's and exclusion's `kind`, the version).
it(name("test_upgraded_stored_funnels_query_validates"), () => {
  const stored: JsonObject = {
    kind: "FunnelsQuery",
    series: [{ event: "signed_up" }, { event: "activated" }],
    funnelsFilter: { exclusions: [{ event: "$pageleave", funnelFromStep: 0, funnelToStep: 1 }] },
  };
  const upgraded = upgradeQuery(stored);
  expect((upgraded.series as JsonObject[]).map((s) => s.kind)).toEqual(["EventsNode", "EventsNode"]);
  const exclusions = (upgraded.funnelsFilter as JsonObject).exclusions as JsonObject[];
  expect(exclusions).not.toBeNull();
  expect(exclusions[0]?.kind).toBe("EventsNode");
  expect(upgraded.version).toBe(2);
});

it(name("test_upgraded_stored_trends_query_validates"), () => {
  const stored: JsonObject = {
    kind: "InsightVizNode",
    source: {
      kind: "TrendsQuery",
      series: [
        { math: "dau", event: "$pageview" },
        { nodes: [{ kind: "EventsNode", event: "$pageview" }], operator: "OR" },
      ],
    },
  };
  const upgraded = upgradeQuery(stored);
  const series = (upgraded.source as JsonObject).series as JsonObject[];
  expect(series.map((s) => s.kind)).toEqual(["EventsNode", "GroupNode"]);
});

it(name("test_upgraded_stored_lifecycle_warehouse_query_validates"), () => {
  const stored: JsonObject = {
    kind: "LifecycleQuery",
    series: [
      {
        table_name: "orders",
        id: "orders",
        timestamp_field: "created_at",
        created_at_field: "created_at",
        aggregation_target_field: "customer_id",
      },
    ],
  };
  const upgraded = upgradeQuery(stored);
  expect((upgraded.series as JsonObject[])[0]?.kind).toBe("LifecycleDataWarehouseNode");
});
