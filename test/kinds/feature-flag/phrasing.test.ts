/** What a flag change does, in the words a reviewer reads. */
import { describe, expect, it } from "vitest";
import { ENCRYPTED } from "../../../src/kinds/feature-flag/filters.js";
import { describeFlagField } from "../../../src/kinds/feature-flag/phrasing.js";

const cohorts = (id: number) => (id === 1 ? "Beta testers" : undefined);

describe("describeFlagField", () => {
  it("says the three things reviewers ask about in the issue's own words", () => {
    expect(
      describeFlagField(
        "filters.groups",
        [
          { properties: [], rollout_percentage: 100 },
          { properties: [], rollout_percentage: 20 },
        ],
        [
          { properties: [], rollout_percentage: 100 },
          { properties: [], rollout_percentage: 60 },
        ],
      ),
    ).toEqual(["group 2: rollout 20% → 60%"]);
    expect(describeFlagField("active", true, false)).toEqual(["turns the flag off for everyone"]);
    expect(
      describeFlagField(
        "filters.multivariate",
        {
          variants: [
            { key: "control", rollout_percentage: 50 },
            { key: "test", rollout_percentage: 50 },
          ],
        },
        {
          variants: [
            { key: "control", rollout_percentage: 70 },
            { key: "test", rollout_percentage: 30 },
          ],
        },
      ),
    ).toEqual(["variant control: 50% → 70%", "variant test: 50% → 30%"]);
  });

  it("names conditions by what they test: people, flags by key, cohorts by name", () => {
    const before = [
      { properties: [{ key: "email", type: "person", operator: "icontains", value: "@acme.com" }] },
    ];
    const after = [
      {
        properties: [
          { key: "email", type: "person", operator: "icontains", value: "@acme.io" },
          { type: "flag", key: "checkout-v1", operator: "flag_evaluates_to", value: true },
          { type: "cohort", operator: "in", value: 1 },
          { type: "cohort", value: 9 },
        ],
      },
    ];
    expect(describeFlagField("filters.groups", before, after, { cohortName: cohorts })).toEqual([
      'group 1: conditions email icontains "@acme.com" → email icontains "@acme.io" and flag checkout-v1 is true and in cohort "Beta testers" and in cohort #9',
    ]);
  });

  it("adds and removes groups, variants and payloads, and says when nobody gets the flag", () => {
    expect(describeFlagField("filters.groups", [], [{ properties: [], rollout_percentage: 10 }])).toEqual([
      "adds group 1: 10% of everyone",
    ]);
    expect(
      describeFlagField(
        "filters.groups",
        [
          { properties: [] },
          { properties: [{ key: "plan", type: "person", value: "pro" }], rollout_percentage: 5 },
        ],
        [{ properties: [] }],
      ),
    ).toEqual(['removes group 2 (5% of those where plan exact "pro")']);
    expect(describeFlagField("filters.groups", [{ properties: [] }], [])).toEqual([
      "removes every release condition: the flag is on for no one",
    ]);
    expect(
      describeFlagField(
        "filters.multivariate",
        { variants: [{ key: "a", rollout_percentage: 100 }] },
        { variants: [{ key: "b", rollout_percentage: 100 }] },
      ),
    ).toEqual(["adds variant b (100%)", "removes variant a"]);
    expect(
      describeFlagField("filters.multivariate", { variants: [{ key: "a", rollout_percentage: 100 }] }, null),
    ).toEqual(["makes it a boolean flag (drops variants a 100%)"]);
    expect(
      describeFlagField("filters.payloads", { a: { x: 1 }, gone: 1 }, { a: { x: 2 }, new: true }),
    ).toEqual([
      'changes the payload for a: {"x":1} → {"x":2}',
      "removes the payload for gone",
      "adds the payload for new: true",
    ]);
  });

  it("never shows an encrypted payload, only that it is sent", () => {
    const lines = describeFlagField("filters.payloads", { true: ENCRYPTED }, { true: ENCRYPTED });
    expect(lines).toEqual(["changes the encrypted payload for true"]);
  });

  it("words the lifecycle and a re-key for what they break", () => {
    expect(
      [
        { path: "archived", before: false, after: true },
        { path: "deleted", before: false, after: true },
        { path: "key", before: "old", after: "new" },
        { path: "name", before: "a", after: "b" },
      ].flatMap((c) => describeFlagField(c.path, c.before, c.after)),
    ).toEqual([
      "archives the flag (hidden from the flag list)",
      "soft-deletes the flag",
      'renames the key "old" → "new": code that checks "old" no longer finds the flag',
    ]);
    expect(describeFlagField("active", false, true)).toEqual([
      "turns the flag on for its release conditions",
    ]);
    expect(describeFlagField("filters.aggregation_group_type_index", null, 0)).toEqual([
      "rolls out by persons → group type 0",
    ]);
  });
});
