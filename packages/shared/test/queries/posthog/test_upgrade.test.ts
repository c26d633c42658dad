/**
 * Ported from PostHog's posthog/schema_migrations/test/test_upgrade.py. The Python fixture swaps the
 * process-wide registry for two sample migrations; the port hands the same two to `upgradeQuery`.
 */
import { describe, expect, it } from "vitest";
import type { QueryMigration } from "../../../src/queries/migrations/migration.js";
import type { JsonObject } from "../../../src/queries/python.js";
import { buildRegistry, upgradeQuery } from "../../../src/queries/upgrade.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_upgrade.py");

const sampleMigration: QueryMigration = {
  source: "test_upgrade.py SampleMigration",
  targets: { TrendsQuery: 1 },
  transform(query) {
    const flag = query.flag;
    delete query.flag;
    query.mode = flag ? "on" : "off";
    return query;
  },
};

const eventsNodeMigration: QueryMigration = {
  source: "test_upgrade.py EventsNodeMigration",
  targets: { EventsNode: 1 },
  transform(query) {
    if ("event" in query) {
      query.name = query.event ?? null;
      delete query.event;
    }
    return query;
  },
};

const registry = buildRegistry([sampleMigration, eventsNodeMigration]);
const upgrade = (query: JsonObject) => upgradeQuery(query, registry);

it(name("test_simple_migration"), () => {
  expect(upgrade({ kind: "TrendsQuery", version: 1, flag: true })).toEqual({
    kind: "TrendsQuery",
    version: 2,
    mode: "on",
  });
});

it(name("test_nested_source_migration"), () => {
  expect(upgrade({ kind: "InsightVizNode", source: { kind: "TrendsQuery", flag: true } })).toEqual({
    kind: "InsightVizNode",
    source: { kind: "TrendsQuery", version: 2, mode: "on" },
  });
});

it(name("test_nested_array_migration"), () => {
  const query = {
    kind: "TrendsQuery",
    version: 2,
    series: [
      { kind: "EventsNode", version: 1, event: "pageview" },
      { kind: "EventsNode", version: 1, event: "signup" },
    ],
  };
  expect(upgrade(query)).toEqual({
    kind: "TrendsQuery",
    version: 2,
    series: [
      { kind: "EventsNode", version: 2, name: "pageview" },
      { kind: "EventsNode", version: 2, name: "signup" },
    ],
  });
});

it(name("test_already_latest"), () => {
  const query = { kind: "TrendsQuery", version: registry.latest.TrendsQuery ?? 0 };
  expect(upgrade(query)).toEqual(query);
});

describe(name("test_non_string_kind_is_left_alone"), () => {
  it.each([
    ["unhashable_kind0", []],
    ["unhashable_kind1", {}],
  ])("%s", (_case, unhashableKind) => {
    const query = {
      kind: "TrendsQuery",
      version: 2,
      series: [{ kind: "EventsNode", version: 1, event: "pageview" }],
      values: { placeholder: { kind: unhashableKind } },
    };
    expect(upgrade(query)).toEqual({
      kind: "TrendsQuery",
      version: 2,
      series: [{ kind: "EventsNode", version: 2, name: "pageview" }],
      values: { placeholder: { kind: unhashableKind } },
    });
  });
});
