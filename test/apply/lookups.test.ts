/**
 * Names looked up in batches (SPEC §3 "Concurrency"): one search per name or one walk of the list,
 * whichever needs fewer requests, with a fake kind that counts what it is asked.
 */
import { describe, expect, it } from "vitest";
import type { ApplyKind } from "../../src/apply/kinds.js";
import { lookUpNames, lookupWay, totalOf } from "../../src/apply/lookups.js";
import type { LiveObject, LiveProject } from "../../src/plan/types.js";
import type { ServiceClient } from "../../src/service/index.js";

const client = {} as ServiceClient;

function countingKind(live: LiveObject[], searches: boolean) {
  const asked = { searches: [] as string[], walks: 0 };
  const kind: ApplyKind = {
    name: "thing",
    words: { one: "thing", many: "things" },
    verbs: [],
    requestBody: () => undefined,
    create: async () => ({ notes: [] }),
    send: async () => ({ notes: [] }),
    async findByName(_client, _project, name) {
      asked.searches.push(name);
      return live.filter((o) => o.name === name).map((o) => o.id);
    },
    async listLive() {
      asked.walks += 1;
      return live;
    },
    ...(searches ? { searches: true } : {}),
  };
  return { kind, asked };
}

describe("lookupWay", () => {
  it.each([
    // [searches, names, live total, way]
    [true, 1, 50, "search"],
    [true, 2, 250, "search"], // 3 pages > 2 searches
    [true, 3, 250, "search"], // a tie: the narrower answers
    [true, 4, 250, "list"], // 3 pages < 4 searches
    [true, 1000, 0, "list"], // an empty list is one page
    [true, 1000, 50_000, "list"], // 500 pages < 1000 searches
    [true, 3, 50_000, "search"], // 3 searches < 500 pages
    [true, 40, undefined, "search"], // the list's size is unknown
    [false, 1, 10, "search"],
    [false, 2, undefined, "list"], // findByName reads the list anyway
  ] as const)("searches=%s, %i names, %s live → %s", (searches, names, total, way) => {
    expect(lookupWay({ searches, listLive: async () => [] }, names, total)).toBe(way);
  });

  it("a kind without a list walk searches name by name", () => {
    expect(lookupWay({ searches: true }, 500, 10)).toBe("search");
  });
});

describe("lookUpNames", () => {
  const live: LiveObject[] = [
    { id: 1, name: "A" },
    { id: 2, name: "B" },
    { id: 3, name: "A" },
    { id: 4, name: null },
  ];

  it("one walk of the list answers every name, with every id and an empty entry for the absent", async () => {
    const { kind, asked } = countingKind(live, true);
    const found = await lookUpNames(kind, client, 1, new Set(["A", "B", "C"]), live.length);
    expect(asked).toEqual({ searches: [], walks: 1 });
    expect(Object.fromEntries(found)).toEqual({ A: [1, 3], B: [2], C: [] });
  });

  it("searches each name when that is fewer requests than the list's pages", async () => {
    const { kind, asked } = countingKind(live, true);
    const found = await lookUpNames(kind, client, 1, new Set(["A", "C"]), 450);
    expect(asked.walks).toBe(0);
    expect([...asked.searches].sort()).toEqual(["A", "C"]);
    expect(Object.fromEntries(found)).toEqual({ A: [1, 3], C: [] });
  });
});

describe("totalOf", () => {
  const project = (kinds: LiveProject["kinds"]): LiveProject[] => [{ project: 7, kinds }];

  it("is the list's length after a full read, the learnt count after a scoped one, else unknown", () => {
    const objects = [{ id: 1, name: "x" }];
    expect(totalOf(project({ thing: { objects } }), 7, "thing")).toBe(1);
    expect(totalOf(project({ thing: { objects, scoped: { total: 900 } } }), 7, "thing")).toBe(900);
    expect(totalOf(project({ thing: { objects, scoped: {} } }), 7, "thing")).toBeUndefined();
    expect(totalOf(project({}), 7, "thing")).toBeUndefined();
    expect(totalOf(project({ thing: { objects } }), 8, "thing")).toBeUndefined();
    expect(totalOf(undefined, 7, "thing")).toBeUndefined();
  });
});
