/** Ported from PostHog's posthog/schema_migrations/test/test_0005_trends_result_customizations_homogeneous.py. */
import { describe, expect, it } from "vitest";
import { trendsResultCustomizationsHomogeneous as migration } from "../../../src/queries/migrations/0005-trends-result-customizations-homogeneous.js";
import { applyMigration } from "../../../src/queries/migrations/migration.js";
import type { JsonObject } from "../../../src/queries/python.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_0005_trends_result_customizations_homogeneous.py");

const VALUE_ENTRY = { assignmentBy: "value", color: "preset-1" };
const POSITION_ENTRY = { assignmentBy: "position", color: "preset-2" };
const VALUE_KEY = '{"series":0}';
const POSITION_KEY = "0";

function query(resultCustomizations: JsonObject, by: string | null = null, kind = "TrendsQuery"): JsonObject {
  const filterKey = kind === "TrendsQuery" ? "trendsFilter" : "stickinessFilter";
  const filter: JsonObject = { resultCustomizations };
  if (by !== null) filter.resultCustomizationBy = by;
  return { kind, series: [{ kind: "EventsNode", event: "$pageview" }], [filterKey]: filter };
}

describe(name("test_drops_mismatched_entries"), () => {
  const cases: Array<[string, string | null, JsonObject, JsonObject]> = [
    [
      "position",
      "position",
      { [VALUE_KEY]: VALUE_ENTRY, [POSITION_KEY]: POSITION_ENTRY },
      { [POSITION_KEY]: POSITION_ENTRY },
    ],
    [
      "value",
      "value",
      { [VALUE_KEY]: VALUE_ENTRY, [POSITION_KEY]: POSITION_ENTRY },
      { [VALUE_KEY]: VALUE_ENTRY },
    ],
    [
      "None",
      null,
      { [VALUE_KEY]: VALUE_ENTRY, [POSITION_KEY]: POSITION_ENTRY },
      { [VALUE_KEY]: VALUE_ENTRY },
    ],
    [
      "no-assignment",
      "value",
      { [VALUE_KEY]: { color: "preset-1" } },
      { [VALUE_KEY]: { color: "preset-1" } },
    ],
  ];
  it.each(cases)("%s", (_case, by, resultCustomizations, expected) => {
    const result = migration.transform(query(resultCustomizations, by));
    expect((result.trendsFilter as JsonObject).resultCustomizations).toEqual(expected);
  });
});

it(name("test_leaves_homogeneous_dict_untouched"), () => {
  const q = query({ [POSITION_KEY]: POSITION_ENTRY }, "position");
  expect(migration.transform(q)).toBe(q);
});

it(name("test_bumps_version_and_cleans_stickiness"), () => {
  const q = query(
    { [VALUE_KEY]: VALUE_ENTRY, [POSITION_KEY]: POSITION_ENTRY },
    "position",
    "StickinessQuery",
  );
  q.version = 4;
  const result = applyMigration(migration, q);
  expect((result.stickinessFilter as JsonObject).resultCustomizations).toEqual({
    [POSITION_KEY]: POSITION_ENTRY,
  });
  expect(result.version).toBe(5);
});
