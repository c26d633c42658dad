/**
 * Ported from PostHog's posthog/api/test/dashboards/test_dashboard_delete_tile.py (`delete_tile`).
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import type { Json } from "../../support/harness.js";
import { cite, notPorted, P, usePostHogHarness } from "../insights/harness.js";

const name = cite("posthog/api/test/dashboards/test_dashboard_delete_tile.py");
const { h, api } = usePostHogHarness();

async function deleteTile(dashboardId: number, tileId: number, status = 204) {
  const response = await api.call("POST", `${P}/dashboards/${dashboardId}/delete_tile`, { tile_id: tileId });
  expect(response.status, response.text).toBe(status);
  return response;
}

const storedTile = async (id: number): Promise<Json> =>
  (await h.state()).dashboards.flatMap((d: Json) => d.tiles).find((t: Json) => t.id === id);

/** `DashboardTile.objects.filter(id=...).update(layouts=...)`. */
async function setLayouts(layouts: Record<number, Json>) {
  await api.store((s) => {
    for (const d of s.dashboards) for (const t of d.tiles) if (t.id in layouts) t.layouts = layouts[t.id];
  });
}

it(name("test_can_delete_a_text_tile"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  await api.createTextTile(dashboardId, "hello world");
  const [, dashboard] = await api.createTextTile(dashboardId, "second tile");
  const toDelete = dashboard.tiles[0];
  await deleteTile(dashboardId, toDelete.id);
  const remaining = (await api.getDashboard(dashboardId)).tiles;
  expect(remaining.length).toBe(1);
  expect(remaining[0].id).not.toBe(toDelete.id);
  const tile = await storedTile(toDelete.id);
  expect(tile.deleted).toBe(true);
  expect(tile.text).not.toBeNull();
});

it(name("test_can_delete_an_insight_tile_without_deleting_the_insight"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  const [insightId] = await api.createInsight({ name: "insight", dashboards: [dashboardId] });
  const tiles = (await api.getDashboard(dashboardId)).tiles;
  expect(tiles.length).toBe(1);
  await deleteTile(dashboardId, tiles[0].id);
  expect((await api.getDashboard(dashboardId)).tiles).toEqual([]);
  expect((await api.call("GET", `${P}/insights/${insightId}`)).status).toBe(200);
});

notPorted(
  name("test_delete_tile_fires_tile_removed_event", "text"),
  "asserts PostHog's product-analytics events, which the emulator does not send",
);
notPorted(
  name("test_delete_tile_fires_tile_removed_event", "insight"),
  "asserts PostHog's product-analytics events, which the emulator does not send",
);

describe(name("test_delete_returns_404"), () => {
  const setups: Array<[string, () => Promise<[number, number]>]> = [
    [
      "unknown_tile_id",
      async () => {
        const [d] = await api.createDashboard({ name: "dashboard" });
        return [d, 9_999_999];
      },
    ],
    [
      "tile_belongs_to_other_dashboard",
      async () => {
        const [a] = await api.createDashboard({ name: "a" });
        const [b] = await api.createDashboard({ name: "b" });
        const [, dashboard] = await api.createTextTile(a, "on a");
        return [b, dashboard.tiles[0].id];
      },
    ],
    [
      "parent_dashboard_soft_deleted",
      async () => {
        const [d] = await api.createDashboard({ name: "dashboard" });
        const [, dashboard] = await api.createTextTile(d, "hi");
        await api.call("PATCH", `${P}/dashboards/${d}`, { deleted: true });
        return [d, dashboard.tiles[0].id];
      },
    ],
    [
      "tile_already_soft_deleted",
      async () => {
        const [d] = await api.createDashboard({ name: "dashboard" });
        const [, dashboard] = await api.createTextTile(d, "hi");
        await deleteTile(d, dashboard.tiles[0].id);
        return [d, dashboard.tiles[0].id];
      },
    ],
  ];
  it.each(setups)(name("test_delete_returns_404", "%s"), async (_case, setup) => {
    const [dashboardId, tileId] = await setup();
    await deleteTile(dashboardId, tileId, 404);
  });
});

it(name("test_delete_tile_requires_tile_id"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  expect((await api.call("POST", `${P}/dashboards/${dashboardId}/delete_tile`, {})).status).toBe(400);
});

it(name("test_delete_tile_compacts_remaining_layout"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  let dashboard: Json;
  for (const text of ["top", "middle", "bottom"]) [, dashboard] = await api.createTextTile(dashboardId, text);
  const ids: number[] = dashboard.tiles.map((t: Json) => t.id);
  await setLayouts(
    Object.fromEntries(
      ids.map((id, i) => [id, { sm: { x: 0, y: i * 5, w: 6, h: 5 }, xs: { x: 0, y: i * 5, w: 6, h: 5 } }]),
    ),
  );
  // Remove the middle tile (y=5); the bottom tile should slide up into the gap.
  await deleteTile(dashboardId, ids[1] as number);
  const top = await storedTile(ids[0] as number);
  const bottom = await storedTile(ids[2] as number);
  expect(top.layouts.sm).toEqual({ x: 0, y: 0, w: 6, h: 5 });
  // Compaction preserves x/w/h and only pulls y up to close the gap (10 -> 5).
  expect(bottom.layouts.sm).toEqual({ x: 0, y: 5, w: 6, h: 5 });
  expect(bottom.layouts.xs).toEqual({ x: 0, y: 5, w: 6, h: 5 });
});

it(name("test_delete_tile_compacts_per_column_without_disturbing_other_columns"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  let dashboard: Json;
  for (const text of ["left top", "right top", "left middle", "right gapped"])
    [, dashboard] = await api.createTextTile(dashboardId, text);
  const ids: number[] = dashboard.tiles.map((t: Json) => t.id);
  const layouts = [
    { x: 0, y: 0, w: 6, h: 5 }, // left top
    { x: 6, y: 0, w: 6, h: 5 }, // right top
    { x: 0, y: 5, w: 6, h: 5 }, // left middle (to be deleted)
    { x: 6, y: 10, w: 6, h: 5 }, // right column, with a gap at rows 5-9
  ];
  await setLayouts(
    Object.fromEntries(ids.map((id, i) => [id, { sm: layouts[i], xs: { ...layouts[i], x: 0, w: 1 } }])),
  );
  await deleteTile(dashboardId, ids[2] as number);
  expect((await storedTile(ids[0] as number)).layouts.sm).toEqual({ x: 0, y: 0, w: 6, h: 5 });
  expect((await storedTile(ids[1] as number)).layouts.sm).toEqual({ x: 6, y: 0, w: 6, h: 5 });
  expect((await storedTile(ids[3] as number)).layouts.sm).toEqual({ x: 6, y: 5, w: 6, h: 5 });
});

it(name("test_delete_tile_leaves_tiles_without_layouts_alone"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  let dashboard: Json;
  for (const text of ["positioned", "unpositioned", "to delete"])
    [, dashboard] = await api.createTextTile(dashboardId, text);
  const ids: number[] = dashboard.tiles.map((t: Json) => t.id);
  await setLayouts({ [ids[0] as number]: { sm: { x: 0, y: 10, w: 6, h: 5 } }, [ids[1] as number]: {} });
  await deleteTile(dashboardId, ids[2] as number);
  expect((await storedTile(ids[0] as number)).layouts.sm).toEqual({ x: 0, y: 0, w: 6, h: 5 });
  expect((await storedTile(ids[1] as number)).layouts).toEqual({});
});
