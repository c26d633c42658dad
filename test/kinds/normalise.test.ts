import { describe, expect, it } from "vitest";
import { secretVariableName } from "../../src/kinds/batch-export/service-rules/destinations.js";
import { looseEqual, normaliseInstant, normaliseTags } from "../../src/kinds/shared/normalise.js";
import { unifiedDiff } from "../../src/kinds/shared/text-diff.js";
import { canonicalJson } from "../../src/plan/values.js";

describe("normalisers", () => {
  it.each([
    "2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00.000000Z",
    "2026-01-01T00:00:00+00:00",
    "2026-01-01T01:00:00+01:00",
    "2026-01-01 00:00:00.000+0000",
    "2025-12-31T19:00:00-05:00",
  ])("reads %s as the instant 2026-01-01T00:00:00Z", (text) => {
    expect(normaliseInstant(text)).toBe("2026-01-01T00:00:00.000000Z");
  });

  it("keeps sub-millisecond precision and distinguishes instants", () => {
    expect(normaliseInstant("2026-01-01T00:00:00.123456Z")).toBe("2026-01-01T00:00:00.123456Z");
    expect(normaliseInstant("2026-01-01T00:00:01Z")).not.toBe(normaliseInstant("2026-01-01T00:00:00Z"));
    expect(normaliseInstant(null)).toBeNull();
    expect(normaliseInstant("not a date")).toBe("not a date");
  });

  it("treats tags as a trimmed lowercase set", () => {
    expect(normaliseTags([" KPI", "growth", "kpi", ""])).toEqual(["growth", "kpi"]);
    expect(normaliseTags(null)).toEqual([]);
  });

  it.each([
    ["true", true, true],
    ["True", true, true],
    ["5432", 5432, true],
    ["5432", 5433, false],
    ["false", true, false],
    ["abc", "abc", true],
    [["a", "b"], ["a", "b"], true],
    [["a"], ["a", "b"], false],
    [{ x: "1" }, { x: 1 }, true],
    [undefined, "x", false],
    [null, null, true],
    ["", 0, false],
  ])("looseEqual(%j, %j) is %s", (a, b, expected) => {
    expect(looseEqual(a, b)).toBe(expected);
  });

  it("serialises with sorted keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ f: 1, e: 2 }], c: 3 } })).toBe(
      '{"a":{"c":3,"d":[{"e":2,"f":1}]},"b":1}',
    );
  });

  it.each([
    ["events-to-s3", "aws_secret_access_key", "EVENTS_TO_S3_AWS_SECRET_ACCESS_KEY"],
    [
      "Warehouse (prod)",
      "copy_inputs.authorization.aws_access_key_id",
      "WAREHOUSE_PROD_COPY_INPUTS_AUTHORIZATION_AWS_ACCESS_KEY_ID",
    ],
    ["2024 export", "token", "_2024_EXPORT_TOKEN"],
  ])("derives a variable name from %s and %s", (name, path, expected) => {
    expect(secretVariableName(name, path)).toBe(expected);
  });

  it("renders a unified diff without the index banner", () => {
    expect(unifiedDiff("a\nb", "a\nc")).toBe("--- before\n+++ after\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
  });
});
