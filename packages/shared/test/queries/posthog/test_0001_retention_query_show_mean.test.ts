/** Ported from PostHog's posthog/schema_migrations/test/test_0001_retention_query_show_mean.py. */
import { expect, it } from "vitest";
import { retentionQueryShowMean as migration } from "../../../src/queries/migrations/0001-retention-query-show-mean.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_0001_retention_query_show_mean.py");

it(name("test_retention_query_show_mean_migration"), () => {
  // Test non-retention query is unchanged
  const otherQuery = { kind: "NotRetentionQuery" };
  expect(migration.transform(structuredClone(otherQuery))).toEqual(otherQuery);

  // Test query with no retentionFilter is unchanged
  const noFilterQuery = { kind: "RetentionQuery", retentionFilter: null };
  expect(migration.transform(structuredClone(noFilterQuery))).toEqual(noFilterQuery);

  // Test showMean=True converts to simple
  expect(migration.transform({ kind: "RetentionQuery", retentionFilter: { showMean: true } })).toEqual({
    kind: "RetentionQuery",
    retentionFilter: { meanRetentionCalculation: "simple" },
  });

  // Test showMean=False converts to none
  expect(migration.transform({ kind: "RetentionQuery", retentionFilter: { showMean: false } })).toEqual({
    kind: "RetentionQuery",
    retentionFilter: { meanRetentionCalculation: "none" },
  });

  // Test existing meanRetentionCalculation is preserved and showMean is removed
  expect(
    migration.transform({
      kind: "RetentionQuery",
      retentionFilter: { showMean: true, meanRetentionCalculation: "weighted" },
    }),
  ).toEqual({ kind: "RetentionQuery", retentionFilter: { meanRetentionCalculation: "weighted" } });
});
