/**
 * Ported from PostHog's products/product_analytics/backend/api/test/test_insight_query.py.
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import { cite, P, usePostHogHarness } from "./harness.js";

const name = cite("products/product_analytics/backend/api/test/test_insight_query.py");
const { h, api } = usePostHogHarness();

const EVENTS_SELECT = [
  "*",
  "event",
  "person",
  "coalesce(properties.$current_url, properties.$screen_name)",
  "properties.$lib",
  "timestamp",
];
const BROWSER_IS_CHROME = [{ type: "event", key: "$browser", operator: "exact", value: "Chrome" }];
const PERSONS_TABLE = {
  kind: "DataTableNode",
  columns: ["person", "id", "created_at", "person.$delete"],
  source: { kind: "EventsQuery", select: ["*"] },
};

it(name("test_can_save_valid_events_query_to_an_insight"), async () => {
  await api.createInsight(
    {
      name: "Insight with events query",
      query: { kind: "EventsQuery", select: EVENTS_SELECT, properties: BROWSER_IS_CHROME, limit: 100 },
    },
    201,
  );
});

it(name("test_can_save_valid_events_table_query_to_an_insight"), async () => {
  await api.createInsight(
    {
      name: "Insight with events table query",
      query: {
        kind: "DataTableNode",
        source: { kind: "EventsQuery", select: EVENTS_SELECT, properties: BROWSER_IS_CHROME, limit: 100 },
      },
    },
    201,
  );
});

it(name("test_can_save_valid_persons_table_query_to_an_insight"), async () => {
  await api.createInsight({ name: "Insight with persons table query", query: PERSONS_TABLE }, 201);
});

it(name("test_no_default_filters_on_insight_query"), async () => {
  const [, insight] = await api.createInsight(
    { name: "Insight with persons table query", query: PERSONS_TABLE },
    201,
  );
  expect(insight.filters).toEqual({});
});

it(name("test_can_save_insights_query_to_an_insight"), async () => {
  await api.createInsight({
    name: "Insight with insights query",
    query: {
      kind: "TrendsQuery",
      properties: {
        type: "AND",
        values: [
          {
            type: "OR",
            values: [
              {
                type: "event",
                key: "$current_url",
                operator: "exact",
                value: ["https://hedgebox.net/files/"],
              },
              { type: "event", key: "$geoip_country_code", operator: "exact", value: ["US", "AU"] },
            ],
          },
        ],
      },
      filterTestAccounts: false,
      interval: "day",
      dateRange: { date_from: "-7d" },
      series: [
        { kind: "EventsNode", name: "$pageview", custom_name: "Views", event: "$pageview", limit: 100 },
      ],
      trendsFilter: { display: "ActionsAreaGraph" },
      breakdownFilter: { breakdown: "$geoip_country_code", breakdown_type: "event" },
    },
  });
});

it(name("test_cannot_save_a_completely_invalid_query_to_an_insight"), async () => {
  await api.createInsight({ name: "Insight with events query", query: "not a valid query" }, 400);
});

it(name("test_cannot_save_invalid_persons_table_query_to_an_insight"), async () => {
  await api.createInsight(
    {
      name: "Insight with persons table query",
      query: { kind: "DataTableNode", source: { kind: "EventsQuery", select: ["*"] } },
    },
    201,
  );
});

it(name("test_can_list_insights_including_those_with_only_queries"), async () => {
  await api.createInsight({ name: "Insight with filters" });
  await api.createInsight({ name: "Insight with persons table query", query: PERSONS_TABLE });
  const created = (await h.state()).insights.filter((i: { team_id: number }) => i.team_id === 12345);
  expect(created.length).toBe(2);
  expect((await api.listInsights()).count).toBe(2);
});

describe(name("test_mcp_create_normalizes_query"), () => {
  const series = [{ kind: "EventsNode", event: "$pageview", name: "$pageview" }];
  const cases: Array<[string, unknown, string, string | null]> = [
    [
      "already_wrapped_insight_viz_node",
      {
        kind: "InsightVizNode",
        source: { kind: "TrendsQuery", series, dateRange: { date_from: "-7d" }, interval: "day" },
      },
      "InsightVizNode",
      null,
    ],
    [
      "raw_trends_query",
      { kind: "TrendsQuery", series, dateRange: { date_from: "-7d" }, interval: "day" },
      "InsightVizNode",
      "TrendsQuery",
    ],
    [
      "raw_hogql_query",
      { kind: "HogQLQuery", query: "select event from events limit 1" },
      "DataVisualizationNode",
      "HogQLQuery",
    ],
    [
      "already_wrapped_data_visualization_node",
      {
        kind: "DataVisualizationNode",
        source: { kind: "HogQLQuery", query: "select event from events limit 1" },
      },
      "DataVisualizationNode",
      "HogQLQuery",
    ],
  ];
  it.each(cases)(name("test_mcp_create_normalizes_query", "%s"), async (_case, query, kind, sourceKind) => {
    const response = await h.api(
      "POST",
      `${P}/insights/`,
      { name: "Test insight", favorited: false, saved: true, query },
      { headers: { "X-PostHog-Client": "mcp" } },
    );
    expect(response.status).toBe(201);
    expect(response.body.query.kind).toBe(kind);
    if (sourceKind !== null) expect(response.body.query.source.kind).toBe(sourceKind);
  });
});

it(name("test_mcp_create_rejects_disallowed_query_kind"), async () => {
  const response = await h.api(
    "POST",
    `${P}/insights/`,
    {
      name: "Unsupported insight",
      favorited: false,
      saved: true,
      query: {
        kind: "ErrorTrackingQuery",
        dateRange: { date_from: "-7d" },
        orderBy: "last_seen",
        volumeResolution: 60,
      },
    },
    { headers: { "X-PostHog-Client": "mcp" } },
  );
  expect(response.status).toBe(400);
  const error = JSON.stringify(response.body);
  expect(error).toContain("This query can't be saved");
  expect(error).not.toContain("Traceback");
});
