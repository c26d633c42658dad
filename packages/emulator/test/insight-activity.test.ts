/**
 * The insights' activity log beyond what PostHog's own tests cover (test/posthog/insights/): which
 * writes leave a row and with which changes, the two endpoints' pages and links, their scope, access
 * rules and environments twin, and the service's 500 for a page its paginator refuses.
 */
import { describe, expect, it } from "vitest";
import { BOB_KEY } from "../src/default-seed.js";
import { FrozenClock } from "./posthog/harness.js";
import { type Json, P, type PartialState, useEmulator } from "./support/harness.js";

const clock = new FrozenClock();
const h = useEmulator({ clock, rateLimit: "none" });
const START = "2026-03-01T10:00:00.000Z";

async function create(body: Json): Promise<Json> {
  const res = await h.api("POST", `${P}/insights/`, { filters: { events: [{ id: "$pageview" }] }, ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function patch(id: number, body: Json): Promise<Json> {
  const res = await h.api("PATCH", `${P}/insights/${id}/`, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function activity(path: string, key?: string): Promise<Json> {
  const res = await h.api("GET", path, undefined, key === undefined ? {} : { key });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const changesOf = async (id: number) =>
  ((await activity(`${P}/insights/${id}/activity/`)).results as Json[]).map((r) => [
    r.activity,
    r.detail.changes,
  ]);

describe("what an insight write logs", () => {
  it("logs each changed field in the model's order, with created and deleted values as the service shows them", async () => {
    clock.set(START);
    const insight = await create({ name: "Signups" });
    clock.tick(1000);
    await patch(insight.id, {
      description: "weekly",
      favorited: true,
      query: { kind: "InsightVizNode", source: { kind: "TrendsQuery", series: [] } },
      tags: ["b", "a"],
    });
    clock.tick(1000);
    await patch(insight.id, {
      description: "",
      filters: { events: [{ id: "$pageview" }], date_from: "-7d" },
    });
    const rows = await changesOf(insight.id);
    expect(rows.map(([act]) => act)).toEqual(["updated", "updated", "created"]);
    const change = (field: string, action: string, before: unknown, after: unknown) => ({
      type: "Insight",
      action,
      field,
      before,
      after,
    });
    expect(rows[1]?.[1]).toEqual([
      change("tags", "changed", [], ["a", "b"]),
      change("description", "created", null, "weekly"),
      change("query", "created", null, {
        kind: "InsightVizNode",
        source: { kind: "TrendsQuery", series: [] },
      }),
      change("favorited", "changed", false, true),
    ]);
    expect(rows[0]?.[1]).toEqual([
      change("description", "deleted", "weekly", null),
      change(
        "filters",
        "changed",
        { events: [{ id: "$pageview" }] },
        { events: [{ id: "$pageview" }], date_from: "-7d" },
      ),
    ]);
    expect(rows[2]?.[1]).toBeNull();
  });

  it("writes nothing for an update that changes nothing, a refused one, or an insight without any name", async () => {
    const named = await create({ name: "Kept", tags: ["x"] });
    await patch(named.id, { name: "Kept", tags: ["x"], saved: true });
    const refused = await h.api("PATCH", `${P}/insights/${named.id}/`, { name: 5, dashboards: [999999] });
    expect(refused.status).toBe(400);
    const unnamed = await create({});
    await patch(unnamed.id, { description: "still no name" });
    expect((await changesOf(named.id)).map(([act]) => act)).toEqual(["created"]);
    expect(await changesOf(unnamed.id)).toEqual([]);
    // A derived name is a name: the next write is logged under it.
    await patch(unnamed.id, { derived_name: "Pageviews" });
    const [row] = (await activity(`${P}/insights/${unnamed.id}/activity/`)).results;
    expect(row.detail.name).toBe("Pageviews");
    expect(row.detail.changes).toEqual([
      { type: "Insight", action: "created", field: "derived_name", before: null, after: "Pageviews" },
    ]);
  });

  it("logs a move between dashboards from the request, but not leaving every dashboard (as the service)", async () => {
    const one = (await h.api("POST", `${P}/dashboards/`, { name: "One" })).body.id;
    const two = (await h.api("POST", `${P}/dashboards/`, { name: "Two" })).body.id;
    const insight = await create({ name: "Moving", dashboards: [two] });
    await patch(insight.id, { dashboards: [two, one] });
    await patch(insight.id, { dashboards: [] });
    const rows = await changesOf(insight.id);
    expect(rows).toEqual([
      [
        "updated",
        [
          {
            type: "Insight",
            action: "changed",
            field: "dashboards",
            before: [{ id: two, name: "Two" }],
            after: [
              { id: two, name: "Two" },
              { id: one, name: "One" },
            ],
          },
        ],
      ],
      ["created", null],
    ]);
  });

  it("logs a soft delete as deleted and its undo as restored, with the user who did it", async () => {
    const insight = await create({ name: "Gone" });
    await patch(insight.id, { deleted: true });
    // The activity of a deleted insight is not found, like the insight itself.
    expect((await h.api("GET", `${P}/insights/${insight.id}/activity/`)).status).toBe(404);
    const restored = await h.api(
      "PATCH",
      `${P}/insights/${insight.id}/`,
      { deleted: false },
      { key: BOB_KEY },
    );
    expect(restored.status).toBe(200);
    const rows = (await activity(`${P}/insights/${insight.id}/activity/`)).results as Json[];
    expect(rows.map((r) => [r.activity, r.user])).toEqual([
      ["restored", { first_name: "Bob", email: "bob@example.com" }],
      ["deleted", { first_name: "Alice", email: "alice@example.com" }],
      ["created", { first_name: "Alice", email: "alice@example.com" }],
    ]);
  });
});

describe("the activity endpoints", () => {
  it("pages the project's insight activity newest first, ten a page, with absolute page links", async () => {
    clock.set(START);
    const ids: number[] = [];
    for (let n = 1; n <= 12; n++) {
      ids.push((await create({ name: `Insight ${n}` })).id);
      clock.tick(60_000);
    }
    const first = await activity(`${P}/insights/activity/`);
    expect(Object.keys(first)).toEqual(["results", "next", "previous", "total_count"]);
    expect(first.total_count).toBe(12);
    expect(first.results.map((r: Json) => r.detail.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Insight ${12 - i}`),
    );
    expect(first.results[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user: { first_name: "Alice", email: "alice@example.com" },
      activity: "created",
      scope: "Insight",
      item_id: String(ids[11]),
      detail: { changes: null, trigger: null, name: "Insight 12", short_id: expect.any(String), type: null },
      created_at: "2026-03-01T10:11:00Z",
    });
    expect(first.next).toBe(`${h.url}${P}/insights/activity/?page=2&limit=10`);
    expect(first.previous).toBeNull();
    const second = await activity(`${P}/insights/activity/?limit=5&page=2`);
    expect(second.results.map((r: Json) => r.detail.name)).toEqual(
      [7, 6, 5, 4, 3].map((n) => `Insight ${n}`),
    );
    expect(second.next).toBe(`${h.url}${P}/insights/activity/?limit=5&page=3`);
    expect(second.previous).toBe(`${h.url}${P}/insights/activity/?limit=5&page=1`);
    // Flag rows and other projects' rows are not the insights' activity.
    expect(first.results.every((r: Json) => r.scope === "Insight")).toBe(true);
  });

  it("answers a page the service's paginator refuses with its 500", async () => {
    await create({ name: "Only one" });
    for (const query of ["page=2", "page=0", "limit=0", "limit=ten", "page=1.5"]) {
      const res = await h.api("GET", `${P}/insights/activity/?${query}`);
      expect([query, res.status]).toEqual([query, 500]);
    }
    expect((await h.api("GET", `${P}/insights/activity/?limit=+3&page= 1`)).status).toBe(200);
  });

  it("serves the environments twin and only this project's rows", async () => {
    const mine = await create({ name: "Mine" });
    const other = await h.api("POST", "/api/projects/12346/insights/", { name: "Theirs" });
    expect(other.status).toBe(201);
    const env = await activity("/api/environments/12345/insights/activity/");
    expect(env.results.map((r: Json) => r.item_id)).toEqual([String(mine.id)]);
    expect((await h.api("GET", `${P}/insights/${other.body.id}/activity/`)).status).toBe(404);
  });

  it("needs activity_log:read, and viewer access to the insight for its own activity", async () => {
    const insight = await create({ name: "Private" });
    await h.reseed<PartialState>((s) => {
      s.api_keys?.push({ key: "phx_insight_read", user: 1, scopes: ["insight:read"] });
      s.api_keys?.push({ key: "phx_activity_read", user: 1, scopes: ["activity_log:read"] });
    });
    const scoped = await h.api("GET", `${P}/insights/activity/`, undefined, { key: "phx_insight_read" });
    expect(scoped.status).toBe(403);
    expect(scoped.body.detail).toBe("API key missing required scope 'activity_log:read'");
    expect(
      (await h.api("GET", `${P}/insights/activity/`, undefined, { key: "phx_activity_read" })).status,
    ).toBe(200);
    await h.reseed<Json>((s) => {
      for (const o of s.organizations) o.features.access_control = true;
      s.access_controls.push({
        team_id: 12345,
        resource: "insight",
        resource_id: String(insight.id),
        access_level: "none",
      });
    });
    const hidden = await h.api("GET", `${P}/insights/${insight.id}/activity/`, undefined, { key: BOB_KEY });
    expect(hidden.status).toBe(403);
    expect((await h.api("GET", `${P}/insights/${insight.id}/activity/`)).status).toBe(200);
  });

  it("shows seeded rows with their details", async () => {
    const insight = await create({ name: "Seeded" });
    await h.reseed<Json>((s) => {
      s.activity_log.push({
        team_id: 12345,
        scope: "Insight",
        item_id: String(insight.id),
        activity: "updated",
        user: null,
        created_at: "2099-01-01T00:00:00.250Z",
        detail: {
          name: "Seeded",
          changes: [{ type: "Insight", action: "changed", field: "name", before: "Old", after: "Seeded" }],
        },
      });
    });
    const [row] = (await activity(`${P}/insights/${insight.id}/activity/`)).results;
    expect(row.user).toEqual({ first_name: "System", email: null, is_system: true });
    expect(row.created_at).toBe("2099-01-01T00:00:00.250000Z");
    expect(row.detail).toEqual({
      changes: [{ type: "Insight", action: "changed", field: "name", before: "Old", after: "Seeded" }],
      trigger: null,
      name: "Seeded",
      short_id: null,
      type: null,
    });
  });
});
