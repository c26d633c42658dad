/** The offline rules of one declared flag, each reported at its place and naming the flag. */
import { describe, expect, it } from "vitest";
import {
  checkFlag,
  createProblem,
  encryptedPayloadPointers,
} from "../../../src/kinds/feature-flag/checks.js";

function problems(input: Record<string, unknown>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  checkFlag(input, { owner: 'feature flag "f"', error: (pointer, message) => out.push([pointer, message]) });
  return out;
}

const groups = [{ rollout_percentage: 100 }];

describe("checkFlag", () => {
  it("accepts a well-formed multivariate flag with payloads, a dependency and a cohort", () => {
    expect(
      problems({
        key: "f",
        active: true,
        filters: {
          groups: [
            {
              properties: [
                { type: "flag", key: "other", operator: "flag_evaluates_to", value: true },
                { type: "cohort", cohort: "Beta testers" },
                { type: "person", key: "email", operator: "icontains", value: "@acme.com" },
              ],
              variant: "test",
            },
          ],
          multivariate: {
            variants: [
              { key: "control", rollout_percentage: 33.33 },
              { key: "test", rollout_percentage: 33.33 },
              { key: "other", rollout_percentage: 33.34 },
            ],
          },
          payloads: { test: { color: "blue" } },
        },
      }),
    ).toEqual([]);
  });

  it("variant rollouts must sum to 100 and variant keys be unique", () => {
    expect(
      problems({
        key: "f",
        filters: {
          groups,
          multivariate: {
            variants: [
              { key: "a", rollout_percentage: 50 },
              { key: "a", rollout_percentage: 40 },
            ],
          },
        },
      }),
    ).toEqual([
      [
        "/filters/multivariate/variants",
        'the variant rollout percentages of feature flag "f" sum to 90, not 100',
      ],
      ["/filters/multivariate/variants/1/key", 'variant "a" is listed twice in feature flag "f"'],
    ]);
  });

  it("group variants and payload keys must be among the variant keys", () => {
    expect(
      problems({
        key: "f",
        filters: {
          groups: [{ variant: "nope" }],
          multivariate: { variants: [{ key: "a", rollout_percentage: 100 }] },
          payloads: { a: 1, b: 2 },
        },
      }),
    ).toEqual([
      [
        "/filters/groups/0/variant",
        'group 1 of feature flag "f" serves variant "nope", which is not one of its variants (a)',
      ],
      ["/filters/payloads/b", 'payload "b" of feature flag "f" is for no variant: its variants are a'],
    ]);
    expect(problems({ key: "f", filters: { groups, multivariate: null, payloads: { yes: 1 } } })).toEqual([
      [
        "/filters/payloads/yes",
        'payload "yes" of feature flag "f": a boolean flag has only the payload "true"',
      ],
    ]);
  });

  it("archived needs active: false", () => {
    expect(problems({ key: "f", archived: true })).toEqual([
      [
        "/archived",
        'feature flag "f" is archived but not declared active: false: the service archives only disabled flags (declare active: false)',
      ],
    ]);
    expect(problems({ key: "f", archived: true, active: false })).toEqual([]);
  });

  it("encrypted payloads are ${NAME} references only, on remote configuration flags", () => {
    const found = problems({
      key: "f",
      is_remote_configuration: false,
      has_encrypted_payloads: true,
      filters: { groups, payloads: { true: '{"code": "literal"}' } },
    });
    expect(found.map(([p]) => p)).toEqual(["/has_encrypted_payloads", "/filters/payloads/true"]);
    expect(found[1]?.[1]).toContain("write it as one ${NAME} reference");
    expect(
      problems({
        key: "f",
        is_remote_configuration: true,
        has_encrypted_payloads: true,
        filters: { groups, payloads: { true: "${PRICING}" } },
      }),
    ).toEqual([]);
    expect(
      encryptedPayloadPointers({
        has_encrypted_payloads: true,
        filters: { payloads: { true: "${X}", "a/b": "${Y}" } },
      }),
    ).toEqual(["/filters/payloads/true", "/filters/payloads/a~1b"]);
    expect(encryptedPayloadPointers({ filters: { payloads: { true: "x" } } })).toEqual([]);
  });

  it("conditions name flags by key and cohorts by name or id, each operator where it belongs", () => {
    const found = problems({
      key: "f",
      filters: {
        groups: [
          {
            properties: [
              { type: "flag", key: "has space", operator: "exact" },
              { type: "cohort", cohort: "A", value: 3 },
              { type: "cohort", value: "Beta" },
              { type: "person", operator: "in", value: [1] },
            ],
          },
        ],
      },
    });
    expect(found.map(([pointer]) => pointer)).toEqual([
      "/filters/groups/0/properties/0",
      "/filters/groups/0/properties/0/operator",
      "/filters/groups/0/properties/1",
      "/filters/groups/0/properties/2/value",
      "/filters/groups/0/properties/3",
      "/filters/groups/0/properties/3/operator",
    ]);
  });
});

describe("createProblem", () => {
  it("refuses a create whose filters have no group, allows one without filters", () => {
    expect(createProblem(undefined, "f")).toBeUndefined();
    expect(createProblem({ groups }, "f")).toBeUndefined();
    expect(createProblem({ groups: [] }, 'feature flag "f"')).toContain("at least one");
    expect(createProblem({ payloads: { true: 1 } }, 'feature flag "f"')).toContain("filters.groups");
  });
});
