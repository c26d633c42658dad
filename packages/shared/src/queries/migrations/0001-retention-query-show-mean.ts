/**
 * Ported from posthog/schema_migrations/0001_retention_query_show_mean.py: RetentionQuery v1 → v2.
 * The boolean `retentionFilter.showMean` becomes `meanRetentionCalculation` ("simple" or "none"); an
 * existing `meanRetentionCalculation` wins and `showMean` is dropped. A key the service removes: a
 * declared `showMean` would differ from every read without this step.
 */
import { isDict, truthy } from "../python.js";
import type { QueryMigration } from "./migration.js";

export const retentionQueryShowMean: QueryMigration = {
  source: "posthog/schema_migrations/0001_retention_query_show_mean.py",
  targets: { RetentionQuery: 1 },
  transform(query) {
    if (query.kind !== "RetentionQuery") return query;
    // The Python reads query["retentionFilter"] directly; a missing filter is treated like None here
    // (PostHog's README asks every transform to tolerate missing fields).
    const filter = query.retentionFilter;
    if (!isDict(filter)) return query;
    if ("showMean" in filter) {
      if (!("meanRetentionCalculation" in filter)) {
        filter.meanRetentionCalculation = truthy(filter.showMean) ? "simple" : "none";
      }
      delete filter.showMean;
    }
    return query;
  },
};
