/**
 * The pure planner on insights and a dashboard's tiles (SPEC §2 "Insights", "Tiles"; §3 "Dashboard
 * tiles"): declared YAML through the real loader, live state built by hand, the plan made by the
 * registry's kinds. Queries compare on the declared keys after the upgrades; tiles are the whole set,
 * named by insight name or text excerpt, their insights resolved through the planner's own matching.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../src/config/diagnostics.js";
import { loadConfig } from "../../../src/index.js";
import type { DashboardBasic } from "../../../src/kinds/dashboard/index.js";
import type { LiveTile } from "../../../src/kinds/dashboard/tiles-diff.js";
import { KINDS } from "../../../src/kinds/index.js";
import type { InsightBasic } from "../../../src/kinds/insight/index.js";
import { buildPlan } from "../../../src/plan/build.js";
import type { LiveProject } from "../../../src/plan/types.js";
import { liveDashboard, options } from "../../builders.js";

const PROJECT = 12345;

async function load(text: string) {
  return loadConfig(
    { files: [{ path: "posthog/content.yaml", text: `project: ${PROJECT}\n${text}` }] },
    { env: {} },
  );
}

function insight(
  id: number,
  name: string | null,
  query: Record<string, unknown>,
  over: Partial<InsightBasic> = {},
): InsightBasic {
  return {
    id,
    short_id: `s${id}`,
    name,
    derived_name: null,
    description: null,
    query,
    filters: {},
    tags: [],
    dashboard_tiles: [],
    saved: true,
    last_modified_at: "2026-01-01T00:00:00Z",
    ...over,
  };
}

function live(
  dashboards: DashboardBasic[],
  insights: InsightBasic[],
  tiles: Record<number, LiveTile[]> = {},
): LiveProject {
  return {
    project: PROJECT,
    kinds: {
      dashboard: { objects: dashboards, collaborators: {}, sharing: {}, tiles } as never,
      insight: { objects: insights },
    },
  };
}

async function planOf(text: string, liveProject: LiveProject) {
  const config = await load(text);
  expect(config.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic)).toEqual([]);
  return buildPlan(KINDS, config.projects, [liveProject], options());
}

const trends = (source: Record<string, unknown>) => ({
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", ...source },
});

const SIGNUPS = `insights:
  - name: Signups
    query:
      kind: InsightVizNode
      source:
        kind: TrendsQuery
        series: [{kind: EventsNode, event: signed up}]
        interval: week
`;

const insightTile = (id: number, insightId: number, name: string, sm?: object): LiveTile => ({
  id,
  insightId,
  insightName: name,
  textId: null,
  text: null,
  layouts: sm ? { sm, xs: { x: 0, y: 0, w: 1, h: 5 } } : {},
});
const textTile = (id: number, body: string, sm?: object): LiveTile => ({
  id,
  insightId: null,
  insightName: null,
  textId: id + 500,
  text: body,
  layouts: sm ? { sm } : {},
});

describe("insights", () => {
  it("creates a declared insight with its query upgraded (versions stamped) and never a dashboard", async () => {
    const { plan } = await planOf(SIGNUPS, live([], []));
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({
      action: "create",
      object: { kind: "insight", name: "Signups" },
      after: {
        name: "Signups",
        query: trends({ series: [{ kind: "EventsNode", event: "signed up" }], interval: "week", version: 5 }),
      },
    });
    expect(plan.actions[0]?.after).not.toHaveProperty("dashboards");
  });

  it("ignores what the service adds to a stored query: version stamps, defaults, other keys", async () => {
    const stored = trends({
      series: [{ kind: "EventsNode", event: "signed up", math: "total", custom_name: null }],
      interval: "week",
      version: 5,
      filterTestAccounts: false,
      properties: [],
    });
    const { plan } = await planOf(SIGNUPS, live([], [insight(9, "Signups", { ...stored, version: 1 })]));
    expect(plan.actions).toEqual([]);
  });

  it("shows a changed declared key as a diff of the declared keys and sends the whole upgraded query", async () => {
    const stored = trends({
      series: [{ kind: "EventsNode", event: "signed up" }],
      interval: "day",
      filterTestAccounts: true,
    });
    const { plan } = await planOf(SIGNUPS, live([], [insight(9, "Signups", stored)]));
    expect(plan.actions).toHaveLength(1);
    const [update] = plan.actions;
    expect(update).toMatchObject({ action: "update", object: { id: 9 } });
    const change = update?.changes[0];
    expect(change?.path).toBe("query");
    expect(change?.diff).toContain("-  interval: day\n+  interval: week");
    expect(change?.diff).not.toContain("filterTestAccounts");
    expect(update?.after?.query).toEqual(
      trends({ series: [{ kind: "EventsNode", event: "signed up" }], interval: "week", version: 5 }),
    );
  });

  it("compares a query written in an older form in the form the service stores", async () => {
    const text = `insights:
  - name: Retention
    query: {kind: RetentionQuery, retentionFilter: {period: Week, showMean: true}}
`;
    const stored = {
      kind: "RetentionQuery",
      retentionFilter: { period: "Week", meanRetentionCalculation: "simple" },
    };
    expect((await planOf(text, live([], [insight(4, "Retention", stored)]))).plan.actions).toEqual([]);
    const other = {
      kind: "RetentionQuery",
      retentionFilter: { period: "Week", meanRetentionCalculation: "weighted" },
    };
    const { plan } = await planOf(text, live([], [insight(4, "Retention", other)]));
    expect(plan.actions.map((a) => a.changes.map((c) => c.path))).toEqual([["query"]]);
  });

  it("renames through a pin, soft-deletes a tombstone and restores a pinned insight gone from the list", async () => {
    const text = `insights:
  - {name: New name, id: 4}
  - {name: Gone, deleted: true}
  - {name: Back, id: 77}
`;
    const { plan } = await planOf(
      text,
      live([], [insight(4, "Old name", trends({})), insight(5, "Gone", trends({}))]),
    );
    expect(plan.actions.map((a) => `${a.action}:${a.object.name}`)).toEqual([
      "restore:Back",
      "update:Back",
      "update:New name",
      "soft_delete:Gone",
    ]);
  });

  it("prunes undeclared insights (soft delete) only with --prune", async () => {
    const config = await load("insights: []\n");
    const state = live([], [insight(4, "Stray", trends({}))]);
    expect(buildPlan(KINDS, config.projects, [state], options()).plan.actions).toEqual([]);
    const pruned = buildPlan(KINDS, config.projects, [state], options({ prune: true })).plan;
    expect(pruned.actions.map((a) => [a.action, a.object.name, a.destructive])).toEqual([
      ["soft_delete", "Stray", true],
    ]);
  });
});

describe("a dashboard's tiles", () => {
  const board = liveDashboard({ id: 42, name: "Board" });

  it("adds every declared tile to a new dashboard: the insight by name (created by the same apply), then the text", async () => {
    const text = `${SIGNUPS}dashboards:
  - name: New board
    tiles:
      - insight: Signups
        layout: {x: 0, y: 0, w: 6, h: 5}
      - text: "## Notes\\nsecond line"
`;
    const { plan } = await planOf(text, live([], []));
    const tiles = plan.actions.filter((a) => a.action === "add_tile");
    expect(tiles.map((a) => a.after)).toEqual([
      { insight: "Signups", layout: { x: 0, y: 0, w: 6, h: 5 } },
      { text: "## Notes\nsecond line" },
    ]);
  });

  it("is empty when the live tiles match, whatever the other breakpoints and the tiles' order", async () => {
    const text = `${SIGNUPS}dashboards:
  - name: Board
    tiles:
      - insight: Signups
        layout: {x: 0, y: 0, w: 6, h: 5}
      - text: Hello
`;
    const tiles = { 42: [textTile(2, "Hello\n"), insightTile(1, 9, "Signups", { x: 0, y: 0, w: 6, h: 5 })] };
    const state = live(
      [board],
      [
        insight(
          9,
          "Signups",
          trends({ series: [{ kind: "EventsNode", event: "signed up" }], interval: "week" }),
        ),
      ],
      tiles,
    );
    expect((await planOf(text, state)).plan.actions).toEqual([]);
  });

  it("removes what the file does not list, adds what is missing and moves a tile, by name and excerpt", async () => {
    const text = `${SIGNUPS}dashboards:
  - name: Board
    tiles:
      - insight: Signups
        layout: {x: 6, y: 0, w: 6, h: 5}
      - insight_id: 11
`;
    const tiles = {
      42: [
        insightTile(1, 9, "Signups", { x: 0, y: 0, w: 6, h: 5 }),
        textTile(2, "## Old\nnotes"),
        insightTile(3, 10, "Churn"),
      ],
    };
    const insights = [
      insight(
        9,
        "Signups",
        trends({ series: [{ kind: "EventsNode", event: "signed up" }], interval: "week" }),
      ),
      insight(10, "Churn", trends({})),
      insight(11, "Revenue", trends({})),
    ];
    const { plan } = await planOf(text, live([board], insights, tiles));
    expect(plan.actions.map((a) => [a.action, a.before ?? null, a.after ?? null])).toEqual([
      ["remove_tile", { text: "## Old\nnotes" }, null],
      ["remove_tile", { insight: "Churn" }, null],
      ["add_tile", null, { insight: "Revenue" }],
      [
        "update_tile",
        { insight: "Signups", layout: { x: 0, y: 0, w: 6, h: 5 } },
        { insight: "Signups", layout: { x: 6, y: 0, w: 6, h: 5 } },
      ],
    ]);
    // The insights' ids are plan data: what an added tile requires, how apply finds a live one.
    expect(plan.actions.map((a) => [a.requires ?? null, a.preconditions ?? null])).toEqual([
      [null, null],
      [null, { insight_id: 10 }],
      [[{ kind: "insight", name: "Revenue", id: 11 }], null],
      [null, { insight_id: 9 }],
    ]);
    expect(JSON.stringify(plan.actions)).not.toMatch(/"id":\s*[123]\b/);
  });

  it("edits a text card's body in place, with a diff", async () => {
    const text = `dashboards:
  - name: Board
    tiles:
      - text: "## Notes\\nnew"
`;
    const { plan } = await planOf(text, live([board], [], { 42: [textTile(2, "## Notes\nold")] }));
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({ action: "update_tile", after: { text: "## Notes\nnew" } });
    expect(plan.actions[0]?.changes[0]?.diff).toContain("-old\n+new");
  });

  it("leaves the tiles alone when tiles: is not declared", async () => {
    const text = `${SIGNUPS}dashboards:
  - name: Board
`;
    const state = live(
      [board],
      [
        insight(
          9,
          "Signups",
          trends({ series: [{ kind: "EventsNode", event: "signed up" }], interval: "week" }),
        ),
      ],
      {},
    );
    expect((await planOf(text, state)).plan.actions).toEqual([]);
  });

  it("refuses an insight_id that is not live, at the tile", async () => {
    const config = await load(
      `insights: []\ndashboards:\n  - name: Board\n    tiles:\n      - insight_id: 404\n`,
    );
    const { errors } = buildPlan(KINDS, config.projects, [live([board], [], { 42: [] })], options());
    expect(errors.map((e) => [e.message, e.source?.line])).toEqual([
      ['a tile of dashboard "Board" shows insight id 404, which is not a live insight of project 12345', 6],
    ]);
  });

  it("notes that a restored dashboard's tiles wait for the next plan", async () => {
    const { plan } = await planOf(
      `dashboards:\n  - {name: Board, id: 77, tiles: [{text: hi}]}\n`,
      live([], []),
    );
    expect(plan.actions.map((a) => a.action)).toEqual(["restore", "update"]);
    expect(plan.notes.map((n) => n.message)).toContain(
      "tiles of a restored dashboard are reconciled by the next plan",
    );
  });
});

describe("the loader's checks across insights and tiles", () => {
  const messages = async (text: string) => (await load(text)).diagnostics.map(formatDiagnostic);

  it("reports a tile naming an insight no file declares, with a suggestion", async () => {
    expect(
      await messages(`${SIGNUPS}dashboards:\n  - name: Board\n    tiles:\n      - insight: Signup\n`),
    ).toEqual([
      'posthog/content.yaml:13:9: error: a tile of dashboard "Board" shows insight "Signup", which no file declares for this project under insights: (did you mean "Signups"?)',
    ]);
  });

  it("allows pinned insights to share a name (and an empty one), and asks for insight_id where a tile names them", async () => {
    const text = `insights:
  - {name: Same, id: 1}
  - {name: Same, id: 2}
  - {name: "", id: 3}
dashboards:
  - name: Board
    tiles:
      - insight_id: 1
      - insight: Same
`;
    expect(await messages(text)).toEqual([
      'posthog/content.yaml:10:9: error: a tile of dashboard "Board" shows insight "Same", a name 2 declared insights share: name the one it shows by insight_id:',
    ]);
  });

  it("still refuses unpinned duplicates and an empty name without a pin", async () => {
    expect(await messages(`insights:\n  - {name: A}\n  - {name: A}\n  - {name: ""}\n`)).toEqual([
      'posthog/content.yaml:4:5: error: duplicate insight name "A" in project 12345: also declared at posthog/content.yaml:3:5',
      "posthog/content.yaml:5:12: error: an insight without a name needs an `id` pin: give it a name, or pin the live insight it is with id:",
    ]);
  });
});
