/**
 * Ported from PostHog's posthog/schema_migrations/test/test_discovery.py. The Python test mocks the
 * files a directory listing finds; here the same two migrations are handed to the registry builder
 * directly (the port lists its migration files in QUERY_MIGRATIONS instead of reading a directory).
 */
import { expect, it } from "vitest";
import type { QueryMigration } from "../../../src/queries/migrations/migration.js";
import { buildRegistry } from "../../../src/queries/upgrade.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_discovery.py");

it(name("test_discover_migrations"), () => {
  const module1: QueryMigration = {
    source: "0001_test.py",
    targets: { TrendsQuery: 1 },
    transform: (q) => q,
  };
  const module2: QueryMigration = {
    source: "0002_another.py",
    targets: { TrendsQuery: 2, FunnelsQuery: 1 },
    transform: (q) => q,
  };

  const registry = buildRegistry([module1, module2]);

  // Verify versions were updated correctly
  expect(registry.latest.TrendsQuery).toBe(3); // Max version + 1
  expect(registry.latest.FunnelsQuery).toBe(2); // Version + 1

  // Verify migrations were stored correctly
  expect(registry.byKind.has("TrendsQuery")).toBe(true);
  expect(registry.byKind.has("FunnelsQuery")).toBe(true);
  expect(registry.byKind.get("TrendsQuery")?.get(1)).toBe(module1);
  expect(registry.byKind.get("TrendsQuery")?.get(2)).toBe(module2);
  expect(registry.byKind.get("FunnelsQuery")?.get(1)).toBe(module2);
});
