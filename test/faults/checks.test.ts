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

  it("report a flag key or an insight name live twice, and notice a touched stray flag or insight", () => {
    const world = makeWorld(7);
    const s = state(world);
    const flags = s.feature_flags as Array<Record<string, unknown>>;
    const insights = s.insights as Array<Record<string, unknown>>;
    const flag = flags[0]!;
    const chart = insights[0]!;
    const before = untouchedSnapshot(s, new Set());
    (flags.find((f) => f.id === world.undeclared.flags[0]) as Record<string, unknown>).active = false;
    expect(untouchedSnapshot(s, new Set())).not.toBe(before);
    const again = untouchedSnapshot(s, new Set());
    (insights.find((i) => i.id === world.undeclared.insights[0]) as Record<string, unknown>).name = "x";
    expect(untouchedSnapshot(s, new Set())).not.toBe(again);
    flags.push({ ...flag, id: 99_999 });
    insights.push({ ...chart, id: 99_999 });
    expect(duplicates(s)).toEqual([
      `duplicate insight "${chart.name}" in project ${chart.team_id}`,
      `duplicate feature flag "${flag.key}" in project ${flag.team_id}`,
    ]);
  });

  it("declare every kind: flags that may depend on flags, insights, and tiles that show them", () => {
    const world = makeWorld(11);
    expect(Object.keys(world.files).sort()).toEqual([
      "cohorts.yaml",
      "dashboards.yaml",
      "exports.yaml",
      "flags.yaml",
      "insights.yaml",
    ]);
    expect(world.files["dashboards.yaml"]).toMatch(/tiles:\n {6}- insight: Chart 11-0/);
  });

  it("declare actions and cohorts naming them and each other by name, and report their duplicates", () => {
    const worlds = Array.from({ length: 20 }, (_, i) => makeWorld(i + 1));
    const files = worlds.map((w) => w.files["cohorts.yaml"] ?? "").join("\n");
    expect(files).toMatch(/event_type: actions, action: Act \d+-\d+/);
    expect(files).toMatch(/\{type: cohort, cohort: Persons \d+\}/);
    expect(worlds.map((w) => w.files["flags.yaml"]).join("\n")).toMatch(
      /\{type: cohort, cohort: Persons \d+/,
    );
    const s = state();
    const cohorts = s.cohorts as Array<Record<string, unknown>>;
    const actions = s.actions as Array<Record<string, unknown>>;
    const [cohort, action] = [cohorts[0]!, actions[0]!];
    cohorts.push({ ...cohort, id: 99_999 });
    actions.push({ ...action, id: 99_999 });
    expect(duplicates(s)).toEqual([
      `duplicate cohort "${cohort.name}" in project ${cohort.team_id}`,
      `duplicate action "${action.name}" in project ${action.team_id}`,
    ]);
  });

  it("build the same world from the same seed", () => {
    expect(makeWorld(42)).toEqual(makeWorld(42));
    expect(makeWorld(42)).not.toEqual(makeWorld(43));
  });
});
