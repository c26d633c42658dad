/**
 * Which origins a plan cites beside a change (SPEC §9): the value's own, the list's or mapping's it is
 * in, and those under it only where the change changes that part, so a rollout changed in one group
 * is not said to come from the variable that gives another group's rollout.
 */
import { describe, expect, it } from "vitest";
import { originsOf } from "../../src/plan/origins.js";
import type { ValueOrigin } from "../../src/plan/types.js";

const variable: ValueOrigin = { file: "envs.yaml", line: 9, column: 7, how: "variable", name: "ROLLOUT" };
const overlay: ValueOrigin = { file: "overlays/production.yaml", line: 4, column: 5, how: "overlay" };
const origins = { "filters.groups.1.rollout_percentage": [variable], filters: [overlay] };

describe("originsOf", () => {
  it("cites what is under a change only where the change changes it", () => {
    const groups = (first: number, second: number) => [
      { rollout_percentage: first },
      { rollout_percentage: second },
    ];
    expect(originsOf(origins, "filters.groups", { before: groups(100, 30), after: groups(80, 30) })).toEqual([
      overlay,
    ]);
    expect(originsOf(origins, "filters.groups", { before: groups(100, 30), after: groups(100, 20) })).toEqual(
      [variable, overlay],
    );
    // Without the change's sides (or a create, with no before), everything under it is cited, as before.
    expect(originsOf(origins, "filters.groups")).toEqual([variable, overlay]);
    expect(originsOf(origins, "filters.groups", { after: groups(80, 30) })).toEqual([variable, overlay]);
    expect(originsOf(origins, "filters.groups.1.rollout_percentage", { before: 30, after: 20 })).toEqual([
      variable,
      overlay,
    ]);
  });
});
