import { request } from "undici";
import { describe, expect, it } from "vitest";
import { BOB_KEY } from "../src/default-seed.js";
import { schemaErrors } from "./openapi.js";
import { P, useEmulator } from "./support/harness.js";

const h = useEmulator();

describe("dashboards list", () => {
  it("answers the limit/offset envelope with Basic items, pinned first then by name", async () => {
    const res = await h.api("GET", `${P}/dashboards/`);
    expect(res.status).toBe(200);
    expect(schemaErrors("PaginatedDashboardBasicList", res.body)).toEqual([]);
    expect(res.body.count).toBe(4);
    expect(res.body.results.map((d: { name: string }) => d.name)).toEqual([
      "Product KPIs",
      "Marketing Overview",
      "Onboarding Funnel",
      "Revenue",
    ]);
    expect(res.body.results[0]).not.toHaveProperty("tiles");
    expect(res.body.results[0]).not.toHaveProperty("filters");
  });

  it("builds absolute next/previous links from the Host header, dropping offset on the first page", async () => {
    const first = await h.api("GET", `${P}/dashboards/?limit=1&offset=1`);
    const host = new URL(h.url).host;
    expect(first.body.next).toBe(`http://${host}${P}/dashboards/?limit=1&offset=2`);
    expect(first.body.previous).toBe(`http://${host}${P}/dashboards/?limit=1`);
    const last = await h.api("GET", `${P}/dashboards/?limit=2&offset=2`);
    expect(last.body.next).toBeNull();
    expect(last.body.results).toHaveLength(2);
    // fetch forbids setting Host; undici's request does not.
    const custom = await request(`${h.url}${P}/dashboards/?limit=1`, {
      headers: { host: "localhost:1234", authorization: `Bearer ${h.key}` },
    });
    expect(((await custom.body.json()) as { next: string }).next).toBe(
      `http://localhost:1234${P}/dashboards/?limit=1&offset=1`,
    );
  });

  it("filters by search, tags and creation_mode, and serves the environments path", async () => {
    const search = await h.api("GET", `${P}/dashboards?search=revenue`);
    expect(search.body.results.map((d: { id: number }) => d.id)).toEqual([3]);
    const tags = await h.api("GET", `${P}/dashboards/?tags=marketing&tags=finance`);
    expect(tags.body.results.map((d: { id: number }) => d.id).sort()).toEqual([2, 3]);
    await h.api("POST", `${P}/dashboards/`, { name: "Hidden" });
    const env = await h.api("GET", "/api/environments/12345/dashboards/");
    expect(env.status).toBe(200);
    expect(env.body.count).toBe(5);
    expect(env.body.next).toBeNull();
    const long = await h.api("GET", `${P}/dashboards/?search=${"x".repeat(201)}`);
    expect(long.status).toBe(400);
  });
});

describe("dashboard create / retrieve / update", () => {
  it("creates with 201, normalising tags and recording the key's user", async () => {
    const res = await h.api("POST", `${P}/dashboards/`, {
      name: "Ops",
      tags: [" Ops ", "ops", "SRE"],
      pinned: true,
    });
    expect(res.status).toBe(201);
    expect(schemaErrors("Dashboard", res.body)).toEqual([]);
    expect(res.body.tags.sort()).toEqual(["ops", "sre"]);
    expect(res.body.created_by.uuid).toBe("0190f1d2-7b4e-7c3a-9d1f-000000000001");
    expect(res.body.creation_mode).toBe("default");
    expect(res.body.id).toBe(6);
    const again = await h.api("POST", `${P}/dashboards/`, { name: "Ops" });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(7);
    const got = await h.api("GET", `${P}/dashboards/6/`);
    expect(got.body.name).toBe("Ops");
    expect(schemaErrors("Dashboard", got.body)).toEqual([]);
  });

  it("rejects bad restriction levels, filters and types with the service's messages", async () => {
    const level = await h.api("POST", `${P}/dashboards/`, { name: "x", restriction_level: 30 });
    expect(level.status).toBe(400);
    expect(level.body).toEqual({
      type: "validation_error",
      code: "invalid_choice",
      detail: '"30" is not a valid choice.',
      attr: "restriction_level",
    });
    const filters = await h.api("PATCH", `${P}/dashboards/1/`, { filters: [1] });
    expect(filters.status).toBe(400);
    expect(filters.body.detail).toBe("Filters must be a dictionary");
    const pinned = await h.api("PATCH", `${P}/dashboards/1/`, { pinned: "maybe" });
    expect(pinned.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail: "Must be a valid boolean.",
      attr: "pinned",
    });
    const notObject = await h.api("POST", `${P}/dashboards/`, [1, 2]);
    expect(notObject.status).toBe(400);
    expect(notObject.body.attr).toBeNull();
    const both = await h.api("POST", `${P}/dashboards/`, { use_template: "a", use_dashboard: 1 });
    expect(both.body.detail).toBe("`use_dashboard` and `use_template` cannot be used together");
  });

  it("ignores an empty filters object on PATCH but applies a non-empty one", async () => {
    const empty = await h.api("PATCH", `${P}/dashboards/4/`, { filters: {} });
    expect(empty.body.filters).toEqual({ date_from: "-30d" });
    const set = await h.api("PATCH", `${P}/dashboards/4/`, { filters: { date_from: "-7d" }, name: "Funnel" });
    expect(set.body.filters).toEqual({ date_from: "-7d" });
    expect(set.body.name).toBe("Funnel");
    expect(set.body).toHaveProperty("tiles");
  });

  it("supports PUT like PATCH and computes effective levels", async () => {
    const put = await h.api("PUT", `${P}/dashboards/2`, {
      description: "all channels",
      restriction_level: 37,
    });
    expect(put.status).toBe(200);
    expect(put.body.description).toBe("all channels");
    expect(put.body.effective_restriction_level).toBe(37);
    expect(put.body.access_control_version).toBe("v1");
  });

  it("answers DELETE with 405 and an empty body", async () => {
    const res = await h.api("DELETE", `${P}/dashboards/1/`);
    expect(res.status).toBe(405);
    expect(res.text).toBe("");
    expect((await h.api("GET", `${P}/dashboards/1/`)).status).toBe(200);
  });

  it("soft-deletes with PATCH deleted:true, tiles included; restores with any false-ish deleted (newest)", async () => {
    const del = await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true });
    expect(del.status).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect((await h.api("GET", `${P}/dashboards/2/`)).status).toBe(404);
    expect((await h.api("GET", `${P}/dashboards/`)).body.count).toBe(3);
    // Without a false-ish deleted (or with null) the dashboard stays out of reach.
    for (const body of [{ name: "x" }, { deleted: null, name: "x" }, { deleted: "yes" }]) {
      expect((await h.api("PATCH", `${P}/dashboards/2/`, body)).status).toBe(404);
    }
    // Newest: other keys may come along, "false" and 0 are false-ish, PUT restores too.
    const restore = await h.api("PATCH", `${P}/dashboards/2/`, { deleted: "false", name: "Marketing" });
    expect(restore.status).toBe(200);
    expect(restore.body).toMatchObject({ deleted: false, name: "Marketing" });
    expect(restore.body.tiles.map((t: { id: number }) => t.id)).toEqual([2]);
    expect((await h.api("GET", `${P}/dashboards/`)).body.count).toBe(4);
    await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true });
    const put = await h.api("PUT", `${P}/dashboards/2/`, { deleted: 0, description: "back" });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ deleted: false, description: "back" });
    // A false-ish value that is not a boolean reaches the dashboard, then fails validation.
    await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true });
    const bad = await h.api("PATCH", `${P}/dashboards/2/`, { deleted: "nope" });
    expect(bad.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail: "Must be a valid boolean.",
      attr: "deleted",
    });
  });

  it("shows the project-tree folder and lists a folder's direct children (newest)", async () => {
    const made = await h.api("POST", `${P}/dashboards/`, { name: "Filed", _create_in_folder: "Team/Growth" });
    expect(made.body.folder).toBe("Team/Growth");
    const plain = await h.api("POST", `${P}/dashboards/`, { name: "Plain" });
    expect(plain.body.folder).toBe("Unfiled/Dashboards");
    const growth = await h.api("GET", `${P}/dashboards/?folder=Team/Growth`);
    expect(growth.body.results.map((d: { name: string; folder: string }) => [d.name, d.folder])).toEqual([
      ["Filed", "Team/Growth"],
    ]);
    expect((await h.api("GET", `${P}/dashboards/?folder=Team`)).body.count).toBe(0);
    expect((await h.api("GET", `${P}/dashboards/?folder=Unfiled/Dashboards`)).body.count).toBe(5);
  });

  it("returns 404 for unknown ids and other projects' dashboards", async () => {
    expect((await h.api("GET", `${P}/dashboards/999/`)).status).toBe(404);
    expect((await h.api("GET", `${P}/dashboards/5/`)).status).toBe(404);
    expect((await h.api("GET", "/api/projects/12346/dashboards/5/")).status).toBe(200);
    expect((await h.api("GET", `${P}/dashboards/abc/`)).status).toBe(404);
  });

  it("moves a tile and creates from a template JSON", async () => {
    const move = await h.api("PATCH", `${P}/dashboards/1/move_tile/`, { tile: { id: 1 }, toDashboard: 2 });
    expect(move.status).toBe(200);
    expect(move.body.tiles).toEqual([]);
    const target = await h.api("GET", `${P}/dashboards/2/`);
    expect(target.body.tiles.map((t: { id: number }) => t.id).sort()).toEqual([1, 2]);
    const tpl = await h.api("POST", `${P}/dashboards/create_from_template_json/`, {
      template: {
        template_name: "From template",
        dashboard_description: "d",
        dashboard_filters: {},
        tags: ["T"],
        tiles: [{ type: "TEXT", body: "hi" }],
      },
    });
    expect(tpl.status).toBe(200);
    expect(tpl.body.creation_mode).toBe("template");
    expect(tpl.body.tags).toEqual(["t"]);
    expect(tpl.body.tiles).toHaveLength(1);
  });
});

describe("organization switches", () => {
  it("drops tags silently and keeps effective restriction at 21 without the paid features", async () => {
    await h.reseed((s) => {
      for (const o of s.organizations)
        o.features = { tagging: false, access_control: false, advanced_permissions: false };
    });
    const list = await h.api("GET", `${P}/dashboards/`);
    expect(list.body.results.every((d: { tags: string[] }) => d.tags.length === 0)).toBe(true);
    const created = await h.api("POST", `${P}/dashboards/`, {
      name: "T",
      tags: ["a"],
      restriction_level: 37,
    });
    expect(created.body.tags).toEqual([]);
    expect(created.body.restriction_level).toBe(37);
    expect(created.body.effective_restriction_level).toBe(21);
    const org = await h.api("GET", "/api/organizations/@current/");
    expect(org.body.available_product_features).toEqual([]);
  });

  it("lists the paid features on the organization and retrieves projects", async () => {
    const org = await h.api("GET", "/api/organizations/@current/");
    expect(org.body.available_product_features.map((f: { key: string }) => f.key)).toEqual([
      "tagging",
      "advanced_permissions",
      "access_control",
    ]);
    const byId = await h.api("GET", `/api/organizations/${org.body.id}/`);
    expect(byId.body.name).toBe("Acme");
    const project = await h.api("GET", `${P}/`);
    expect(project.body).toEqual({
      id: 12345,
      name: "Production",
      organization: org.body.id,
      primary_dashboard: null,
    });
  });
});

describe("dashboard permissions", () => {
  const RESTRICT =
    "Only the dashboard owner and project admins have the restriction rights required to change the dashboard's restriction level.";
  const bob = { key: BOB_KEY };

  it("refuse any body containing restriction_level, even unchanged, from a non-admin who did not create it", async () => {
    // The default seed: alice (admin) created dashboards 1-3 and 5, bob (member) only dashboard 4.
    for (const level of [21, 37]) {
      const res = await h.api("PATCH", `${P}/dashboards/1/`, { restriction_level: level }, bob);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        type: "authentication_error",
        code: "permission_denied",
        detail: RESTRICT,
        attr: null,
      });
    }
    const put = await h.api("PUT", `${P}/dashboards/1/`, { name: "KPIs", restriction_level: 21 }, bob);
    expect(put.status).toBe(403);
    // The same edit without the key goes through; bob may restrict his own dashboard; alice any.
    expect((await h.api("PATCH", `${P}/dashboards/1/`, { name: "KPIs" }, bob)).status).toBe(200);
    expect((await h.api("PATCH", `${P}/dashboards/4/`, { restriction_level: 21 }, bob)).status).toBe(200);
    expect((await h.api("PATCH", `${P}/dashboards/4/`, { restriction_level: 37 })).status).toBe(200);
    // Checked after field validation, before filters are read.
    const invalid = await h.api(
      "PATCH",
      `${P}/dashboards/1/`,
      { restriction_level: 21, pinned: "maybe" },
      bob,
    );
    expect(invalid.body.attr).toBe("pinned");
    const filters = await h.api("PATCH", `${P}/dashboards/1/`, { restriction_level: 21, filters: [1] }, bob);
    expect(filters.status).toBe(403);
    // Whatever the organization's features.
    await h.reseed((s) => {
      for (const o of s.organizations) o.features.access_control = false;
    });
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { restriction_level: 21 }, bob)).status).toBe(403);
  });

  it("let only editors edit level-37 dashboards; a collaborator still cannot send restriction_level", async () => {
    await h.reseed((s) => s.api_keys.push({ key: "phx_carol", user: 3, scopes: ["*"] }));
    const edit = await h.api("PATCH", `${P}/dashboards/3/`, { name: "mine" }, bob);
    expect(edit.status).toBe(403);
    expect(edit.body.detail).toBe("You don't have edit permissions for this dashboard.");
    const view = await h.api("GET", `${P}/dashboards/3/`, undefined, bob);
    expect(view.body.effective_privilege_level).toBe(21);
    const carol = await h.api("PATCH", `${P}/dashboards/3/`, { name: "ok" }, { key: "phx_carol" });
    expect(carol.status).toBe(200);
    expect(carol.body.effective_privilege_level).toBe(37);
    const unchanged = await h.api(
      "PATCH",
      `${P}/dashboards/3/`,
      { restriction_level: 37 },
      { key: "phx_carol" },
    );
    expect(unchanged.status).toBe(403);
    expect(unchanged.body.detail).toBe(RESTRICT);
  });
});
