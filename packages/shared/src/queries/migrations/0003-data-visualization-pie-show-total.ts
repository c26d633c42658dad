/**
 * Ported from posthog/schema_migrations/0003_data_visualization_pie_show_total.py: DataVisualizationNode
 * v1 → v2. The boolean `chartSettings.showPieTotal` moves to `chartSettings.pie.showTotal`; a
 * `pie.showTotal` already there wins. A key the service moves: a declared `showPieTotal` would differ
 * from every read without this step.
 */
import { isDict, type JsonObject } from "../python.js";
import type { QueryMigration } from "./migration.js";

export const dataVisualizationPieShowTotal: QueryMigration = {
  source: "posthog/schema_migrations/0003_data_visualization_pie_show_total.py",
  targets: { DataVisualizationNode: 1 },
  transform(query) {
    if (query.kind !== "DataVisualizationNode") return query;
    const settings = query.chartSettings;
    if (!isDict(settings) || !("showPieTotal" in settings)) return query;
    const showTotal = settings.showPieTotal ?? null;
    delete settings.showPieTotal;
    // Python's setdefault keeps a `pie` that is present; one that is not an object would raise there.
    const pie: JsonObject = isDict(settings.pie) ? settings.pie : {};
    settings.pie = pie;
    if (!("showTotal" in pie)) pie.showTotal = showTotal;
    return query;
  },
};
