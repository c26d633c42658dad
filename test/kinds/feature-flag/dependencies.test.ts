/** Flag dependencies: where files write them, their cycles, the order an apply must follow (order.ts). */
import { describe, expect, it } from "vitest";
import {
  cohortIdsByName,
  dependencyCycles,
  flagReferences,
} from "../../../src/kinds/feature-flag/dependencies.js";
import { dependencies, dependents, flagOrder, goesDown } from "../../../src/kinds/feature-flag/order.js";
import type { Action } from "../../../src/plan/types.js";

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

describe("apply order across a project's flags (the verbs' references)", () => {
  const ref = (name: string) => ({ kind: "feature_flag", project: 1, name });
  const dependsOn = (key: string) => ({
    groups: [{ properties: [{ type: "flag", key, operator: "flag_evaluates_to", value: true }] }],
  });
  const act = (name: string, action: string, extra: Partial<Action> = {}): Action => ({
    action,
    object: ref(name),
    changes: [],
    destructive: false,
    warnings: [],
    ...extra,
  });
  const names = (refs: ReadonlyArray<{ kind: string; name: string }>) =>
    refs.map((r) => `${r.kind}:${r.name}`);

  it("brings a flag up after the flags it depends on: written now or depended on when planned", () => {
    expect(names(dependencies(act("child", "create", { after: { filters: dependsOn("parent") } })))).toEqual([
      "feature_flag:parent",
    ]);
    const turnsOn = act("child", "update", {
      before: { depends_on: ["parent", "other"] },
      after: { active: true },
    });
    expect(names(flagOrder(turnsOn))).toEqual(["feature_flag:parent", "feature_flag:other"]);
  });

  it("takes a flag down after the flags that depended on it when planned", () => {
    const off = act("parent", "update", {
      before: { depends_on: [], dependents: ["child"] },
      after: { active: false },
    });
    expect(goesDown(off)).toBe(true);
    expect(names(flagOrder(off))).toEqual(["feature_flag:child"]);
    for (const action of ["archive", "soft_delete"]) {
      const down = act("parent", action, { before: { dependents: ["a", "b"] } });
      expect([goesDown(down), names(dependents(down))]).toEqual([true, ["feature_flag:a", "feature_flag:b"]]);
    }
    expect(dependents(act("solo", "archive", { before: {} }))).toEqual([]);
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
