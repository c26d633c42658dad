/**
 * Live flags → YAML items (the field table's item, the filters' pull form in pull.ts, references named
 * by the kit): the file's form of what the service answers, never a secret.
 */
import { describe, expect, it } from "vitest";
import { type FeatureFlag, FLAG_ANSWERS } from "../../../src/kinds/feature-flag/answers.js";
import { flagFields } from "../../../src/kinds/feature-flag/fields.js";
import { asLive } from "../../../src/kinds/feature-flag/live.js";
import { payloadVariable } from "../../../src/kinds/feature-flag/pull.js";
import { Placeholder } from "../../../src/pull/kinds.js";
import { checkAnswer } from "../../../src/service/answers.js";

/** The names `pull` knows: flag 7 is checkout-v1, cohort 1 the one "Beta testers" (2 shares its name). */
const names = (kind: string, id: number | string) =>
  kind === "feature_flag"
    ? ({ "7": "checkout-v1" } as Record<string, string>)[String(id)]
    : Number(id) === 1
      ? "Beta testers"
      : undefined;

const flag = (over: Partial<FeatureFlag>): FeatureFlag =>
  ({ id: 9, key: "k", name: "", filters: {}, active: true, deleted: false, ...over }) as FeatureFlag;

/** The YAML item of a live flag, and its filters. */
const flagItem = (live: FeatureFlag) => flagFields.item(asLive(live), names);
const pullFilters = (live: FeatureFlag) => flagItem(live).filters as Record<string, unknown>;

describe("pullFilters", () => {
  it("leaves out what the service adds: group copies of the aggregation, cohort_name, sort_key, nulls, legacy keys", () => {
    const filters = pullFilters(
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
  });

  it("writes an encrypted payload as a placeholder, whatever the service answered (plain text or sentinel)", () => {
    for (const value of ['{"code": "LIVE-SECRET"}', '"********* (encrypted)"']) {
      const filters = pullFilters(
        flag({ key: "pricing-config", has_encrypted_payloads: true, filters: { payloads: { true: value } } }),
      );
      expect(filters.payloads).toEqual({ true: new Placeholder("PRICING_CONFIG_PAYLOAD_TRUE") });
      expect(JSON.stringify(filters)).not.toContain("LIVE-SECRET");
    }
    expect(payloadVariable("new-checkout", "test")).toBe("NEW_CHECKOUT_PAYLOAD_TEST");
  });

  it("writes a flag with no multivariate or payloads explicitly, so a later edit shows as drift", () => {
    const filters = pullFilters(flag({ filters: { groups: [{ rollout_percentage: 100 }] } }));
    expect(filters).toEqual({ groups: [{ rollout_percentage: 100 }], multivariate: null, payloads: {} });
  });
});

describe("flagItem", () => {
  it("puts the description after the id pin and filters after the tags", () => {
    const item = flagItem(flag({ key: "k", id: 3, name: "Described", tags: ["x"] }));
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
