import { describe, expect, it } from "vitest";
import { declareQuery, queryToSend } from "../../../src/kinds/insight/query.js";
import { itemContext } from "./context.js";

function declare(yaml: string) {
  const { ctx, item, messages } = itemContext(yaml, "/insights/0", 'insight "Signups"');
  const query = declareQuery(item.query as Record<string, unknown>, ctx);
  return { query, messages: messages() };
}

describe("declareQuery", () => {
  it("takes a query the service would store", () => {
    const { query, messages } = declare(`insights:
  - name: Signups
    query:
      kind: InsightVizNode
      source:
        kind: TrendsQuery
        series: [{kind: EventsNode, event: user signed up, math: total}]
        interval: week
`);
    expect(messages).toEqual([]);
    expect(query).toMatchObject({ kind: "InsightVizNode", source: { interval: "week" } });
  });

  it("checks the query after the service's upgrades: an older form it still rewrites is fine", () => {
    const { messages } = declare(`insights:
  - name: Signups
    query:
      kind: TrendsQuery
      series: [{event: "$pageview"}]
      trendsFilter: {hiddenLegendIndexes: [0]}
`);
    expect(messages).toEqual([]);
  });

  it("reports an unknown kind at its line, with the kinds the service takes there", () => {
    const { query, messages } = declare(`insights:
  - name: Signups
    query:
      kind: InsightVizNode
      source:
        kind: TrendQuery
        series: []
`);
    expect(query).toBeUndefined();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^posthog\/kpis\.yaml:6:15: error: query\.source\.kind of insight "Signups" is of kind "TrendQuery", which the service does not take there: expected one of TrendsQuery, .* \(did you mean "TrendsQuery"\?\)$/,
    );
  });

  it("reports a missing required key and a series item that is not a node", () => {
    const { messages } = declare(`insights:
  - name: Signups
    query:
      kind: InsightVizNode
      source:
        kind: FunnelsQuery
        series: [x]
  - name: Other
`);
    expect(messages).toEqual([
      'posthog/kpis.yaml:7:18: error: query.source.series[0] of insight "Signups" must be a mapping (a query node)',
    ]);
    const missing = declare(`insights:
  - name: Signups
    query: {kind: DataVisualizationNode, source: {kind: HogQLQuery}}
`);
    expect(missing.messages).toEqual([
      'posthog/kpis.yaml:3:50: error: query.source of insight "Signups" (a HogQLQuery) is missing the required key "query"',
    ]);
  });

  it("sends the upgraded form, versions stamped, so the service takes an older form it refuses now", () => {
    expect(queryToSend({ kind: "TrendsQuery", series: [{ event: "$pageview" }] })).toEqual({
      kind: "TrendsQuery",
      version: 5,
      series: [{ event: "$pageview", kind: "EventsNode" }],
    });
  });
});
