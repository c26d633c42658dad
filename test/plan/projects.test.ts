import { describe, expect, it } from "vitest";
import { detailReads } from "../../src/kinds/dashboard/live.js";
import { KINDS } from "../../src/kinds/index.js";
import { buildPlan } from "../../src/plan/build.js";
import { desiredDashboard, desiredProject, liveDashboard, liveProject, NOW, options } from "../builders.js";

describe("projects", () => {
  it("collects every error at once: no project id, no live state, ambiguous names", () => {
    const { errors } = buildPlan(
      KINDS,
      [
        desiredProject({ project: undefined, files: ["a.yaml"] }),
        desiredProject({ project: 999 }),
        desiredProject({ dashboards: [desiredDashboard({ name: "Dup" })] }),
      ],
      [
        liveProject({
          dashboards: [liveDashboard({ id: 1, name: "Dup" }), liveDashboard({ id: 2, name: "Dup" })],
        }),
      ],
      options(),
    );
    expect(errors.map((e) => e.message)).toEqual([
      "no project id: set `project:` in the files, --project, or POSTHOG_PROJECT_ID",
      "no live state was read for project 999",
      expect.stringContaining("ids 1, 2"),
    ]);
    expect(errors[0]?.source).toEqual({ file: "a.yaml", line: 1, column: 1 });
  });

  it("stamps the plan and keeps an empty plan well-formed", () => {
    const { plan, errors } = buildPlan(KINDS, [desiredProject()], [liveProject()], options());
    expect(errors).toEqual([]);
    expect(plan).toEqual({
      format_version: "2",
      created_at: NOW.toISOString(),
      projects: [12345],
      actions: [],
      notes: [],
      fingerprints: {},
      summary: { counts: {}, total: 0, destructive: false },
    });
  });
});

describe("detailReads", () => {
  it("asks for collaborators, sharing and tiles only where they are declared and live", () => {
    const desired = desiredProject({
      dashboards: [
        desiredDashboard({ name: "a", collaborators: [] }),
        desiredDashboard({ name: "b", sharing: { enabled: true } }),
        desiredDashboard({ name: "c", tiles: [] }),
        desiredDashboard({ name: "d", sharing: { enabled: false }, tiles: [], deleted: true }),
        desiredDashboard({ name: "new", collaborators: [], sharing: { enabled: true }, tiles: [] }),
      ],
    });
    const live = ["a", "b", "c", "d"].map((name, i) => liveDashboard({ id: i + 1, name }));
    expect(detailReads(desired.objects.dashboard as never, live)).toEqual({
      collaborators: [1],
      sharing: [2],
      tiles: [3],
    });
  });
});
