/** Flag dependencies: where files write them, their cycles, the order an apply must follow. */
import { describe, expect, it } from "vitest";
import {
  cohortIdsByName,
  type DependencyStep,
  dependencyCycles,
  dependencyWaves,
  flagReferences,
  resolveFlagKey,
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

describe("dependencyWaves", () => {
  const step = (key: string, refs: string[], direction: "up" | "down"): DependencyStep => ({
    key,
    refs,
    direction,
  });

  it("creates and enables what others depend on first", () => {
    const waves = dependencyWaves([
      step("child", ["parent"], "up"),
      step("parent", [], "up"),
      step("solo", [], "up"),
    ]);
    expect(waves.map((w) => w.map((s) => s.key))).toEqual([["parent", "solo"], ["child"]]);
  });

  it("disables and deletes the dependents first", () => {
    const waves = dependencyWaves([step("parent", [], "down"), step("child", ["parent"], "down")]);
    expect(waves.map((w) => w.map((s) => s.key))).toEqual([["child"], ["parent"]]);
  });

  it("orders a chain, leaves unrelated directions free, and puts a cycle last", () => {
    const chain = dependencyWaves([step("c", ["b"], "up"), step("b", ["a"], "up"), step("a", [], "up")]);
    expect(chain.map((w) => w.map((s) => s.key))).toEqual([["a"], ["b"], ["c"]]);
    const mixed = dependencyWaves([step("child", ["parent"], "up"), step("parent", [], "down")]);
    expect(mixed.map((w) => w.map((s) => s.key))).toEqual([["child", "parent"]]);
    const cycle = dependencyWaves([step("x", ["y"], "up"), step("y", ["x"], "up"), step("z", [], "up")]);
    expect(cycle.map((w) => w.map((s) => s.key))).toEqual([["z"], ["x", "y"]]);
  });
});

describe("resolution per project", () => {
  it("finds a key among the declarations first, then among the live flags", () => {
    const live = new Map([
      ["checkout-v1", 8],
      ["legacy", 3],
    ]);
    const declared = new Set(["checkout-v1", "new-one"]);
    expect(resolveFlagKey("checkout-v1", declared, live)).toEqual({ declared: true, id: 8 });
    expect(resolveFlagKey("new-one", declared, live)).toEqual({ declared: true });
    expect(resolveFlagKey("legacy", declared, live)).toEqual({ declared: false, id: 3 });
    expect(resolveFlagKey("missing", declared, live)).toBeUndefined();
  });

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
