/**
 * Ported from posthog/schema_migrations/0005_trends_result_customizations_homogeneous.py: TrendsQuery
 * and StickinessQuery v4 → v5. `resultCustomizations` keeps only the entries of the active mode
 * (`resultCustomizationBy`, default "value"; an entry without `assignmentBy` counts as by value).
 */
import { isDict, type Json, type JsonObject, pyEqual, truthy } from "../python.js";
import { FILTER_KEY_BY_KIND, type QueryMigration } from "./migration.js";

export const trendsResultCustomizationsHomogeneous: QueryMigration = {
  source: "posthog/schema_migrations/0005_trends_result_customizations_homogeneous.py",
  targets: { TrendsQuery: 4, StickinessQuery: 4 },
  transform(query) {
    const filterKey = FILTER_KEY_BY_KIND[String(query.kind)];
    if (filterKey === undefined) return query;
    const filter = query[filterKey];
    if (!isDict(filter)) return query;
    const customizations = filter.resultCustomizations;
    if (!isDict(customizations) || Object.keys(customizations).length === 0) return query;
    const target = pyOr(filter.resultCustomizationBy, "value");
    const kept: JsonObject = Object.fromEntries(
      Object.entries(customizations).filter(([, value]) => assignmentBy(value) === target),
    );
    if (pyEqual(kept, customizations)) return query;
    return { ...query, [filterKey]: { ...filter, resultCustomizations: kept } };
  },
};

function assignmentBy(value: Json): Json {
  return isDict(value) ? pyOr(value.assignmentBy, "value") : "value";
}

/** Python's `a or b`. */
function pyOr(value: Json | undefined, fallback: Json): Json {
  return value !== undefined && truthy(value) ? value : fallback;
}
