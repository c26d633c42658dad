/** Ported from PostHog's posthog/schema_migrations/test/test_0002_stickiness_hidden_legend_indexes.py. */
import { expect, it } from "vitest";
import { stickinessHiddenLegendIndexes as migration } from "../../../src/queries/migrations/0002-stickiness-hidden-legend-indexes.js";
import type { JsonObject } from "../../../src/queries/python.js";
import { cite } from "./cite.js";

const name = cite("posthog/schema_migrations/test/test_0002_stickiness_hidden_legend_indexes.py");
const transform = (query: JsonObject) => migration.transform(structuredClone(query));

it(name("test_non_trends_query_is_unchanged"), () => {
  const otherQuery = { kind: "NotTrendsQuery" };
  expect(transform(otherQuery)).toEqual(otherQuery);
});

it(name("test_query_without_trends_filter_is_unchanged"), () => {
  const noFilterQuery = { kind: "TrendsQuery", trendsFilter: null };
  expect(transform(noFilterQuery)).toEqual(noFilterQuery);
});

it(name("test_no_result_customizations"), () => {
  const expected = {
    kind: "TrendsQuery",
    trendsFilter: {
      resultCustomizationBy: "position",
      resultCustomizations: {
        "0": { assignmentBy: "position", hidden: true },
        "1": { assignmentBy: "position", hidden: true },
      },
    },
  };
  expect(transform({ kind: "TrendsQuery", trendsFilter: { hiddenLegendIndexes: [0, 1] } })).toEqual(expected);
  expect(
    transform({
      kind: "TrendsQuery",
      trendsFilter: { resultCustomizations: null, hiddenLegendIndexes: [0, 1] },
    }),
  ).toEqual(expected);
  expect(
    transform({
      kind: "TrendsQuery",
      trendsFilter: { resultCustomizations: {}, hiddenLegendIndexes: [0, 1] },
    }),
  ).toEqual(expected);
});

it(name("test_result_customizations_by_position"), () => {
  const query = {
    kind: "TrendsQuery",
    trendsFilter: {
      resultCustomizations: {
        "0": { assignmentBy: "position", color: "preset-5" },
        "2": { assignmentBy: "position", color: "preset-11" },
      },
      hiddenLegendIndexes: [0, 1],
    },
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: {
      resultCustomizationBy: "position",
      resultCustomizations: {
        "0": { assignmentBy: "position", color: "preset-5", hidden: true },
        "1": { assignmentBy: "position", hidden: true },
        "2": { assignmentBy: "position", color: "preset-11" },
      },
    },
  });
});

const FIREFOX = '{"series":0,"breakdown_value":["Firefox"]}';
const SAFARI = '{"series":0,"breakdown_value":["Safari"]}';

it(name("test_result_customizations_by_value_removes_hidden_legend_indexes"), () => {
  const customizations = {
    [FIREFOX]: { assignmentBy: "value", color: "preset-5" },
    [SAFARI]: { assignmentBy: "value", color: "preset-11" },
  };
  const breakdownFilter = { breakdown_type: "event", breakdown: "browser" };
  const query = {
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations, hiddenLegendIndexes: [0, 1] },
    breakdownFilter,
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations },
    breakdownFilter,
  });
});

it(name("test_result_customizations_by_value_empty"), () => {
  const query = {
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: {}, hiddenLegendIndexes: [0, 1] },
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: {
      resultCustomizationBy: "position",
      resultCustomizations: {
        "0": { assignmentBy: "position", hidden: true },
        "1": { assignmentBy: "position", hidden: true },
      },
    },
  });
});

it(name("test_stickiness_query_handled_similarly"), () => {
  expect(transform({ kind: "StickinessQuery", stickinessFilter: { hiddenLegendIndexes: [0, 1] } })).toEqual({
    kind: "StickinessQuery",
    stickinessFilter: {
      resultCustomizationBy: "position",
      resultCustomizations: {
        "0": { assignmentBy: "position", hidden: true },
        "1": { assignmentBy: "position", hidden: true },
      },
    },
  });
});

it(name("test_result_customizations_by_position_and_value"), () => {
  const query = {
    kind: "StickinessQuery",
    stickinessFilter: {
      resultCustomizationBy: "position",
      resultCustomizations: {
        "0": { assignmentBy: "position", color: "preset-5" },
        [SAFARI]: { assignmentBy: "value", color: "preset-11" },
        "2": { assignmentBy: "position", color: "preset-7" },
      },
      hiddenLegendIndexes: [0, 2],
    },
  };
  expect(transform(query)).toEqual({
    kind: "StickinessQuery",
    stickinessFilter: {
      resultCustomizationBy: "position",
      resultCustomizations: {
        "0": { assignmentBy: "position", color: "preset-5", hidden: true },
        [SAFARI]: { assignmentBy: "value", color: "preset-11" },
        "2": { assignmentBy: "position", color: "preset-7", hidden: true },
      },
    },
  });
});

it(name("test_result_customizations_by_value_no_breakdown_no_compare"), () => {
  const query = {
    kind: "TrendsQuery",
    trendsFilter: {
      resultCustomizations: {
        '{"series":0}': { assignmentBy: "value", color: "preset-5" },
        '{"series":2}': { assignmentBy: "value", color: "preset-11" },
      },
      hiddenLegendIndexes: [0, 1],
    },
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: {
      resultCustomizationBy: "value",
      resultCustomizations: {
        '{"series":0}': { assignmentBy: "value", color: "preset-5", hidden: true },
        '{"series":1}': { assignmentBy: "value", hidden: true },
        '{"series":2}': { assignmentBy: "value", color: "preset-11" },
      },
    },
  });
});

it(name("test_result_customizations_by_value_with_breakdown"), () => {
  const customizations = { [FIREFOX]: { assignmentBy: "value", color: "preset-5" } };
  const breakdownFilter = { breakdown_type: "event", breakdown: "browser" };
  const query = {
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations, hiddenLegendIndexes: [0, 1] },
    breakdownFilter,
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations },
    breakdownFilter,
  });
});

it(name("test_result_customizations_by_value_with_breakdowns_array"), () => {
  const customizations = { [FIREFOX]: { assignmentBy: "value", color: "preset-5" } };
  const breakdownFilter = { breakdowns: [{ type: "event", property: "browser" }] };
  const query = {
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations, hiddenLegendIndexes: [0, 1] },
    breakdownFilter,
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations },
    breakdownFilter,
  });
});

it(name("test_result_customizations_by_value_with_compare"), () => {
  const customizations = {
    '{"series":0,"compare_against":"previous"}': { assignmentBy: "value", color: "preset-5" },
  };
  const query = {
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations, hiddenLegendIndexes: [0, 1] },
    compareFilter: { compare: true },
  };
  expect(transform(query)).toEqual({
    kind: "TrendsQuery",
    trendsFilter: { resultCustomizations: customizations },
    compareFilter: { compare: true },
  });
});
