/**
 * Ported from PostHog's posthog/api/test/dashboards/test_dashboard_text_tiles.py (text cards added,
 * changed and removed through the dashboard PATCH). The expected tiles are the test's, plus the fields
 * the newest serializer adds (NEWEST_TILE_FIELDS, and the card's `dashboard_tiles`).
 * PostHog revision: newest stored.
 */
import { expect, it } from "vitest";
import type { Json } from "../../support/harness.js";
import {
  BOB_KEY,
  cite,
  drfTimes,
  NEWEST_TILE_FIELDS,
  newerSource,
  P,
  serialisedUser,
  TEAM,
  usePostHogHarness,
} from "../insights/harness.js";

const name = cite("posthog/api/test/dashboards/test_dashboard_text_tiles.py");
const { h, clock, api } = usePostHogHarness();

async function expectedTileWithText(
  body: string,
  options: { lastModifiedBy?: number; color?: string | null; lastModifiedAt?: string } = {},
) {
  return {
    id: expect.any(Number),
    layouts: {},
    order: 0,
    color: options.color ?? null,
    filters_overrides: {},
    text: {
      id: expect.any(Number),
      body,
      created_by: await serialisedUser(h, 1),
      last_modified_at: options.lastModifiedAt ?? "2022-04-01T12:45:00Z",
      last_modified_by: await serialisedUser(h, options.lastModifiedBy ?? null),
      team: TEAM,
      dashboard_tiles: expect.any(Array),
    },
    last_refresh: null,
    is_cached: false,
    insight: null,
    ...NEWEST_TILE_FIELDS,
  };
}

it(
  newerSource(
    name("test_can_create_a_single_text_tile"),
    "products/dashboards/backend/api/dashboard.py `DashboardTileSerializer` (adds button_tile, show_description, transparent_background and the card's dashboard_tiles)",
  ),
  async () => {
    clock.set("2022-04-01 12:45");
    const [dashboardId] = await api.createDashboard({ name: "dashboard" });
    const [, dashboard] = await api.createTextTile(dashboardId, "hello world");
    expect(dashboard.tiles.length).toBe(1);
    expect(drfTimes(dashboard.tiles[0])).toEqual(await expectedTileWithText("hello world"));
  },
);

it(name("test_can_update_a_single_text_tile"), async () => {
  clock.set("2022-04-01 12:45");
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  await api.createTextTile(dashboardId, "hello world");
  let [, dashboard] = await api.createTextTile(dashboardId, "ciao il mondo");
  expect(dashboard.tiles.length).toBe(2);
  const tileIds = dashboard.tiles.map((t: Json) => t.id).sort((a: number, b: number) => a - b);

  clock.tick(10 * 3_600_000);
  api.key = BOB_KEY; // another member of the organization
  const updated = structuredClone(dashboard.tiles[0]);
  updated.text.body = "anche ciao";
  [, dashboard] = await api.updateTextTile(dashboardId, updated);

  const sorted = drfTimes([...dashboard.tiles].sort((a: Json, b: Json) => a.id - b.id));
  expect(sorted.length).toBe(2);
  expect(sorted[0].id).toBe(tileIds[0]);
  expect(sorted[1].id).toBe(tileIds[1]);
  // the edit to tile 0 has changed the text
  expect(sorted[0].text.body).toBe("anche ciao");
  expect(sorted[1].text.body).toBe("ciao il mondo");
  // created by is set for both tiles
  expect(sorted[0].text.created_by.id).toBe(1);
  expect(sorted[1].text.created_by.id).toBe(1);
  // tile 1 has never been modified so has no modified by user
  expect(sorted[0].text.last_modified_by.id).toBe(2);
  expect(sorted[1].text.last_modified_by).toBeNull();
  // tile 1 has not been modified, but tile 0 has. Tile 0 has a new modified at date
  expect(sorted[0].text.last_modified_at).toBe("2022-04-01T22:45:00Z");
  expect(sorted[1].text.last_modified_at).toBe("2022-04-01T12:45:00Z");
});

it(name("test_can_update_a_single_text_tile_color"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  await api.createTextTile(dashboardId, "hello world");
  let [, dashboard] = await api.createTextTile(dashboardId, "ciao il mondo");
  expect(dashboard.tiles.length).toBe(2);
  const tileIds = dashboard.tiles.map((t: Json) => t.id);
  [, dashboard] = await api.updateTextTile(dashboardId, { ...dashboard.tiles[0], color: "purple" });
  expect(dashboard.tiles.length).toBe(2);
  expect(new Set(dashboard.tiles.map((t: Json) => `${t.id}:${t.color}`))).toEqual(
    new Set([`${tileIds[0]}:purple`, `${tileIds[1]}:null`]),
  );
});

it(name("test_can_remove_text_tiles_from_dashboard"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  let dashboard: Json;
  for (const text of ["io sono testo", "soy texto", "i am text", "ich bin text"]) {
    [, dashboard] = await api.createTextTile(dashboardId, text);
  }
  const lastTile = dashboard.tiles.at(-1);
  // can send just tile id and deleted flag
  const response = await api.call("PATCH", `${P}/dashboards/${dashboardId}`, {
    tiles: [{ id: lastTile.id, deleted: true }],
  });
  expect(response.status).toBe(200);
  const tiles = (await api.getDashboard(dashboardId)).tiles;
  expect(tiles.length).toBe(3);
  expect(tiles.map((t: Json) => t.text.body)).toEqual(["io sono testo", "soy texto", "i am text"]);
});

it(name("test_do_not_see_deleted_text_tiles_when_adding_new_ones"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  await api.createTextTile(dashboardId, "io sono testo");
  const [, dashboard] = await api.createTextTile(dashboardId, "soy texto");
  expect(dashboard.tiles.length).toBe(2);
  await api.updateTextTile(dashboardId, { ...dashboard.tiles[0], deleted: true });
  expect((await api.getDashboard(dashboardId)).tiles.length).toBe(1);
  const [, withAnother] = await api.createTextTile(dashboardId, "i am a third text");
  expect(withAnother.tiles.length).toBe(2);
  expect(withAnother.tiles.map((t: Json) => t.text.body).sort()).toEqual(
    ["soy texto", "i am a third text"].sort(),
  );
});

it(name("test_cannot_create_text_tile_with_body_over_4000_characters"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  // Test with exactly 4000 characters (should work)
  let response = await api.call("PATCH", `${P}/dashboards/${dashboardId}`, {
    tiles: [{ text: { body: "a".repeat(4000) } }],
  });
  expect(response.status).toBe(200);
  // Test with 4001 characters (should fail)
  response = await api.call("PATCH", `${P}/dashboards/${dashboardId}`, {
    tiles: [{ text: { body: "a".repeat(4001) } }],
  });
  expect(response.status).toBe(400);
  expect(response.body.type).toBe("validation_error");
  expect(response.body.code).toBe("max_length");
  expect(response.body.detail).toBe("Text body cannot exceed 4000 characters");
  expect(response.body.attr).toBe("text__body");
});

it(name("test_cannot_update_text_tile_with_body_over_4000_characters"), async () => {
  const [dashboardId] = await api.createDashboard({ name: "dashboard" });
  const [, dashboard] = await api.createTextTile(dashboardId, "hello world");
  const tile = dashboard.tiles[0];
  const response = await api.call("PATCH", `${P}/dashboards/${dashboardId}`, {
    tiles: [{ id: tile.id, text: { ...tile.text, body: "b".repeat(4001) } }],
  });
  expect(response.status).toBe(400);
  expect(response.body.type).toBe("validation_error");
  expect(response.body.code).toBe("max_length");
  expect(response.body.detail).toBe("Text body cannot exceed 4000 characters");
  expect(response.body.attr).toBe("text__body");
});
