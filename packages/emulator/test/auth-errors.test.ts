import { describe, expect, it } from "vitest";
import { checkScope } from "../src/auth.js";
import { defaultSeed } from "../src/default-seed.js";
import { Store } from "../src/store.js";
import { TEST_NOW } from "./support/clock.js";
import { P, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();

describe("authentication", () => {
  it("answers 401 without credentials and with an unknown key", async () => {
    const none = await h.api("GET", `${P}/dashboards/`, undefined, { key: null });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      type: "authentication_error",
      code: "not_authenticated",
      detail: "Authentication credentials were not provided.",
      attr: null,
    });
    const bad = await h.api("GET", `${P}/dashboards/`, undefined, { key: "phx_nope" });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe("authentication_failed");
    expect(bad.body.detail).toBe("Personal API key found in request Authorization header is invalid.");
    expect(bad.text).not.toContain("phx_nope");
  });

  it("accepts the key as a query parameter too", async () => {
    const res = await h.api("GET", `${P}/dashboards/?personal_api_key=${h.key}`, undefined, {
      key: null,
    });
    expect(res.status).toBe(200);
  });

  it("enforces scopes, write implying read", async () => {
    await h.reseed((s) => {
      s.api_keys.push({ key: "phx_read", user: 1, scopes: ["dashboard:read"] });
      s.api_keys.push({ key: "phx_write", user: 1, scopes: ["dashboard:write", "batch_export:read"] });
      s.api_keys.push({ key: "phx_scoped", user: 1, scopes: ["*"], scoped_teams: [12346] });
      s.api_keys.push({ key: "phx_legacy", user: 1, scopes: [] });
    });
    expect((await h.api("GET", `${P}/dashboards/`, undefined, { key: "phx_read" })).status).toBe(200);
    const denied = await h.api("POST", `${P}/dashboards/`, { name: "x" }, { key: "phx_read" });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      type: "authentication_error",
      code: "permission_denied",
      detail: "API key missing required scope 'dashboard:write'",
      attr: null,
    });
    expect((await h.api("GET", `${P}/dashboards/`, undefined, { key: "phx_write" })).status).toBe(200);
    const pause = await h.api("POST", `${P}/batch_exports/${S3_EXPORT_ID}/pause/`, undefined, {
      key: "phx_write",
    });
    expect(pause.body.detail).toBe("API key missing required scope 'batch_export:write'");
    const events = await h.api("GET", `${P}/events/`, undefined, { key: "phx_write" });
    expect(events.body.detail).toBe("API key missing required scope 'query:read'");
    const scoped = await h.api("GET", `${P}/dashboards/`, undefined, { key: "phx_scoped" });
    expect(scoped.status).toBe(403);
    expect(scoped.body.detail).toBe("API key does not have access to the requested project: ID 12345.");
    expect(
      (await h.api("GET", "/api/projects/12346/dashboards/", undefined, { key: "phx_scoped" })).status,
    ).toBe(200);
    const org = await h.api("GET", "/api/organizations/@current/batch_exports/", undefined, {
      key: "phx_scoped",
    });
    expect(org.body.detail).toBe(
      "API keys with scoped projects are only supported on project-based endpoints.",
    );
    // Newest: a key with no scopes fails every scope check (the 2025 rules let it do anything).
    const legacy = await h.api("POST", `${P}/dashboards/`, { name: "x" }, { key: "phx_legacy" });
    expect(legacy.status).toBe(403);
    expect(legacy.body.detail).toBe("API key missing required scope 'dashboard:write'");
  });

  it("checks a key's scoped projects before its scopes, as the service does", async () => {
    // A project-scoped key that may read dashboards only: the members list refuses it for being
    // project-scoped (not for the scope it lacks), and a write elsewhere for the project it lacks.
    await h.reseed((s) => {
      s.api_keys.push({ key: "phx_project_key", user: 1, scopes: ["dashboard:read"], scoped_teams: [12346] });
    });
    const members = await h.api("GET", "/api/organizations/@current/members/", undefined, {
      key: "phx_project_key",
    });
    expect(members.status).toBe(403);
    expect(members.body.detail).toBe(
      "API keys with scoped projects are only supported on project-based endpoints.",
    );
    const write = await h.api("POST", `${P}/dashboards/`, { name: "x" }, { key: "phx_project_key" });
    expect(write.status).toBe(403);
    expect(write.body.detail).toBe("API key does not have access to the requested project: ID 12345.");
    const own = await h.api(
      "POST",
      "/api/projects/12346/dashboards/",
      { name: "x" },
      { key: "phx_project_key" },
    );
    expect(own.body.detail).toBe("API key missing required scope 'dashboard:write'");
  });

  it("shows any key its own record at personal_api_keys/@current without a scope, and nothing else", async () => {
    await h.reseed((s) => {
      s.api_keys.push({ key: "phx_narrow_key", user: 2, scopes: ["dashboard:read"], scoped_teams: [12345] });
      s.api_keys.push({ key: "phx_legacy", user: 1, scopes: [] });
    });
    const me = await h.api("GET", "/api/personal_api_keys/@current/", undefined, { key: "phx_narrow_key" });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      value: null,
      mask_value: "phx_..._key",
      user_id: 2,
      scopes: ["dashboard:read"],
      scoped_teams: [12345],
      scoped_organizations: [],
    });
    expect(me.text).not.toContain("phx_narrow_key");
    const legacy = await h.api("GET", "/api/personal_api_keys/@current", undefined, { key: "phx_legacy" });
    expect(legacy.body.scopes).toEqual(["*"]);
    // The viewset's other actions refuse keys, in its own (older) capitalisation.
    for (const path of ["/api/personal_api_keys/", "/api/personal_api_keys/abc/"]) {
      const res = await h.api("GET", path);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe("This action does not support Personal API Key access");
    }
    expect((await h.api("GET", "/api/personal_api_keys/@current/", undefined, { key: null })).status).toBe(
      401,
    );
  });

  it("refuses scoped keys on actions without a scope mapping, in the newest wording", async () => {
    const store = new Store(defaultSeed(new Date(TEST_NOW)));
    const key = { key: "k", user: 1, scopes: ["dashboard:read"] };
    expect(() => checkScope(store, key, null)).toThrow(
      "This action does not support personal API key access",
    );
    store.data.service.rules = "2025";
    expect(() => checkScope(store, key, null)).toThrow(
      "This action does not support Personal API Key access",
    );
    expect(() => checkScope(store, { ...key, scopes: [] }, "dashboard:write")).not.toThrow();
  });

  it("answers 404 for unknown projects and 403 for other organizations' projects", async () => {
    const unknown = await h.api("GET", "/api/projects/424242/dashboards/");
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe("Project not found.");
    const other = await h.api("GET", "/api/projects/22222/batch_exports/");
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe("You don't have access to the project.");
  });
});

describe("errors", () => {
  it("reports malformed JSON as parse_error and wrong types as validation errors", async () => {
    const parse = await h.api("POST", `${P}/dashboards/`, "{not json");
    expect(parse.status).toBe(400);
    expect(parse.body.type).toBe("invalid_request");
    expect(parse.body.code).toBe("parse_error");
    expect(parse.body.detail).toMatch(/^JSON parse error - /);
    const name = await h.api("POST", `${P}/dashboards/`, { name: { a: 1 } });
    expect(name.body).toEqual({
      type: "validation_error",
      code: "invalid_input",
      detail: "Not a valid string.",
      attr: "name",
    });
    const media = await h.api("POST", `${P}/dashboards/`, "name=x", {
      headers: { "Content-Type": "text/plain" },
    });
    expect(media.status).toBe(415);
  });

  it("refuses bodies over 1 MiB with 413", async () => {
    const res = await h.api(
      "POST",
      `${P}/dashboards/`,
      JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }),
    );
    expect(res.status).toBe(413);
    expect(res.body.type).toBe("invalid_request");
    const after = await h.api("GET", `${P}/dashboards/`);
    expect(after.status).toBe(200);
  });

  it("answers unknown routes with 404 and wrong methods with 405", async () => {
    const route = await h.api("GET", `${P}/widgets/`);
    expect(route.status).toBe(404);
    expect(route.body).toEqual({
      type: "invalid_request",
      code: "not_found",
      detail: "Endpoint not found.",
      attr: null,
    });
    expect((await h.api("GET", "/nothing")).status).toBe(404);
    const method = await h.api("DELETE", `${P}/dashboards/1/collaborators/`);
    expect(method.status).toBe(405);
    expect(method.body.detail).toBe('Method "DELETE" not allowed.');
  });

  it("answers malformed escapes and odd paths without crashing", async () => {
    expect((await h.api("GET", `${P}/dashboards/%E0%A4%A/`)).status).toBe(404);
    expect((await h.api("GET", "/api/projects/%/dashboards/")).status).toBe(404);
    expect((await h.api("GET", `${P}/dashboards/1/`)).status).toBe(200);
  });
});

describe("robustness", () => {
  it("finds no route before checking credentials", async () => {
    const res = await h.api("GET", `${P}/widgets/`, undefined, { key: null });
    expect(res.status).toBe(404);
  });
});

describe("HEAD", () => {
  it("is served like GET without a body", async () => {
    const res = await h.api("HEAD", `${P}/dashboards/`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });
});
