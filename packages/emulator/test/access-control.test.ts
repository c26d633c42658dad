/**
 * Access control rules (src/emulator/access.ts) through the API, on the default seed: alice (user 1) is
 * an admin of Acme, bob (user 2) and carol (user 3) members; Acme has every paid feature.
 */
import { describe, expect, it } from "vitest";
import { BOB_KEY } from "../src/default-seed.js";
import { type Json, P, useEmulator } from "./support/harness.js";

const h = useEmulator();

/** Adds access control rules to project 12345 (partial records the seed completes). */
async function rules(...added: Array<Record<string, unknown>>) {
  await h.reseed((s: Json) => {
    for (const rule of added) s.access_controls.push({ team_id: 12345, ...rule });
  });
}

async function setEntitlement(on: boolean) {
  await h.reseed((s: Json) => {
    for (const o of s.organizations) o.features.access_control = on;
  });
}

const asBob = { key: BOB_KEY };
const ids = (body: Json) => body.results.map((r: Json) => r.id);

describe("access control rules", () => {
  it("hide an object from those a rule denies, only while the organization has the entitlement", async () => {
    await rules({ resource: "dashboard", resource_id: 2, access_level: "none" });
    await setEntitlement(false);
    expect(ids((await h.api("GET", `${P}/dashboards/`, undefined, asBob)).body)).toContain(2);
    expect((await h.api("GET", `${P}/dashboards/2/`, undefined, asBob)).status).toBe(200);

    await setEntitlement(true);
    expect(ids((await h.api("GET", `${P}/dashboards/`, undefined, asBob)).body)).not.toContain(2);
    const read = await h.api("GET", `${P}/dashboards/2/`, undefined, asBob);
    expect(read.status).toBe(403);
    expect(read.body.detail).toBe("You do not have viewer access to this resource.");
    // An organization admin is not bound by object rules (but lists stay filtered: alice created it).
    expect((await h.api("GET", `${P}/dashboards/2/`)).status).toBe(200);
  });

  it("show the caller's level as user_access_level and refuse writes below editor", async () => {
    let dashboard = (await h.api("GET", `${P}/dashboards/1/`, undefined, asBob)).body;
    expect(dashboard.user_access_level).toBe("editor");
    expect((await h.api("GET", `${P}/dashboards/1/`)).body.user_access_level).toBe("manager");
    // bob created dashboard 4: the creator is its manager.
    expect((await h.api("GET", `${P}/dashboards/4/`, undefined, asBob)).body.user_access_level).toBe(
      "manager",
    );

    await rules({ resource: "dashboard", resource_id: "1", access_level: "viewer", organization_member: 2 });
    dashboard = (await h.api("GET", `${P}/dashboards/1/`, undefined, asBob)).body;
    expect(dashboard.user_access_level).toBe("viewer");
    const write = await h.api("PATCH", `${P}/dashboards/1/`, { name: "renamed" }, asBob);
    expect(write.status).toBe(403);
    expect(write.body.detail).toBe("You do not have editor access to this resource.");
    expect((await h.api("GET", `${P}/dashboards/1/`)).body.name).toBe("Product KPIs");
  });

  it("make a whole resource read-only, a member's rule on one object still granting it", async () => {
    await rules(
      { resource: "dashboard", resource_id: null, access_level: "viewer" },
      { resource: "dashboard", resource_id: "2", access_level: "editor", organization_member: 2 },
    );
    expect((await h.api("GET", `${P}/dashboards/`, undefined, asBob)).status).toBe(200);
    const create = await h.api("POST", `${P}/dashboards/`, { name: "new" }, asBob);
    expect(create.status).toBe(403);
    expect(create.body.detail).toBe("You do not have editor access to this resource.");
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { name: "mine now" }, asBob)).status).toBe(200);
    expect((await h.api("PATCH", `${P}/dashboards/1/`, { name: "not mine" }, asBob)).status).toBe(403);
    expect((await h.api("GET", `${P}/dashboards/1/`, undefined, asBob)).body.user_access_level).toBe(
      "viewer",
    );
  });

  it("keep a private project from the members it was not opened to", async () => {
    await rules({ resource: "project", resource_id: "12345", access_level: "none" });
    const closed = await h.api("GET", `${P}/batch_exports/`, undefined, asBob);
    expect(closed.status).toBe(403);
    expect(closed.body.detail).toBe("You don't have access to the project.");
    expect((await h.api("GET", `${P}/batch_exports/`)).status).toBe(200);
    // Another project of the organization is not affected.
    expect((await h.api("GET", "/api/projects/12346/dashboards/", undefined, asBob)).status).toBe(200);

    await rules({
      resource: "project",
      resource_id: "12345",
      access_level: "member",
      organization_member: 2,
    });
    expect((await h.api("GET", `${P}/batch_exports/`, undefined, asBob)).status).toBe(200);
  });

  it("make a member a project admin, with restriction rights on others' dashboards", async () => {
    const refused = await h.api("PATCH", `${P}/dashboards/1/`, { restriction_level: 37 }, asBob);
    expect(refused.status).toBe(403);
    await rules({ resource: "project", resource_id: "12345", access_level: "admin", organization_member: 2 });
    const allowed = await h.api("PATCH", `${P}/dashboards/1/`, { restriction_level: 37 }, asBob);
    expect(allowed.status).toBe(200);
    expect(allowed.body.effective_restriction_level).toBe(37);
  });

  it("skip insights the caller may not edit in a bulk delete", async () => {
    const created: number[] = [];
    for (const name of ["one", "two"]) {
      created.push((await h.api("POST", `${P}/insights/`, { name, query: trends })).body.id);
    }
    await rules({ resource: "insight", resource_id: String(created[1]), access_level: "viewer" });
    const response = await h.api("POST", `${P}/insights/bulk_delete/`, { ids: created }, asBob);
    expect(response.status).toBe(200);
    expect(response.body.deleted.map((i: Json) => i.id)).toEqual([created[0]]);
    expect(response.body.skipped).toEqual([
      { id: created[1], reason: "You do not have editor access to this resource." },
    ]);
  });

  it("are refused in a seed when malformed", async () => {
    const state = await h.state();
    const bad = await h.control("POST", "seed", {
      ...state,
      access_controls: [{ team_id: 12345, resource: "dashboard", resource_id: 1, access_level: "owner" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('"access_level"');
  });
});

const trends = {
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "$pageview" }] },
};

describe("access control rules on feature flags", () => {
  const FLAGS = `${P}/feature_flags`;
  const flagKeys = (body: Json) => body.results.map((r: Json) => r.key);

  it("none: the flag leaves bob's list, and every read, write and lifecycle action on it is refused", async () => {
    await rules({ resource: "feature_flag", resource_id: "2", access_level: "none", organization_member: 2 });
    expect(flagKeys((await h.api("GET", `${FLAGS}/`, undefined, asBob)).body)).not.toContain("new-checkout");
    const read = await h.api("GET", `${FLAGS}/2/`, undefined, asBob);
    expect(read.status).toBe(403);
    expect(read.body.detail).toBe("You do not have viewer access to this resource.");
    for (const [method, path, body] of [
      ["PATCH", `${FLAGS}/2/`, { name: "mine" }],
      ["PUT", `${FLAGS}/2/`, { key: "new-checkout", name: "mine" }],
      ["POST", `${FLAGS}/2/disable/`, {}],
      ["POST", `${FLAGS}/2/archive/`, {}],
      ["POST", `${FLAGS}/2/enable/`, {}],
      ["POST", `${FLAGS}/2/unarchive/`, {}],
    ] as const) {
      const write = await h.api(method, path, body, asBob);
      expect(write.status, `${method} ${path}`).toBe(403);
      expect(write.body.detail).toBe("You do not have editor access to this resource.");
    }
    const flag = (await h.api("GET", `${FLAGS}/2/`)).body;
    expect(flag).toMatchObject({ name: "New checkout flow", active: true, archived: false });
    // Alice, an organization admin, is not bound by it.
    expect((await h.api("GET", `${FLAGS}/2/`)).body.user_access_level).toBe("manager");
  });

  it("viewer: bob reads the flag (user_access_level viewer, can_edit false) but changes nothing", async () => {
    await rules({
      resource: "feature_flag",
      resource_id: "2",
      access_level: "viewer",
      organization_member: 2,
    });
    const read = await h.api("GET", `${FLAGS}/2/`, undefined, asBob);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ user_access_level: "viewer", can_edit: false });
    const listed = (await h.api("GET", `${FLAGS}/`, undefined, asBob)).body.results;
    expect(listed.find((f: Json) => f.key === "new-checkout")).toMatchObject({ user_access_level: "viewer" });
    expect(listed.find((f: Json) => f.key === "checkout-v1")).toMatchObject({
      user_access_level: "editor",
      can_edit: true,
    });
    expect((await h.api("PATCH", `${FLAGS}/2/`, { name: "mine" }, asBob)).status).toBe(403);
    expect((await h.api("POST", `${FLAGS}/2/disable/`, {}, asBob)).status).toBe(403);
    expect((await h.api("PATCH", `${FLAGS}/1/`, { name: "Checkout v1, edited" }, asBob)).status).toBe(200);
  });

  it("a resource-wide viewer rule makes every flag read-only, creates included; the entitlement switches it", async () => {
    await rules({ resource: "feature_flag", resource_id: null, access_level: "viewer" });
    expect((await h.api("GET", `${FLAGS}/1/`, undefined, asBob)).body.user_access_level).toBe("viewer");
    expect((await h.api("POST", `${FLAGS}/`, { key: "bobs-flag" }, asBob)).status).toBe(403);
    expect((await h.api("POST", `${FLAGS}/1/archive/`, {}, asBob)).status).toBe(403);
    await setEntitlement(false);
    expect((await h.api("GET", `${FLAGS}/1/`, undefined, asBob)).body.user_access_level).toBe("editor");
    expect((await h.api("POST", `${FLAGS}/`, { key: "bobs-flag" }, asBob)).status).toBe(201);
  });
});
