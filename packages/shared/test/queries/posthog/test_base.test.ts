/** Ported from PostHog's posthog/schema_migrations/test/test_base.py (the SchemaMigration base class). */
import { expect, it } from "vitest";
import { applyMigration, type QueryMigration, shouldRun } from "../../../src/queries/migrations/migration.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_base.py");

const testMigration: QueryMigration = {
  source: "test_base.py TestMigration",
  targets: { EventsQuery: 1 },
  transform(query) {
    query.some_key = "some_value";
    return query;
  },
};

it(name("test_should_run_returns_true_for_matching_version"), () => {
  expect(shouldRun(testMigration, { kind: "EventsQuery", version: 1 })).toBe(true);
});

it(name("test_should_run_returns_false_for_non_matching_version"), () => {
  expect(shouldRun(testMigration, { kind: "EventsQuery", version: 2 })).toBe(false);
});

it(name("test_should_run_returns_false_for_non_matching_kind"), () => {
  expect(shouldRun(testMigration, { kind: "HogQLQuery", version: 1 })).toBe(false);
});

it(name("test_should_run_handles_missing_version"), () => {
  expect(shouldRun(testMigration, { kind: "EventsQuery" })).toBe(true);
});

it(name("test_transform_updates_query"), () => {
  const result = applyMigration(testMigration, { kind: "EventsQuery", version: 1 });
  expect(result.some_key).toBe("some_value");
});

it(name("test_transform_updates_version"), () => {
  const result = applyMigration(testMigration, { kind: "EventsQuery", version: 1 });
  expect(result.version).toBe(2);
});

it(name("test_should_accept_none_version"), () => {
  const result = applyMigration(testMigration, { kind: "EventsQuery", version: null });
  expect(result.version).toBe(2);
});
