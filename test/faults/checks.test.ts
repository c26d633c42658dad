/** The campaign's own checks must be able to fail: a doubled name or a touched stray object is caught. */
import { describe, expect, it } from "vitest";
import type { EmulatorState } from "../../bench/control.js";
import { duplicates, touchedKeys, untouchedSnapshot } from "./run.js";
import { makeWorld } from "./world.js";

function state(world = makeWorld(7)): EmulatorState {
  return JSON.parse(JSON.stringify({ ...world.objects })) as EmulatorState;
}

describe("fault campaign checks", () => {
  it("accept a seeded world as it is", () => {
    expect(duplicates(state())).toEqual([]);
  });

  it("report a name live twice in one project, and a doubled collaborator", () => {
    const s = state();
    const first = s.dashboards[0]!;
    s.dashboards.push({ ...first, id: 99_999 });
    s.collaborators.push({ id: "x", dashboard_id: 1, user: 2 }, { id: "y", dashboard_id: 1, user: 2 });
    expect(duplicates(s)).toEqual([
      `duplicate dashboard "${first.name}" in project ${first.team_id}`,
      "duplicate collaborator 2 on dashboard 1",
    ]);
  });

  it("ignore soft-deleted twins and the same name in another project", () => {
    const s = state();
    const first = s.dashboards[0]!;
    s.dashboards.push({ ...first, id: 99_998, deleted: true }, { ...first, id: 99_997, team_id: 1 });
    expect(duplicates(s)).toEqual([]);
  });

  it("notice a change to an object outside the plan, and ignore changes to planned ones", () => {
    const world = makeWorld(7);
    const s = state(world);
    const stray = s.dashboards.find((d) => d.id === world.undeclared.dashboards[0])!;
    const planned = s.dashboards.find((d) => d.id !== stray.id)!;
    const touched = touchedKeys(
      JSON.stringify({
        actions: [{ object: { project: planned.team_id, kind: "dashboard", name: planned.name } }],
      }),
    );
    const before = untouchedSnapshot(s, touched);
    planned.description = "applied";
    expect(untouchedSnapshot(s, touched)).toBe(before);
    stray.description = "edited";
    expect(untouchedSnapshot(s, touched)).not.toBe(before);
  });

  it("build the same world from the same seed", () => {
    expect(makeWorld(42)).toEqual(makeWorld(42));
    expect(makeWorld(42)).not.toEqual(makeWorld(43));
  });
});
