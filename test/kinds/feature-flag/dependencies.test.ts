/**
 * Flag dependencies, as the flag kind declares them (its filters' references: a flag condition names
 * the other flag by key, a cohort condition a cohort by name or raw id) and as the kit reads every
 * declaration's references: where files write them, and their cycles (a `validate` error).
 */
import { describe, expect, it } from "vitest";
import { dependencyCycles } from "../../../src/kinds/define/cycles.js";
import { declaredReferences } from "../../../src/kinds/define/references.js";
import { FLAG_REFERENCES } from "../../../src/kinds/feature-flag/references.js";

const at = (pointer: string) => ({ file: "f.yaml", line: pointer.length, column: 1 });

describe("the references a flag's filters make", () => {
  it("lists flag conditions by key and cohort conditions by name or id, with their pointers, nothing else", () => {
    expect(
      declaredReferences(
        {
          groups: [
            {
              properties: [
                { type: "person", key: "a" },
                { type: "flag", key: "one" },
              ],
            },
            { rollout_percentage: 5 },
            {
              properties: [
                { type: "flag", key: "two" },
                { type: "cohort", cohort: "Beta" },
                { type: "cohort", value: 12 },
              ],
            },
          ],
        },
        FLAG_REFERENCES,
        "/filters",
        at,
      ).map(({ source: _s, ...r }) => r),
    ).toEqual([
      { kind: "feature_flag", name: "one", pointer: "/filters/groups/0/properties/1/key" },
      { kind: "feature_flag", name: "two", pointer: "/filters/groups/2/properties/0/key" },
      { kind: "cohort", name: "Beta", pointer: "/filters/groups/2/properties/1/cohort" },
      { kind: "cohort", id: 12, pointer: "/filters/groups/2/properties/2/value" },
    ]);
    expect(declaredReferences(undefined, FLAG_REFERENCES, "/filters", at)).toEqual([]);
  });
});

describe("dependencyCycles", () => {
  it("reports each cycle once, closed, and ignores keys outside the graph", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "live-only"]],
      ["c", ["a"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]);
    expect(dependencyCycles(graph)).toEqual([
      ["a", "b", "c", "a"],
      ["d", "d"],
    ]);
    expect(
      dependencyCycles(
        new Map([
          ["x", ["y"]],
          ["y", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("walks a 20,000-flag chain without exhausting the stack", () => {
    const graph = new Map(
      Array.from({ length: 20_000 }, (_, i) => [`f${i}`, i + 1 < 20_000 ? [`f${i + 1}`] : ["f0"]]),
    );
    const [cycle] = dependencyCycles(graph);
    expect(cycle).toHaveLength(20_001);
  });
});
