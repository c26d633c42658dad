/**
 * Dashboards with their content, through the real CLI and the real emulator (SPEC §2 "Insights",
 * "Tiles"; §3 "Dashboard tiles"): a dashboard created with three insight tiles and a text tile plans
 * empty afterwards; a moved tile, a changed query (with its diff), an insight taken off one dashboard
 * (it stays on the other, and live), a server-side upgrade of every stored query, a declared query in
 * an older form a migration rewrites, and pull → plan on projects whose insights share names or have
 * none.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Json, P, useEmulator } from "../support/emulator.js";

const h = useEmulator();

const INSIGHTS = `insights:
  - name: Weekly signups
    description: Signups per week, last quarter
    tags: [growth]
    query:
      kind: InsightVizNode
      source:
        kind: TrendsQuery
        series: [{kind: EventsNode, event: user signed up, math: total}]
        interval: week
        dateRange: {date_from: -90d}
  - name: Checkout funnel
    query:
      kind: InsightVizNode
      source:
        kind: FunnelsQuery
        series:
          - {kind: EventsNode, event: checkout started}
          - {kind: EventsNode, event: order placed}
  - name: Weekly retention
    query:
      kind: InsightVizNode
      source:
        kind: RetentionQuery
        retentionFilter: {period: Week, totalIntervals: 8}
`;

const KPIS = `  - name: Content KPIs
    tiles:
      - insight: Weekly signups
        layout: {x: 0, y: 0, w: 6, h: 5}
      - insight: Checkout funnel
        layout: {x: 6, y: 0, w: 6, h: 5}
      - insight: Weekly retention
        layout: {x: 0, y: 5, w: 6, h: 5}
      - text: "## Notes\\nRevenue comes from Stripe."
        layout: {x: 6, y: 5, w: 6, h: 5}
`;

function config(dashboards = KPIS, insights = INSIGHTS): string {
  return `project: 12345\n${insights}dashboards:\n${dashboards}`;
}

async function applyClean(path = "posthog"): Promise<void> {
  const applied = await h.cli(["apply", "--auto-approve", path]);
  expect(applied.stdout + applied.stderr).not.toContain("✗");
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
}

async function planEmpty(path = "posthog"): Promise<void> {
  const plan = await h.cli(["plan", "--detailed-exitcode", path]);
  expect(plan.stdout + plan.stderr).toContain("No changes");
  expect(plan.code).toBe(0);
}

async function dashboardNamed(name: string): Promise<Json> {
  const state = await h.state();
  const d = state.dashboards.find((x: Json) => x.name === name && !x.deleted);
  expect(d, `dashboard ${name}`).toBeDefined();
  return (await h.api("GET", `${P}/dashboards/${d.id}/`)).body;
}

const sm = (tile: Json) => {
  const { x, y, w, h: height } = tile.layouts.sm;
  return { x, y, w, h: height };
};

describe("a dashboard with its insights and a text tile", () => {
  it("is created with three insight tiles and a text tile, and the next plan is empty", async () => {
    h.write("posthog/content.yaml", config());
    const planned = await h.cli(["plan", "posthog"]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('+ add tile insight "Weekly signups" at x 0, y 0 (6×5)');
    expect(planned.stdout).toContain('+ add tile text "## Notes" at x 6, y 5 (6×5)');
    expect(planned.stdout).not.toMatch(/tile #|tile id/);
    await applyClean();
    await planEmpty();

    const dashboard = await dashboardNamed("Content KPIs");
    const tiles = dashboard.tiles.map((t: Json) => [t.insight?.name ?? t.text.body, sm(t)]);
    expect(tiles).toEqual([
      ["Weekly signups", { x: 0, y: 0, w: 6, h: 5 }],
      ["Checkout funnel", { x: 6, y: 0, w: 6, h: 5 }],
      ["Weekly retention", { x: 0, y: 5, w: 6, h: 5 }],
      ["## Notes\nRevenue comes from Stripe.", { x: 6, y: 5, w: 6, h: 5 }],
    ]);
    const listed = (await h.api("GET", `${P}/insights/?basic=true`)).body.results;
    const signups = listed.find((i: Json) => i.name === "Weekly signups");
    expect([signups.saved, signups.description, signups.tags]).toEqual([
      true,
      "Signups per week, last quarter",
      ["growth"],
    ]);
  });

  it("skips the tile of an insight whose create failed, adds the others, and converges next time", async () => {
    h.write("posthog/content.yaml", config());
    await h.faults({ rules: [{ method: "POST", path: "/insights/?$", status: 400, times: 1 }] });
    const first = await h.cli(["apply", "--auto-approve", "--concurrency", "1", "posthog"]);
    expect(first.code).toBe(1);
    expect(first.stdout + first.stderr).toMatch(/skipped: the work on insight "[^"]+" failed/);
    const added = (await dashboardNamed("Content KPIs")).tiles.length;
    expect(added).toBe(3);
    await applyClean();
    await planEmpty();
    expect((await dashboardNamed("Content KPIs")).tiles).toHaveLength(4);
  });

  it("moves a tile by PATCHing its layout, and shows it by insight name", async () => {
    h.write("posthog/content.yaml", config());
    await applyClean();
    h.write(
      "posthog/content.yaml",
      config(KPIS.replace("{x: 6, y: 0, w: 6, h: 5}", "{x: 6, y: 0, w: 6, h: 8}")),
    );
    await h.clearRequests();
    const planned = await h.cli(["plan", "posthog"]);
    expect(planned.stdout).toContain('~ update tile insight "Checkout funnel"');
    expect(planned.stdout).toContain('layout: {"x":6,"y":0,"w":6,"h":5} → {"x":6,"y":0,"w":6,"h":8}');
    await applyClean();
    await planEmpty();
    const funnel = (await dashboardNamed("Content KPIs")).tiles.find(
      (t: Json) => t.insight?.name === "Checkout funnel",
    );
    expect(sm(funnel)).toEqual({ x: 6, y: 0, w: 6, h: 8 });
  });

  it("shows a changed query as a unified diff of the declared keys and applies it", async () => {
    h.write("posthog/content.yaml", config());
    await applyClean();
    h.write("posthog/content.yaml", config(KPIS, INSIGHTS.replace("interval: week", "interval: day")));
    const planned = await h.cli(["plan", "posthog"]);
    expect(planned.stdout).toContain('~ insight "Weekly signups"');
    expect(planned.stdout).toMatch(/-\s+interval: week\n\s+\+\s+interval: day/);
    expect(planned.stdout).not.toContain("version");
    await applyClean();
    await planEmpty();
    const state = await h.state();
    expect(state.insights.find((i: Json) => i.name === "Weekly signups").query.source.interval).toBe("day");
  });

  it("takes an insight off one dashboard only: it stays on the other and stays live", async () => {
    const both = `${KPIS}  - name: Growth
    tiles:
      - insight: Weekly signups
`;
    h.write("posthog/content.yaml", config(both));
    await applyClean();
    await planEmpty();
    const without = both.replace(
      "      - insight: Weekly signups\n        layout: {x: 0, y: 0, w: 6, h: 5}\n",
      "",
    );
    h.write("posthog/content.yaml", config(without));
    const planned = await h.cli(["plan", "posthog"]);
    expect(planned.stdout).toContain('- remove tile insight "Weekly signups"');
    expect(planned.stdout).not.toContain("soft delete");
    const json = JSON.parse((await h.cli(["plan", "posthog", "--format", "json"])).stdout);
    expect(json.actions.find((a: Json) => a.action === "remove_tile").destructive).toBe(false);
    await applyClean();
    await planEmpty();
    expect((await dashboardNamed("Content KPIs")).tiles.map((t: Json) => t.insight?.name ?? "text")).toEqual([
      "Checkout funnel",
      "Weekly retention",
      "text",
    ]);
    expect((await dashboardNamed("Growth")).tiles.map((t: Json) => t.insight?.name)).toEqual([
      "Weekly signups",
    ]);
    const listed = await h.api("GET", `${P}/insights/?basic=true`);
    expect(listed.body.results.map((i: Json) => i.name)).toContain("Weekly signups");
  });

  it("plans nothing after the service upgrades every stored query", async () => {
    h.write("posthog/content.yaml", config());
    await applyClean();
    const storedQueries = async () =>
      Object.fromEntries((await h.state()).insights.map((i: Json) => [i.name, i.query]));
    const before = await storedQueries();
    const upgraded = await h.control("POST", "upgrade_queries", { project: 12345, defaults: true });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.upgraded.length).toBeGreaterThanOrEqual(3);
    const after = await storedQueries();
    for (const name of ["Weekly signups", "Checkout funnel", "Weekly retention"]) {
      expect(after[name], name).not.toEqual(before[name]);
    }
    await planEmpty();
  });

  it("removes a text tile through the dashboard and edits another's body in place", async () => {
    h.write("posthog/content.yaml", config());
    await applyClean();
    const edited = KPIS.replace("Revenue comes from Stripe.", "Revenue comes from Stripe and Paddle.");
    h.write("posthog/content.yaml", config(edited));
    const planned = await h.cli(["plan", "posthog"]);
    expect(planned.stdout).toContain('~ update tile text "## Notes"');
    expect(planned.stdout).toContain("+Revenue comes from Stripe and Paddle.");
    await applyClean();
    await planEmpty();
    const noText = KPIS.split("      - text:")[0] as string;
    h.write("posthog/content.yaml", config(noText));
    expect((await h.cli(["plan", "posthog"])).stdout).toContain('- remove tile text "## Notes"');
    // The card's text goes with it: destructive, listed first, marked; an insight tile's removal is not.
    const json = JSON.parse((await h.cli(["plan", "posthog", "--format", "json"])).stdout);
    const removal = json.actions.find((a: Json) => a.action === "remove_tile");
    expect(removal.destructive).toBe(true);
    expect(removal.warnings).toEqual(["the text card is deleted, and its text with it"]);
    expect(json.summary.destructive).toBe(true);
    const markdown = (await h.cli(["plan", "posthog", "--format", "markdown"])).stdout;
    expect(markdown).toContain("> [!WARNING]\n> **1 destructive action**: review it before merging.");
    expect(markdown).toMatch(/> - .*remove tile.*## Notes/);
    await applyClean();
    await planEmpty();
    expect((await dashboardNamed("Content KPIs")).tiles.every((t: Json) => t.text === null)).toBe(true);
  });
});

describe("a tile naming an insight by id", () => {
  it("is a plan error at its line when the project has no such live insight, even where no file declares insights", async () => {
    const query = {
      kind: "InsightVizNode",
      source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "x" }] },
    };
    const made = await h.api("POST", `${P}/insights/`, { name: "Made in the UI", query, saved: true });
    expect(made.status).toBe(201);
    const file = (id: number) =>
      `project: 12345\ndashboards:\n  - name: By id\n    tiles:\n      - insight_id: ${made.body.id}\n      - insight_id: ${id}\n`;
    h.write("posthog/board.yaml", file(987654));
    await h.clearRequests();
    const plan = await h.cli(["plan", "posthog"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'posthog/board.yaml:6:9: error: a tile of dashboard "By id" shows insight id 987654, which is not a live insight of project 12345',
    );
    // Two reads by id, not the insights' list.
    const reads = (await h.requests()).filter((r) => r.path.includes("/insights/"));
    expect(reads.map((r) => r.path).sort()).toEqual([
      `${P}/insights/${made.body.id}/`,
      `${P}/insights/987654/`,
    ]);
    h.write("posthog/board.yaml", file(made.body.id).replace(/\n {6}- insight_id: \d+\n$/, "\n"));
    const fixed = await h.cli(["plan", "posthog"]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('+ add tile insight "Made in the UI"');
  });
});

describe("pull --refresh", () => {
  it("writes a tile moved in the UI back into the file, and the query changed there", async () => {
    h.write("posthog/content.yaml", config());
    await applyClean();
    const dashboard = await dashboardNamed("Content KPIs");
    const funnel = dashboard.tiles.find((t: Json) => t.insight?.name === "Checkout funnel");
    const moved = await h.api("PATCH", `${P}/dashboards/${dashboard.id}/`, {
      tiles: [{ id: funnel.id, layouts: { sm: { x: 6, y: 0, w: 6, h: 9 } } }],
    });
    expect(moved.status, moved.text).toBe(200);
    const signups = (await h.state()).insights.find((i: Json) => i.name === "Weekly signups");
    const edited = await h.api("PATCH", `${P}/insights/${signups.id}/`, {
      query: { ...signups.query, source: { ...signups.query.source, interval: "month" } },
    });
    expect(edited.status, edited.text).toBe(200);
    const refresh = await h.cli(["pull", "--refresh", "posthog"]);
    expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
    // Each where it stands, in the file's style: the layout's flow map and the query's one key.
    expect(readFileSync(join(h.dir, "posthog/content.yaml"), "utf8")).toBe(
      config()
        .replace("layout: {x: 6, y: 0, w: 6, h: 5}", "layout: {x: 6, y: 0, w: 6, h: 9}")
        .replace("        interval: week", "        interval: month"),
    );
    await planEmpty();
  });
});

describe("declared queries in an older form", () => {
  it("plans empty after apply when a migration renames or removes a declared key", async () => {
    // RetentionQuery's showMean became meanRetentionCalculation (schema migration 0001); a series item
    // without `kind` becomes an EventsNode (0004): the service stores and shows the new forms.
    const old = `insights:
  - name: Old retention
    query:
      kind: RetentionQuery
      retentionFilter: {period: Week, showMean: true}
  - name: Old trends
    query:
      kind: TrendsQuery
      series: [{event: $pageview}]
`;
    h.write("posthog/old.yaml", `project: 12345\n${old}`);
    await applyClean();
    await planEmpty();
    const state = await h.state();
    const retention = state.insights.find((i: Json) => i.name === "Old retention");
    const shown = await h.api("GET", `${P}/insights/${retention.id}/`);
    expect(shown.body.query.retentionFilter.showMean).toBeUndefined();
    expect(shown.body.query.retentionFilter.meanRetentionCalculation).toBe("simple");
  });
});

describe("pull", () => {
  it("writes insights and tiles so that plan on the pulled files is empty", async () => {
    h.write("posthog/content.yaml", config());
    await applyClean();
    const pull = await h.cli(["pull", "--project", "12345", "--out", "pulled"]);
    expect(pull.code, pull.stderr).toBe(0);
    const dashboards = readFileSync(join(h.dir, "pulled", "dashboards.yaml"), "utf8");
    expect(dashboards).toContain("insight: Weekly signups");
    expect(dashboards).toContain("layout:");
    const insights = readFileSync(join(h.dir, "pulled", "insights.yaml"), "utf8");
    expect(insights).not.toContain("version:");
    await planEmpty("pulled");
  });

  it("pins insights that share a name or have none, and their tiles name them by id", async () => {
    const query = {
      kind: "InsightVizNode",
      source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "x" }] },
    };
    const ids: number[] = [];
    for (const name of ["Same", "Same", null]) {
      const res = await h.api("POST", `${P}/insights/`, { name, query, saved: true });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    const dash = await h.api("POST", `${P}/dashboards/`, { name: "Shared names" });
    for (const id of ids) {
      const res = await h.api("PATCH", `${P}/insights/${id}/`, { dashboards: [dash.body.id] });
      expect(res.status, res.text).toBe(200);
    }
    const pull = await h.cli(["pull", "--project", "12345", "--out", "pulled"]);
    expect(pull.code, pull.stderr).toBe(0);
    const dashboards = readFileSync(join(h.dir, "pulled", "dashboards.yaml"), "utf8");
    for (const id of ids) expect(dashboards).toContain(`insight_id: ${id}`);
    const insights = readFileSync(join(h.dir, "pulled", "insights.yaml"), "utf8");
    expect(insights).toContain('name: ""');
    const validate = await h.cli(["validate", "pulled"]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    await planEmpty("pulled");
  });
});
