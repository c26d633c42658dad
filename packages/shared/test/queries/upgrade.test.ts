import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/queries/python.js";
import { LATEST_QUERY_VERSIONS, QueryUpgradeError, upgradeQuery } from "../../src/queries/upgrade.js";

describe("upgradeQuery", () => {
  it("knows the latest version of every migrated kind (PostHog's frontend/src/queries/latest-versions.json, plus DataVisualizationNode from 0003)", () => {
    expect(LATEST_QUERY_VERSIONS).toEqual({
      CalendarHeatmapQuery: 2,
      DataVisualizationNode: 2,
      FunnelsQuery: 2,
      LifecycleQuery: 2,
      RetentionQuery: 2,
      StickinessQuery: 5,
      TrendsQuery: 5,
    });
  });

  it("runs an unversioned TrendsQuery through every step, stamping the latest version", () => {
    const stored: JsonObject = {
      kind: "InsightVizNode",
      source: {
        kind: "TrendsQuery",
        series: [{ event: "$pageview", math: "total" }],
        trendsFilter: { hiddenLegendIndexes: [0] },
      },
    };
    const before = structuredClone(stored);
    expect(upgradeQuery(stored)).toEqual({
      kind: "InsightVizNode",
      source: {
        kind: "TrendsQuery",
        version: 5,
        series: [{ event: "$pageview", math: "total", kind: "EventsNode" }],
        trendsFilter: {
          resultCustomizationBy: "position",
          resultCustomizations: { "0": { assignmentBy: "position", hidden: true } },
        },
      },
    });
    expect(stored).toEqual(before);
  });

  it("leaves a query at the latest versions and kinds without migrations as they are", () => {
    const query = {
      kind: "DataTableNode",
      source: { kind: "EventsQuery", select: ["*"] },
      nested: { kind: "TrendsQuery", version: 5, series: [{ event: "x" }] },
    };
    expect(upgradeQuery(query)).toEqual(query);
  });

  it("is idempotent", () => {
    const once = upgradeQuery({ kind: "RetentionQuery", retentionFilter: { showMean: true } });
    expect(once).toEqual({
      kind: "RetentionQuery",
      version: 2,
      retentionFilter: { meanRetentionCalculation: "simple" },
    });
    expect(upgradeQuery(once)).toEqual(once);
  });

  it("fails like the service on a version no migration handles", () => {
    expect(() => upgradeQuery({ kind: "TrendsQuery", version: 2.5 })).toThrow(QueryUpgradeError);
    expect(() => upgradeQuery({ kind: "TrendsQuery", version: "3" })).toThrow(/not a number/);
  });
});
