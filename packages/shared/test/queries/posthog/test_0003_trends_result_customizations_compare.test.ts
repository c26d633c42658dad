/** Ported from PostHog's posthog/schema_migrations/test/test_0003_trends_result_customizations_compare.py. */
import { describe, expect, it } from "vitest";
import { trendsResultCustomizationsCompare as migration } from "../../../src/queries/migrations/0003-trends-result-customizations-compare.js";
import type { JsonObject } from "../../../src/queries/python.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_0003_trends_result_customizations_compare.py");

const COMPARE_ON = { compareFilter: { compare: true } };
const BASE_KEY = '{"series":0}';
const CURRENT_KEY = '{"series":0,"compare_label":"current"}';
const PREVIOUS_KEY = '{"series":0,"compare_label":"previous"}';
const BASE_ENTRY = { assignmentBy: "value", color: "preset-1" };
const CURRENT_ENTRY = { assignmentBy: "value", color: "preset-2" };
const PREVIOUS_ENTRY = { assignmentBy: "value", color: "preset-3", hidden: true };

function trendsQuery(
  resultCustomizations: unknown,
  compare = false,
  filterExtra: JsonObject = {},
  queryExtra: JsonObject = {},
): JsonObject {
  return {
    kind: "TrendsQuery",
    series: [{ kind: "EventsNode", event: "$pageview" }],
    trendsFilter: { resultCustomizations: resultCustomizations as JsonObject, ...filterExtra },
    ...(compare ? COMPARE_ON : {}),
    ...queryExtra,
  };
}

const customizationsOf = (query: JsonObject) =>
  (migration.transform(structuredClone(query)).trendsFilter as JsonObject).resultCustomizations;

describe(name("test_value_mode_merges_compare_entries"), () => {
  const cases: Array<[string, boolean, JsonObject, JsonObject]> = [
    [
      "True-base-current-previous",
      true,
      { [BASE_KEY]: BASE_ENTRY, [CURRENT_KEY]: CURRENT_ENTRY, [PREVIOUS_KEY]: PREVIOUS_ENTRY },
      { [BASE_KEY]: CURRENT_ENTRY },
    ],
    [
      "False-base-current-previous",
      false,
      { [BASE_KEY]: BASE_ENTRY, [CURRENT_KEY]: CURRENT_ENTRY, [PREVIOUS_KEY]: PREVIOUS_ENTRY },
      { [BASE_KEY]: BASE_ENTRY },
    ],
    ["True-current-only", true, { [CURRENT_KEY]: CURRENT_ENTRY }, { [BASE_KEY]: CURRENT_ENTRY }],
    ["False-current-only", false, { [CURRENT_KEY]: CURRENT_ENTRY }, { [BASE_KEY]: CURRENT_ENTRY }],
    ["True-previous-only", true, { [PREVIOUS_KEY]: PREVIOUS_ENTRY }, {}],
    [
      "True-current-before-base",
      true,
      { [CURRENT_KEY]: CURRENT_ENTRY, [BASE_KEY]: BASE_ENTRY },
      { [BASE_KEY]: CURRENT_ENTRY },
    ],
  ];
  it.each(cases)("%s", (_case, compare, resultCustomizations, expected) => {
    expect(customizationsOf(trendsQuery(resultCustomizations, compare))).toEqual(expected);
  });
});

it(name("test_value_mode_compare_to_without_compare_is_compare_off"), () => {
  // compare_to alone never enables comparison, so the unlabelled entry is the one in effect
  const query = trendsQuery(
    { [BASE_KEY]: BASE_ENTRY, [CURRENT_KEY]: CURRENT_ENTRY },
    false,
    {},
    {
      compareFilter: { compare_to: "-1w" },
    },
  );
  expect(customizationsOf(query)).toEqual({ [BASE_KEY]: BASE_ENTRY });
});

it(name("test_value_mode_preserves_breakdown_key_bytes"), () => {
  const labelledKey = '{"series":1,"breakdown_value":["Ö",null,1],"compare_label":"current"}';
  expect(customizationsOf(trendsQuery({ [labelledKey]: CURRENT_ENTRY }, true))).toEqual({
    '{"series":1,"breakdown_value":["Ö",null,1]}': CURRENT_ENTRY,
  });
});

it(name("test_value_mode_keeps_unparseable_keys"), () => {
  const query = trendsQuery({ "not-json": BASE_ENTRY, [CURRENT_KEY]: CURRENT_ENTRY }, true);
  expect(customizationsOf(query)).toEqual({ "not-json": BASE_ENTRY, [BASE_KEY]: CURRENT_ENTRY });
});

const POSITION_FILTER = { resultCustomizationBy: "position" };
const POSITION_ENTRY_0 = { assignmentBy: "position", color: "preset-1" };
const POSITION_ENTRY_2 = { assignmentBy: "position", color: "preset-2" };
const POSITION_ENTRY_3 = { assignmentBy: "position", hidden: true };
const TWO_SERIES = [
  { kind: "EventsNode", event: "$pageview" },
  { kind: "EventsNode", event: "$autocapture" },
];

describe(name("test_position_mode_remaps_offset_entries"), () => {
  const cases: Array<[string, JsonObject, JsonObject]> = [
    [
      "shifted-into-free-slot",
      { "0": POSITION_ENTRY_0, "3": POSITION_ENTRY_3 },
      { "0": POSITION_ENTRY_0, "1": POSITION_ENTRY_3 },
    ],
    ["base-entry-wins", { "0": POSITION_ENTRY_0, "2": POSITION_ENTRY_2 }, { "0": POSITION_ENTRY_0 }],
    [
      "non-numeric-kept",
      { "0": POSITION_ENTRY_0, junk: POSITION_ENTRY_2 },
      { "0": POSITION_ENTRY_0, junk: POSITION_ENTRY_2 },
    ],
  ];
  it.each(cases)("%s", (_case, resultCustomizations, expected) => {
    const query = trendsQuery(resultCustomizations, true, POSITION_FILTER, { series: TWO_SERIES });
    expect(customizationsOf(query)).toEqual(expected);
  });
});

describe(name("test_position_mode_uses_formula_count_over_series_count"), () => {
  const cases: Array<[string, JsonObject, string]> = [
    ["formulaNodes", { formulaNodes: [{ formula: "A" }, { formula: "B" }] }, "1"],
    ["formulas", { formulas: ["A", "B"] }, "1"],
    ["formula", { formula: "A+B" }, "2"],
  ];
  it.each(cases)("%s", (_case, filterExtra, expectedShiftedKey) => {
    const query = trendsQuery(
      { "3": POSITION_ENTRY_3 },
      true,
      { ...POSITION_FILTER, ...filterExtra },
      { series: [...TWO_SERIES, ...TWO_SERIES] },
    );
    expect(customizationsOf(query)).toEqual({ [expectedShiftedKey]: POSITION_ENTRY_3 });
  });
});

describe(name("test_position_mode_skipped_when_compare_off_or_breakdown"), () => {
  const cases: Array<[string, boolean, JsonObject]> = [
    ["compare-off", false, {}],
    ["breakdown", true, { breakdownFilter: { breakdown_type: "event", breakdown: "$browser" } }],
    ["breakdowns", true, { breakdownFilter: { breakdowns: [{ type: "event", property: "$browser" }] } }],
  ];
  it.each(cases)("%s", (_case, compare, queryExtra) => {
    const resultCustomizations = { "0": POSITION_ENTRY_0, "3": POSITION_ENTRY_3 };
    const query = trendsQuery(resultCustomizations, compare, POSITION_FILTER, {
      series: TWO_SERIES,
      ...queryExtra,
    });
    expect(customizationsOf(query)).toEqual(resultCustomizations);
  });
});

it(name("test_stickiness_filter_is_migrated"), () => {
  const query: JsonObject = {
    kind: "StickinessQuery",
    series: [{ kind: "EventsNode", event: "$pageview" }],
    stickinessFilter: {
      resultCustomizations: { [CURRENT_KEY]: CURRENT_ENTRY, [PREVIOUS_KEY]: PREVIOUS_ENTRY },
    },
    ...COMPARE_ON,
  };
  const result = migration.transform(structuredClone(query));
  expect((result.stickinessFilter as JsonObject).resultCustomizations).toEqual({ [BASE_KEY]: CURRENT_ENTRY });
});

describe(name("test_noop_queries_are_unchanged"), () => {
  const cases: Array<[string, JsonObject]> = [
    ["not-trends", { kind: "NotTrendsQuery" }],
    ["filter-none", { kind: "TrendsQuery", trendsFilter: null }],
    ["filter-empty", { kind: "TrendsQuery", trendsFilter: {} }],
    ["customizations-none", { kind: "TrendsQuery", trendsFilter: { resultCustomizations: null } }],
    ["customizations-empty", { kind: "TrendsQuery", trendsFilter: { resultCustomizations: {} } }],
    ["new-shape", trendsQuery({ [BASE_KEY]: BASE_ENTRY }, true)],
  ];
  it.each(cases)("%s", (_case, query) => {
    expect(migration.transform(structuredClone(query))).toEqual(query);
  });
});
