/** Flag dependencies: where files write them and their cycles (the order apply follows is plan data: test/e2e). */
import { describe, expect, it } from "vitest";
import {
  cohortIdsByName,
  dependencyCycles,
  flagReferences,
} from "../../../src/kinds/feature-flag/dependencies.js";

describe("flagReferences", () => {
  it("lists the flag conditions with their pointers, nothing else", () => {
    expect(
      flagReferences({
        groups: [
          {
            properties: [
              { type: "person", key: "a" },
              { type: "flag", key: "one" },
            ],
          },
          { rollout_percentage: 5 },
          { properties: [{ type: "flag", key: "two" }] },
        ],
      }),
    ).toEqual([
      { key: "one", pointer: "/filters/groups/0/properties/1/key" },
      { key: "two", pointer: "/filters/groups/2/properties/0/key" },
    ]);
    expect(flagReferences(undefined)).toEqual([]);
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

describe("resolution per project", () => {
  it("groups cohort ids by name, so a shared name is seen as ambiguous", () => {
    const byName = cohortIdsByName([
      { id: 1, name: "Beta" },
      { id: 2, name: "Staff" },
      { id: 3, name: "Beta" },
    ]);
    expect(byName.get("Beta")).toEqual([1, 3]);
    expect(byName.get("Staff")).toEqual([2]);
  });
});
