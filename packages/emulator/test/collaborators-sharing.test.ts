import { describe, expect, it } from "vitest";
import { schemaErrors } from "./openapi.js";
import { P, USER_UUIDS, useEmulator } from "./support/harness.js";

const h = useEmulator();
const C = `${P}/dashboards/3/collaborators/`;

describe("collaborators", () => {
  it("lists a plain array of collaborators", async () => {
    const res = await h.api("GET", C);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((c: { user: { uuid: string } }) => c.user.uuid)).toEqual([USER_UUIDS.carol]);
    for (const item of res.body) expect(schemaErrors("DashboardCollaborator", item)).toEqual([]);
  });

  it("adds a collaborator with 201 and removes it with 204", async () => {
    const add = await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 37 });
    expect(add.status).toBe(201);
    expect(schemaErrors("DashboardCollaborator", add.body)).toEqual([]);
    expect(add.body.level).toBe(37);
    expect((await h.api("GET", C)).body).toHaveLength(2);
    const del = await h.api("DELETE", `${C}${USER_UUIDS.bob}/`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await h.api("GET", C)).body).toHaveLength(1);
  });

  it("applies the service's checks in order", async () => {
    const detail = async (path: string, body: unknown) => {
      const res = await h.api("POST", path, body);
      expect(res.status).toBe(400);
      expect(res.body.type).toBe("validation_error");
      expect(res.body.code).toBe("invalid_input");
      return res.body.detail;
    };
    // Lowest restriction level comes before the level check.
    expect(await detail(`${P}/dashboards/1/collaborators/`, { user_uuid: USER_UUIDS.bob, level: 21 })).toBe(
      "Cannot add collaborators to a dashboard on the lowest restriction level.",
    );
    expect(await detail(C, { user_uuid: USER_UUIDS.bob, level: 21 })).toBe(
      "Only edit access can be explicitly specified currently.",
    );
    expect(await detail(C, { user_uuid: "0190f1d2-7b4e-7c3a-9d1f-000000000099", level: 37 })).toBe(
      "User does not exist.",
    );
    expect(await detail(C, { user_uuid: USER_UUIDS.erin, level: 37 })).toBe("User does not exist.");
    expect(await detail(C, { user_uuid: USER_UUIDS.dave, level: 37 })).toBe(
      "Cannot add collaborators that have no access to the project.",
    );
    expect(await detail(C, { user_uuid: USER_UUIDS.alice, level: 37 })).toBe(
      "Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).",
    );
    expect(await detail(C, { user_uuid: USER_UUIDS.carol, level: 37 })).toBe(
      "User already is a collaborator.",
    );
    const missing = await h.api("POST", C, { level: 37 });
    expect(missing.body).toEqual({
      type: "validation_error",
      code: "required",
      detail: "This field is required.",
      attr: "user_uuid",
    });
    const choice = await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 5 });
    expect(choice.body.attr).toBe("level");
    expect(choice.body.detail).toBe('"5" is not a valid choice.');
  });

  it("refuses removal at the lowest level, unknown dashboards and non-editors", async () => {
    const low = await h.api("DELETE", `${P}/dashboards/1/collaborators/${USER_UUIDS.bob}/`);
    expect(low.status).toBe(400);
    expect(low.body.detail).toBe(
      "Cannot remove collaborators from a dashboard on the lowest restriction level.",
    );
    const missing = await h.api("GET", `${P}/dashboards/999/collaborators/`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("Dashboard not found.");
    await h.reseed((s) => s.api_keys.push({ key: "phx_bob", user: 2, scopes: ["*"] }));
    const denied = await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 37 }, { key: "phx_bob" });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toBe("You don't have edit permissions for this dashboard.");
  });

  it("treats a stored level 37 as lowest without the organization's access control feature", async () => {
    // Newest: ACCESS_CONTROL decides; ADVANCED_PERMISSIONS alone no longer makes level 37 effective.
    await h.reseed((s) => {
      for (const o of s.organizations) o.features.advanced_permissions = false;
    });
    const still = await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 37 });
    expect(still.status).toBe(201);
    await h.reseed((s) => {
      for (const o of s.organizations) o.features.access_control = false;
    });
    const res = await h.api("POST", C, { user_uuid: USER_UUIDS.bob, level: 37 });
    expect(res.body.detail).toBe("Cannot add collaborators to a dashboard on the lowest restriction level.");
  });
});

describe("sharing", () => {
  const S = `${P}/dashboards/2/sharing/`;

  it("is lazy: unsaved configuration with a fresh token on every GET", async () => {
    const a = await h.api("GET", S);
    const b = await h.api("GET", S);
    expect(a.status).toBe(200);
    expect(schemaErrors("SharingConfiguration", a.body)).toEqual([]);
    expect(a.body.enabled).toBe(false);
    expect(a.body.created_at).toBeNull();
    expect(a.body.access_token).toHaveLength(30);
    expect(a.body.access_token).not.toBe(b.body.access_token);
  });

  it("saves on PATCH, mirrors is_shared, keeps the token stable and rotates it on refresh", async () => {
    const on = await h.api("PATCH", S, { enabled: true, settings: { whitelabel: true, bogus: 1 } });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
    expect(on.body.created_at).not.toBeNull();
    expect(on.body.settings).toEqual({ whitelabel: true });
    expect((await h.api("GET", S)).body.access_token).toBe(on.body.access_token);
    expect((await h.api("GET", `${P}/dashboards/2/`)).body.is_shared).toBe(true);
    const refreshed = await h.api("POST", `${S}refresh/`);
    expect(refreshed.body.access_token).not.toBe(on.body.access_token);
    expect(refreshed.body.enabled).toBe(true);
    await h.api("PATCH", S, { enabled: false });
    expect((await h.api("GET", `${P}/dashboards/2/`)).body.is_shared).toBe(false);
  });

  it("keeps is_shared, settings and password protection across token refreshes, which keep working", async () => {
    await h.api("PATCH", S, { enabled: true, settings: { noHeader: true }, password_required: true });
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const refreshed = await h.api("POST", `${S}refresh/`);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toMatchObject({
        enabled: true,
        settings: { noHeader: true },
        password_required: true,
      });
      tokens.add(refreshed.body.access_token);
      expect((await h.api("GET", S)).body.access_token).toBe(refreshed.body.access_token);
      expect((await h.api("GET", `${P}/dashboards/2/`)).body.is_shared).toBe(true);
    }
    expect(tokens.size).toBe(3);
    // Refreshing a configuration never saved creates one, still disabled.
    const fresh = await h.api("POST", `${P}/dashboards/4/sharing/refresh/`);
    expect(fresh.body.enabled).toBe(false);
    expect(fresh.body.created_at).not.toBeNull();
    expect((await h.api("GET", `${P}/dashboards/4/sharing/`)).body.access_token).toBe(
      fresh.body.access_token,
    );
    expect((await h.api("GET", `${P}/dashboards/4/`)).body.is_shared).toBe(false);
  });

  it("refuses bad settings and password protection without advanced permissions", async () => {
    const bad = await h.api("PATCH", S, { settings: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Invalid settings format");
    await h.reseed((s) => {
      for (const o of s.organizations) o.features.advanced_permissions = false;
    });
    const pw = await h.api("PATCH", S, { enabled: true, password_required: true });
    expect(pw.status).toBe(403);
    expect(pw.body).toEqual({ error: "Sharing with password requires the Advanced Permissions feature" });
  });

  it("answers 404 for deleted dashboards and needs the sharing scope", async () => {
    await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true });
    const gone = await h.api("GET", S);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toBe("Dashboard not found.");
    await h.reseed((s) => s.api_keys.push({ key: "phx_dash", user: 1, scopes: ["dashboard:write"] }));
    const scope = await h.api("GET", `${P}/dashboards/1/sharing/`, undefined, { key: "phx_dash" });
    expect(scope.status).toBe(403);
    expect(scope.body.detail).toBe("API key missing required scope 'sharing_configuration:read'");
  });
});
