/** Live flags → YAML items (pull.ts): the file's form of what the service answers, never a secret. */
import { describe, expect, it } from "vitest";
import { type FeatureFlag, FLAG_ANSWERS } from "../../../src/kinds/feature-flag/answers.js";
import { flagItem, payloadVariable, pullFilters } from "../../../src/kinds/feature-flag/pull.js";
import { Placeholder } from "../../../src/pull/kinds.js";
import { checkAnswer } from "../../../src/service/answers.js";

const names = {
  flagKey: (id: string) => ({ "7": "checkout-v1" })[id],
  cohortName: (id: number) => (id === 1 ? "Beta testers" : undefined),
};

const flag = (over: Partial<FeatureFlag>): FeatureFlag =>
  ({ id: 9, key: "k", name: "", filters: {}, active: true, deleted: false, ...over }) as FeatureFlag;

describe("pullFilters", () => {
  it("leaves out what the service adds: group copies of the aggregation, cohort_name, sort_key, nulls, legacy keys", () => {
    const { filters, variables } = pullFilters(
      flag({
        filters: {
          aggregation_group_type_index: 0,
          groups: [
            {
              properties: [
                { type: "flag", key: "7", operator: "flag_evaluates_to", value: true },
                { type: "cohort", key: "id", value: 1, cohort_name: "Beta testers" },
                { type: "cohort", key: "id", value: 2, cohort_name: "Shared name" },
              ],
              rollout_percentage: 30,
              variant: null,
              aggregation_group_type_index: 0,
              sort_key: "abc",
            },
            { properties: [], rollout_percentage: null, aggregation_group_type_index: 1 },
          ],
          multivariate: { variants: [{ key: "a", name: null, rollout_percentage: 100 }], extra: 1 },
          payloads: { a: '{"size": 1}' },
          super_groups: [],
          feature_enrollment: true,
          unknown_key: 5,
        },
      }),
      names,
    );
    expect(filters).toEqual({
      aggregation_group_type_index: 0,
      groups: [
        {
          properties: [
            { type: "flag", key: "checkout-v1", operator: "flag_evaluates_to", value: true },
            { type: "cohort", cohort: "Beta testers" },
            { type: "cohort", value: 2 },
          ],
          rollout_percentage: 30,
        },
        { aggregation_group_type_index: 1 },
      ],
      multivariate: { variants: [{ key: "a", rollout_percentage: 100 }] },
      payloads: { a: { size: 1 } },
      feature_enrollment: true,
    });
    expect(variables).toEqual([]);
  });

  it("writes an encrypted payload as a placeholder, whatever the service answered (plain text or sentinel)", () => {
    for (const value of ['{"code": "LIVE-SECRET"}', '"********* (encrypted)"']) {
      const { filters, variables } = pullFilters(
        flag({ key: "pricing-config", has_encrypted_payloads: true, filters: { payloads: { true: value } } }),
        names,
      );
      expect(filters.payloads).toEqual({ true: new Placeholder("PRICING_CONFIG_PAYLOAD_TRUE") });
      expect(variables).toEqual(["PRICING_CONFIG_PAYLOAD_TRUE"]);
      expect(JSON.stringify(filters)).not.toContain("LIVE-SECRET");
    }
    expect(payloadVariable("new-checkout", "test")).toBe("NEW_CHECKOUT_PAYLOAD_TEST");
  });

  it("writes a flag with no multivariate or payloads explicitly, so a later edit shows as drift", () => {
    const { filters } = pullFilters(flag({ filters: { groups: [{ rollout_percentage: 100 }] } }), names);
    expect(filters).toEqual({ groups: [{ rollout_percentage: 100 }], multivariate: null, payloads: {} });
  });
});

describe("flagItem", () => {
  it("puts the description after the id pin and filters after the tags", () => {
    const { item } = flagItem(flag({ key: "k", id: 3, name: "Described", tags: ["x"] }), names);
    expect(Object.keys(item).slice(0, 6)).toEqual(["key", "id", "name", "active", "tags", "filters"]);
    expect(item.name).toBe("Described");
  });
});

// Each shape is checked against the meta-schema with a minimal answer in test/service/shapes.test.ts.
describe("the flag kind's answer shapes", () => {
  const minimal = { id: 1, key: "f", filters: {}, active: true, deleted: false };

  it("refuses a flag without its key, and a page without next", () => {
    expect(checkAnswer(FLAG_ANSWERS.featureFlag, minimal)).toBeUndefined();
    expect(checkAnswer(FLAG_ANSWERS.featureFlag, { ...minimal, key: undefined })).toMatch(/key/);
    expect(checkAnswer(FLAG_ANSWERS.featureFlagPage, { count: 0, results: [] })).toMatch(/next/);
  });
});
