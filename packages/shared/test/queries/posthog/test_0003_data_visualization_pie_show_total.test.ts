/** Ported from PostHog's posthog/schema_migrations/test/test_0003_data_visualization_pie_show_total.py. */
import { expect, it } from "vitest";
import { dataVisualizationPieShowTotal as migration } from "../../../src/queries/migrations/0003-data-visualization-pie-show-total.js";
import type { JsonObject } from "../../../src/queries/python.js";
import { upgradeQuery } from "../../../src/queries/upgrade.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_0003_data_visualization_pie_show_total.py");
const transform = (query: JsonObject) => migration.transform(structuredClone(query));

it(name("test_legacy_pie_chart_query_upgrades_and_validates"), () => {
  // A saved pie chart that still carries the removed `showPieTotal` key. The Python test also runs
  // QuerySchemaRoot.model_validate on the result (ChartSettings forbids unknown keys); the port has no
  // generated schema models, so it checks the upgraded shape the validation depends on.
  const legacy = {
    kind: "DataVisualizationNode",
    source: { kind: "HogQLQuery", query: "select 1" },
    chartSettings: { showPieTotal: false },
  };

  const upgraded = upgradeQuery(legacy);

  expect(upgraded.chartSettings).toEqual({ pie: { showTotal: false } });
  expect(legacy.chartSettings).toEqual({ showPieTotal: false });
});

it(name("test_data_visualization_pie_show_total_migration"), () => {
  // Non-DataVisualizationNode queries are untouched
  const otherQuery = { kind: "NotDataVisualizationNode", chartSettings: { showPieTotal: true } };
  expect(transform(otherQuery)).toEqual(otherQuery);

  // Missing or pie-free chartSettings is untouched
  expect(transform({ kind: "DataVisualizationNode" })).toEqual({ kind: "DataVisualizationNode" });
  const noPie = { kind: "DataVisualizationNode", chartSettings: { showLegend: true } };
  expect(transform(noPie)).toEqual(noPie);

  // showPieTotal=False moves into pie.showTotal, preserving the explicit opt-out
  expect(transform({ kind: "DataVisualizationNode", chartSettings: { showPieTotal: false } })).toEqual({
    kind: "DataVisualizationNode",
    chartSettings: { pie: { showTotal: false } },
  });

  // showPieTotal=True moves into pie.showTotal alongside any existing pie settings
  expect(
    transform({
      kind: "DataVisualizationNode",
      chartSettings: { showPieTotal: true, pie: { sliceContent: "values" } },
    }),
  ).toEqual({
    kind: "DataVisualizationNode",
    chartSettings: { pie: { sliceContent: "values", showTotal: true } },
  });

  // An already-migrated pie.showTotal wins; the legacy field is just dropped
  expect(
    transform({
      kind: "DataVisualizationNode",
      chartSettings: { showPieTotal: true, pie: { showTotal: false } },
    }),
  ).toEqual({ kind: "DataVisualizationNode", chartSettings: { pie: { showTotal: false } } });
});
