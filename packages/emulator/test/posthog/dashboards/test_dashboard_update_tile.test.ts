/**
 * Ported from PostHog's products/dashboards/backend/api/test/test_dashboard_update_tile.py
 * (`update_tile`). Widget tiles are not modelled.
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import type { Json } from "../../support/harness.js";
import { cite, notPorted, OTHER_TEAM, P, usePostHogHarness } from "../insights/harness.js";

const name = cite("products/dashboards/backend/api/test/test_dashboard_update_tile.py");
const { h, api } = usePostHogHarness();

const trendsQuery = {
  kind: "InsightVizNode",
  source: {
    kind: "TrendsQuery",
    series: [{ kind: "EventsNode", event: "$pageview" }],
    dateRange: { date_from: "-7d" },
    trendsFilter: { display: "ActionsLineGraph" },
  },
};

async function makeInsightTile(): Promise<[number, number]> {
  const [dashboardId] = await api.createDashboard({ name: "dash" });
  await api.createInsight({ name: "A", query: trendsQuery, dashboards: [dashboardId] });
  const tile = (await api.getDashboard(dashboardId)).tiles[0];
  return [dashboardId, tile.id];
}

async function update(dashboardId: number, payload: Json, status = 200): Promise<Json> {
  const response = await api.call("POST", `${P}/dashboards/${dashboardId}/update_tile/`, payload);
  expect(response.status, response.text).toBe(status);
  return response.body;
}

const storedTile = async (id: number): Promise<Json> =>
  (await h.state()).dashboards.flatMap((d: Json) => d.tiles).find((t: Json) => t.id === id);

describe(name("test_sets_show_description"), () => {
  it.each([
    ["insight_hide", false],
    ["insight_show", true],
  ])(name("test_sets_show_description", "%s"), async (_case, value) => {
    const [dashboardId, tileId] = await makeInsightTile();
    const body = await update(dashboardId, { tile_id: tileId, show_description: value });
    expect(body.show_description).toBe(value);
    expect((await storedTile(tileId)).show_description).toBe(value);
  });
  notPorted(name("test_sets_show_description", "widget_hide"), "dashboard widgets are not modelled");
  notPorted(name("test_sets_show_description", "widget_show"), "dashboard widgets are not modelled");
});

it(name("test_sets_color"), async () => {
  const [dashboardId, tileId] = await makeInsightTile();
  await update(dashboardId, { tile_id: tileId, color: "blue" });
  expect((await storedTile(tileId)).color).toBe("blue");
});

it(name("test_sets_layouts"), async () => {
  const [dashboardId, tileId] = await makeInsightTile();
  const layouts = { sm: { x: 0, y: 0, w: 6, h: 5 } };
  await update(dashboardId, { tile_id: tileId, layouts });
  expect((await storedTile(tileId)).layouts).toEqual(layouts);
});

it(name("test_only_updates_provided_fields"), async () => {
  const [dashboardId, tileId] = await makeInsightTile();
  await api.store((s) => {
    for (const d of s.dashboards) for (const t of d.tiles) if (t.id === tileId) t.color = "green";
  });
  await update(dashboardId, { tile_id: tileId, show_description: false });
  const tile = await storedTile(tileId);
  expect(tile.show_description).toBe(false);
  expect(tile.color).toBe("green");
});

it(name("test_rejects_text_tile"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dash" });
  const tileId = await api.addTile(dashboardId, { text: { body: "hi" } });
  await update(dashboardId, { tile_id: tileId, show_description: false }, 400);
});

it(name("test_rejects_tile_from_other_dashboard"), async () => {
  const [dashboardId] = await makeInsightTile();
  const [, otherTileId] = await makeInsightTile();
  await update(dashboardId, { tile_id: otherTileId, show_description: false }, 404);
});

it(name("test_rejects_dashboard_from_other_team"), async () => {
  const otherDashboard = await api.addDashboard({ team_id: OTHER_TEAM, name: "other" });
  await update(otherDashboard, { tile_id: 1, show_description: false }, 404);
});
