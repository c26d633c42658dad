/**
 * The emulator's insights and tiles beyond what PostHog's own tests cover (test/emulator/posthog/):
 * the stored query and the upgraded one a read shows, the triggered upgrade of stored queries, the
 * query validation's answers, the dashboards replace-set and its permissions, dashboards' tiles and
 * their PATCH, the seed's forms, and the ClickHouse throttle the insight endpoints share with events.
 */
import { describe, expect, it } from "vitest";
import { BOB_KEY } from "../src/default-seed.js";
import { type Json, P, useEmulator } from "./support/harness.js";

const h = useEmulator();

const trends = (series: Json[] = [{ kind: "EventsNode", event: "signed up" }]) => ({
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", series },
});

async function create(body: Json): Promise<Json> {
  const res = await h.api("POST", `${P}/insights/`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const stored = async (id: number) => (await h.state()).insights.find((i: Json) => i.id === id);

describe("stored and shown queries", () => {
  it("keeps the query as written and shows it upgraded, as the service does on every read", async () => {
    const insight = await create({ name: "Signups", query: trends() });
    expect(insight.filters).toEqual({});
    expect(insight.query.source.version).toBe(5);
    expect((await stored(insight.id)).query).toEqual(trends());
    const listed = await h.api("GET", `${P}/insights/?basic=true`);
    expect(listed.body.results[0].query.source).toEqual({ ...trends().source, version: 5 });
  });

  it("rewrites stored queries on POST /_emulator/upgrade_queries, once, and with the models' defaults on request", async () => {
    await h.reseed<Json>((s) => {
      s.insights.push(
        {
          id: 50,
          team_id: 12345,
          name: "Retention",
          query: { kind: "RetentionQuery", retentionFilter: { showMean: true } },
        },
        {
          id: 51,
          team_id: 12345,
          name: "Old trends",
          query: { kind: "TrendsQuery", series: [{ event: "$pageview" }] },
        },
        {
          id: 52,
          team_id: 12346,
          name: "Staging",
          query: { kind: "TrendsQuery", series: [{ event: "$pageview" }] },
        },
      );
    });
    const read = await h.api("GET", `${P}/insights/50/`);
    expect(read.body.query).toEqual({
      kind: "RetentionQuery",
      version: 2,
      retentionFilter: { meanRetentionCalculation: "simple" },
    });
    expect((await stored(50)).query.retentionFilter).toEqual({ showMean: true });

    const first = await h.control("POST", "upgrade_queries", { project: 12345 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ upgraded: [50, 51], failed: [] });
    expect((await stored(51)).query).toEqual({
      kind: "TrendsQuery",
      version: 5,
      series: [{ event: "$pageview", kind: "EventsNode" }],
    });
    expect((await stored(52)).query.version).toBeUndefined();
    expect((await h.control("POST", "upgrade_queries", { project: 12345 })).body.upgraded).toEqual([]);

    const withDefaults = await h.control("POST", "upgrade_queries", { defaults: true });
    expect(withDefaults.body.upgraded).toEqual([50, 51, 52]);
    expect((await stored(51)).query).toMatchObject({
      filterTestAccounts: false,
      interval: "day",
      properties: [],
    });
    expect((await h.control("POST", "upgrade_queries", { speed: 1 })).status).toBe(400);
  });

  it("validates a request's query like the service's parser: the discriminators and the required fields", async () => {
    const post = (query: unknown) => h.api("POST", `${P}/insights/`, { name: "x", query });
    const kindless = await post(trends([{ event: "$pageview" }]));
    expect(kindless.status).toBe(400);
    expect(kindless.body).toMatchObject({ type: "invalid_request", code: "parse_error", attr: null });
    expect(kindless.body.detail).toContain("InsightVizNode.source.TrendsQuery.series.0");
    expect(kindless.body.detail).toContain("Unable to extract tag using discriminator 'kind'");
    const unknown = await post({ kind: "FancyNode" });
    expect(unknown.body.detail).toMatch(
      /^1 validation error for QuerySchemaRoot\n {2}Input tag 'FancyNode' found using 'kind' does not match/,
    );
    expect(
      (await post({ kind: "DataVisualizationNode", source: { kind: "HogQLQuery" } })).body.detail,
    ).toContain("DataVisualizationNode.source.HogQLQuery.query\n  Field required");
    expect((await post([])).body).toMatchObject({
      attr: "query",
      detail: "Query must be a valid JSON object",
    });
    expect((await h.api("POST", `${P}/insights/`, { name: "x".repeat(401) })).body.attr).toBe("name");
  });
});

describe("the dashboards replace-set", () => {
  it("adds, removes and re-adds tiles, keeping a re-added tile's layout and the insight itself", async () => {
    const insight = await create({ name: "On two", query: trends(), dashboards: [1, 2] });
    const tileOn1 = insight.dashboard_tiles.find((t: Json) => t.dashboard_id === 1).id;
    await h.api("PATCH", `${P}/dashboards/1/`, {
      tiles: [{ id: tileOn1, layouts: { sm: { x: 0, y: 5, w: 6, h: 5 } } }],
    });
    const removed = await h.api("PATCH", `${P}/insights/${insight.id}/`, { dashboards: [2] });
    expect(removed.body.dashboards).toEqual([2]);
    expect(
      (await h.api("GET", `${P}/dashboards/1/`)).body.tiles.some((t: Json) => t.insight?.id === insight.id),
    ).toBe(false);
    expect((await h.api("GET", `${P}/insights/${insight.id}/`)).status).toBe(200);
    await h.api("PATCH", `${P}/insights/${insight.id}/`, { dashboards: [2, 1] });
    const back = (await h.api("GET", `${P}/dashboards/1/`)).body.tiles.find(
      (t: Json) => t.insight?.id === insight.id,
    );
    expect(back).toMatchObject({ id: tileOn1, layouts: { sm: { x: 0, y: 5, w: 6, h: 5 } } });
  });

  it("refuses to add to or remove from a dashboard the caller may not edit (403), changing nothing", async () => {
    const insight = await create({ name: "Finance", query: trends(), dashboards: [3] });
    const bob = { key: BOB_KEY };
    const remove = await h.api("PATCH", `${P}/insights/${insight.id}/`, { dashboards: [] }, bob);
    expect(remove.status).toBe(403);
    // Only on a dashboard bob may not edit, the insight is read-only to him (`CanEditInsight`).
    expect(remove.body.detail).toBe(
      "This insight is on a dashboard that can only be edited by its owner, team members invited to editing the dashboard, and project admins.",
    );
    await h.api("PATCH", `${P}/insights/${insight.id}/`, { dashboards: [3, 1] });
    const partly = await h.api("PATCH", `${P}/insights/${insight.id}/`, { dashboards: [1] }, bob);
    expect(partly.status).toBe(403);
    expect(partly.body.detail).toBe("You don't have permission to remove insights from dashboard: 3");
    const add = await h.api("POST", `${P}/insights/`, { name: "x", dashboards: [3] }, bob);
    expect(add.body.detail).toBe("You don't have permission to add insights to dashboard: 3");
    expect((await h.api("GET", `${P}/insights/${insight.id}/`)).body.dashboards).toEqual([3, 1]);
  });

  it("names a dashboard of another project or a deleted one as a pk that does not exist", async () => {
    const res = await h.api("POST", `${P}/insights/`, { name: "x", dashboards: [5] });
    expect(res.body).toMatchObject({
      attr: "dashboards",
      code: "does_not_exist",
      detail: 'Invalid pk "5" - object does not exist.',
    });
  });

  it("hides the deprecated field only when the opt-in is enforced and not asked for", async () => {
    const insight = await create({ name: "x", dashboards: [1] });
    await h.reseed<Json>((s) => {
      s.service.insight_dashboards_opt_in_enforced = true;
    });
    expect((await h.api("GET", `${P}/insights/${insight.id}/`)).body).not.toHaveProperty("dashboards");
    expect(
      (await h.api("GET", `${P}/insights/?basic=true&include_dashboards=1`)).body.results[0].dashboards,
    ).toEqual([1]);
  });
});

describe("dashboard tiles", () => {
  it("reads insight and text tiles in layout order, each with its order, hiding tiles of deleted insights", async () => {
    const a = await create({ name: "A", query: trends(), dashboards: [1] });
    const b = await create({ name: "B", query: trends(), dashboards: [1] });
    const tiles = (await h.api("GET", `${P}/dashboards/1/`)).body.tiles;
    const idOf = (insightId: number) => tiles.find((t: Json) => t.insight?.id === insightId).id;
    await h.api("PATCH", `${P}/dashboards/1/`, {
      tiles: [
        { id: idOf(a.id), layouts: { sm: { x: 6, y: 0, w: 6, h: 5 } } },
        { id: idOf(b.id), layouts: { sm: { x: 0, y: 5, w: 12, h: 5 } } },
      ],
    });
    let read = (await h.api("GET", `${P}/dashboards/1/`)).body.tiles;
    expect(read.map((t: Json) => [t.order, t.text?.body ?? t.insight.name])).toEqual([
      [0, "Activation and retention"],
      [1, "A"],
      [2, "B"],
    ]);
    expect(read[1].insight).toMatchObject({ id: a.id, result: null, is_cached: false });
    await h.api("PATCH", `${P}/insights/${a.id}/`, { deleted: true });
    read = (await h.api("GET", `${P}/dashboards/1/`)).body.tiles;
    expect(read.map((t: Json) => t.text?.body ?? t.insight.name)).toEqual(["Activation and retention", "B"]);
  });

  it("adds text cards through the PATCH and ignores entries that name no tile of the dashboard", async () => {
    const other = await create({ name: "Elsewhere", query: trends(), dashboards: [2] });
    const otherTile = other.dashboard_tiles[0].id;
    const res = await h.api("PATCH", `${P}/dashboards/1/`, {
      tiles: [
        { text: { body: "## Notes" }, layouts: { sm: { x: 0, y: 10, w: 12, h: 2 } } },
        { insight: { id: other.id }, layouts: { sm: { x: 0, y: 0, w: 6, h: 5 } } },
        { id: otherTile, color: "blue" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.tiles.map((t: Json) => t.text?.body ?? t.insight?.name)).toEqual([
      "Activation and retention",
      "## Notes",
    ]);
    const state = await h.state();
    expect(
      state.dashboards.find((d: Json) => d.id === 2).tiles.find((t: Json) => t.id === otherTile).color,
    ).toBeNull();
    const card = res.body.tiles[1].text;
    const moved = await h.api("PATCH", `${P}/dashboards/2/`, {
      tiles: [{ text: { id: card.id, body: "moved" } }],
    });
    expect(moved.body).toMatchObject({ attr: "text", detail: "Text tile not found." });
  });

  it("soft-deletes a dashboard's only-here insights with delete_insights, and restores them with it", async () => {
    const only = await create({ name: "Only here", query: trends(), dashboards: [4] });
    const shared = await create({ name: "Shared", query: trends(), dashboards: [4, 1] });
    await h.api("PATCH", `${P}/dashboards/4/`, { deleted: true, delete_insights: true });
    expect((await h.api("GET", `${P}/insights/${only.id}/`)).status).toBe(404);
    expect((await h.api("GET", `${P}/insights/${shared.id}/`)).body.dashboards).toEqual([1]);
    await h.api("PATCH", `${P}/dashboards/4/`, { deleted: false });
    expect((await h.api("GET", `${P}/insights/${only.id}/`)).body.dashboards).toEqual([4]);
  });

  it("creates a text tile with create_text_tile (201, no layout unless given)", async () => {
    const res = await h.api("POST", `${P}/dashboards/1/create_text_tile/`, {
      body: "Hi",
      layouts: { sm: { x: "1", y: 2, w: 3, h: 4 }, lg: {} },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      order: null,
      layouts: { sm: { x: 1, y: 2, w: 3, h: 4 } },
      text: { body: "Hi" },
    });
    expect((await h.api("POST", `${P}/dashboards/1/create_text_tile/`, { body: "  " })).body.code).toBe(
      "blank",
    );
    const bob = await h.api("POST", `${P}/dashboards/3/create_text_tile/`, { body: "x" }, { key: BOB_KEY });
    expect(bob.status).toBe(403);
  });
});

describe("the seed", () => {
  it("turns a tile's inline insight into an insight record the tile points at", async () => {
    await h.reseed<Json>((s) => {
      s.dashboards[0].tiles.push({ id: 90, insight: { name: "Inline", query: trends() }, layouts: {} });
    });
    const state = await h.state();
    const tile = state.dashboards[0].tiles.find((t: Json) => t.id === 90);
    const insight = state.insights.find((i: Json) => i.id === tile.insight_id);
    expect(insight).toMatchObject({ name: "Inline", team_id: 12345, deleted: false });
    expect(tile).not.toHaveProperty("insight");
  });
});

describe("throttling", () => {
  it("counts insight requests in the ClickHouse bucket (240 a minute), apart from the other endpoints", async () => {
    for (let i = 0; i < 240; i++) {
      const res = await h.api("GET", `${P}/insights/?basic=true`);
      expect(res.status).toBe(200);
    }
    const refused = await h.api("GET", `${P}/insights/?basic=true`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await h.api("GET", `${P}/events/`)).status).toBe(429);
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(200);
  });
});
