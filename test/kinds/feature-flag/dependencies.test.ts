/** Flag dependencies: where files write them, their cycles, the order an apply must follow (order.ts). */
import { describe, expect, it } from "vitest";
import {
  cohortIdsByName,
  dependencyCycles,
  flagReferences,
} from "../../../src/kinds/feature-flag/dependencies.js";
import { flagWaits } from "../../../src/kinds/feature-flag/order.js";
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

describe("flagWaits: apply order across a project's flags", () => {
  const ref = (name: string) => ({ kind: "feature_flag", project: 1, name });
  const dependsOn = (key: string) => ({
    groups: [{ properties: [{ type: "flag", key, operator: "flag_evaluates_to", value: true }] }],
  });
  const act = (name: string, action: string, extra: Partial<Action> = {}): [string, Action[]] => [
    name,
    [{ action, object: ref(name), changes: [], destructive: false, warnings: [], ...extra }],
  ];
  const waits = (...objects: Array<[string, Action[]]>) => Object.fromEntries(flagWaits(new Map(objects)));

  it("creates, restores and turns on what others depend on first", () => {
    expect(
      waits(
        act("child", "create", { after: { filters: dependsOn("parent") } }),
        act("parent", "create", { after: {} }),
        act("solo", "create", { after: {} }),
      ),
    ).toEqual({ child: ["parent"] });
    expect(
      waits(act("child", "update", { after: { filters: dependsOn("parent") } }), act("parent", "restore")),
    ).toEqual({ child: ["parent"] });
  });

  it("turns off, archives and deletes the dependents first, from what they depended on when planned", () => {
    expect(
      waits(
        act("parent", "update", { before: { depends_on: [] }, after: { active: false } }),
        act("child", "soft_delete", { before: { depends_on: ["parent"] } }),
      ),
    ).toEqual({ parent: ["child"] });
    expect(
      waits(
        act("parent", "archive", { before: { archived: false } }),
        act("child", "update", { before: { depends_on: ["parent"] }, after: { active: false } }),
      ),
    ).toEqual({ parent: ["child"] });
  });

  it("leaves a flag going up and one going down unordered", () => {
    expect(
      waits(
        act("child", "update", { after: { filters: dependsOn("parent") } }),
        act("parent", "update", { after: { active: false } }),
      ),
    ).toEqual({});
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
