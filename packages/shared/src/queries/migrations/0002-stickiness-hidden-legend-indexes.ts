/**
 * Ported from posthog/schema_migrations/0002_stickiness_hidden_legend_indexes.py: TrendsQuery and
 * StickinessQuery v1 → v2. `hiddenLegendIndexes` (a list of series positions) becomes `hidden: true`
 * entries of `resultCustomizations`, by value (`{"series":N}` keys) when the existing customizations
 * are by value and there is neither breakdown nor comparison, else by position (`"N"` keys); with a
 * breakdown or comparison under value customizations the indexes are simply dropped.
 */
import { isDict, type JsonObject, pyStr, truthy } from "../python.js";
import { FILTER_KEY_BY_KIND, hasBreakdown, hasCompare, type QueryMigration } from "./migration.js";

export const stickinessHiddenLegendIndexes: QueryMigration = {
  source: "posthog/schema_migrations/0002_stickiness_hidden_legend_indexes.py",
  targets: { TrendsQuery: 1, StickinessQuery: 1 },
  transform(query) {
    const filterKey = FILTER_KEY_BY_KIND[String(query.kind)];
    if (filterKey === undefined) return query;
    const filter = query[filterKey];
    if (!isDict(filter)) return query;
    const hidden = filter.hiddenLegendIndexes;
    const rawCustomizations = truthy(filter.resultCustomizations) ? filter.resultCustomizations : {};
    const by = filter.resultCustomizationBy;
    if (!truthy(hidden)) return query;
    // Python iterates these; anything but a list of indexes and a dict of customizations would raise.
    if (!Array.isArray(hidden) || !isDict(rawCustomizations)) return query;
    const customizations: JsonObject = rawCustomizations;
    const withoutHidden = (changes: JsonObject): JsonObject => {
      const next: JsonObject = { ...filter, ...changes };
      delete next.hiddenLegendIndexes;
      return { ...query, [filterKey]: next };
    };

    const hasValueAssignment = Object.values(customizations).some(
      (v) => isDict(v) && v.assignmentBy === "value",
    );
    if ((by === "value" || !truthy(by)) && hasValueAssignment) {
      if (!hasBreakdown(query) && !hasCompare(query)) {
        const next: JsonObject = { ...customizations };
        for (const index of hidden) {
          const key = `{"series":${pyStr(index)}}`;
          const entry: JsonObject = isDict(next[key])
            ? { ...(next[key] as JsonObject) }
            : { assignmentBy: "value" };
          entry.hidden = true;
          next[key] = entry;
        }
        return withoutHidden({ resultCustomizationBy: "value", resultCustomizations: next });
      }
      return withoutHidden({});
    }

    const next: JsonObject = { ...customizations };
    for (const index of hidden) {
      const key = pyStr(index);
      const entry: JsonObject = isDict(next[key])
        ? { ...(next[key] as JsonObject) }
        : { assignmentBy: "position" };
      entry.hidden = true;
      next[key] = entry;
    }
    return withoutHidden({ resultCustomizationBy: "position", resultCustomizations: next });
  },
};
