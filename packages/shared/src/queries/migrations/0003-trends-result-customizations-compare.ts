/**
 * Ported from posthog/schema_migrations/0003_trends_result_customizations_compare.py: TrendsQuery and
 * StickinessQuery v2 → v3. Result customizations used to be keyed per compare period; now both periods
 * share the base series' entry. By value: `compare_label` leaves the key; a "current" entry wins when
 * comparison is on, the unlabelled one otherwise; "previous" entries are dropped. By position (with
 * comparison on and no breakdown): previous-period entries, offset by the base series count, move back
 * where that slot is free.
 */
import { isDict, type Json, type JsonObject, pyEqual, pyInt, truthy } from "../python.js";
import { FILTER_KEY_BY_KIND, hasBreakdown, hasCompare, type QueryMigration } from "./migration.js";

export const trendsResultCustomizationsCompare: QueryMigration = {
  source: "posthog/schema_migrations/0003_trends_result_customizations_compare.py",
  targets: { TrendsQuery: 2, StickinessQuery: 2 },
  transform(query) {
    const filterKey = FILTER_KEY_BY_KIND[String(query.kind)];
    if (filterKey === undefined) return query;
    const filter = query[filterKey];
    if (!isDict(filter)) return query;
    const customizations = filter.resultCustomizations;
    if (!isDict(customizations) || Object.keys(customizations).length === 0) return query;
    const next =
      filter.resultCustomizationBy === "position"
        ? byPosition(query, filter, customizations)
        : byValue(customizations, hasCompare(query));
    if (pyEqual(next, customizations)) return query;
    return { ...query, [filterKey]: { ...filter, resultCustomizations: next } };
  },
};

function byValue(customizations: JsonObject, compareOn: boolean): JsonObject {
  const merged = new Map<string, Json>();
  for (const [key, value] of Object.entries(customizations)) {
    const parsed = parseValueKey(key);
    if (parsed === undefined || !("compare_label" in parsed)) {
      // Already a base key; a "current" entry seen earlier wins while comparison is on.
      if (merged.has(key) && compareOn) continue;
      merged.set(key, value);
      continue;
    }
    const label = parsed.compare_label;
    delete parsed.compare_label;
    if (label !== "current") continue;
    // json.dumps(..., separators=(",", ":"), ensure_ascii=False): compact, characters as they are.
    const baseKey = JSON.stringify(parsed);
    if (merged.has(baseKey) && !compareOn) continue;
    merged.set(baseKey, value);
  }
  return Object.fromEntries(merged);
}

function byPosition(query: JsonObject, filter: JsonObject, customizations: JsonObject): JsonObject {
  if (!hasCompare(query) || hasBreakdown(query)) return customizations;
  const baseCount = baseSeriesCount(query, filter);
  if (baseCount === 0) return customizations;
  const remapped = new Map<string, Json>();
  const offset: Array<[number, Json]> = [];
  for (const [key, value] of Object.entries(customizations)) {
    const position = pyInt(key);
    if (position === undefined || position < baseCount) remapped.set(key, value);
    else offset.push([position, value]);
  }
  for (const [position, value] of offset) {
    const target = String(position - baseCount);
    if (!remapped.has(target)) remapped.set(target, value);
  }
  return Object.fromEntries(remapped);
}

function parseValueKey(key: string): JsonObject | undefined {
  try {
    const parsed: unknown = JSON.parse(key);
    return isDict(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function baseSeriesCount(query: JsonObject, filter: JsonObject): number {
  const formulaNodes = filter.formulaNodes;
  if (Array.isArray(formulaNodes) && formulaNodes.length > 0) return formulaNodes.length;
  const formulas = filter.formulas;
  if (Array.isArray(formulas) && formulas.length > 0) return formulas.length;
  if (truthy(filter.formula)) return 1;
  const series = query.series;
  return Array.isArray(series) ? series.length : 0;
}
