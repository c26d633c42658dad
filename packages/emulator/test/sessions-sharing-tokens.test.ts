/**
 * The emulator's other ways in besides personal API keys (src/emulator/auth.ts): browser sessions
 * opened through `POST /_emulator/sessions`, and sharing tokens on the insight views. Default seed:
 * dashboard 1 is shared (token `emulatorShareToken0000000000001`); bob is user 2.
 */
import { describe, expect, it } from "vitest";
import { type Json, P, useEmulator } from "./support/harness.js";

const h = useEmulator();

async function login(user: number) {
  const opened = await h.control("POST", "sessions", { user });
  expect(opened.status).toBe(201);
  return opened.body as { sessionid: string; csrftoken: string };
}

const cookies = (s: { sessionid: string; csrftoken: string }) => ({
  Cookie: `sessionid=${s.sessionid}; csrftoken=${s.csrftoken}`,
});

const SHARE_TOKEN = "emulatorShareToken0000000000001";
const trends = {
  kind: "InsightVizNode",
  source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "$pageview" }] },
};

describe("browser sessions", () => {
  it("act as the session's user, without scopes", async () => {
    const session = await login(2);
    const dashboard = await h.api("GET", `${P}/dashboards/4/`, undefined, {
      key: null,
      headers: cookies(session),
    });
    expect(dashboard.status).toBe(200);
    // bob created dashboard 4.
    expect(dashboard.body.user_access_level).toBe("manager");
    const state = await h.state();
    expect(state.sessions.map((s: Json) => s.user)).toEqual([2]);
  });

  it("need the CSRF header on unsafe methods", async () => {
    const session = await login(2);
    const missing = await h.api(
      "POST",
      `${P}/dashboards/`,
      { name: "x" },
      { key: null, headers: cookies(session) },
    );
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toBe("CSRF Failed: CSRF token missing.");
    const wrong = await h.api(
      "POST",
      `${P}/dashboards/`,
      { name: "x" },
      {
        key: null,
        headers: { ...cookies(session), "X-CSRFToken": "not-it" },
      },
    );
    expect(wrong.body.detail).toBe("CSRF Failed: CSRF token incorrect.");
    const created = await h.api(
      "POST",
      `${P}/dashboards/`,
      { name: "x" },
      {
        key: null,
        headers: { ...cookies(session), "X-CSRFToken": session.csrftoken },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.created_by.id).toBe(2);
  });

  it("are not throttled, as the service throttles personal API keys only", async () => {
    await h.faults({ rate_limit: { requests: 1, window_seconds: 60 } });
    const session = await login(2);
    for (let i = 0; i < 3; i++) {
      const r = await h.api("GET", `${P}/dashboards/`, undefined, { key: null, headers: cookies(session) });
      expect(r.status).toBe(200);
    }
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(200);
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(429);
  });

  it("count for nothing once unknown: no session is not authenticated", async () => {
    const r = await h.api("GET", `${P}/dashboards/`, undefined, {
      key: null,
      headers: { Cookie: "sessionid=unknown" },
    });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("not_authenticated");
    const refused = await h.control("POST", "sessions", { user: 999 });
    expect(refused.status).toBe(400);
  });
});

describe("the insight views, which take sharing tokens", () => {
  it("answer a failed authentication with 403 where other views answer 401", async () => {
    const noneInsights = await h.api("GET", `${P}/insights/`, undefined, { key: null });
    expect(noneInsights.status).toBe(403);
    expect(noneInsights.body.code).toBe("not_authenticated");
    const badKey = await h.api("GET", `${P}/insights/`, undefined, { key: "phx_wrong" });
    expect(badKey.status).toBe(403);
    expect(badKey.body.code).toBe("authentication_failed");
    expect((await h.api("GET", `${P}/dashboards/`, undefined, { key: "phx_wrong" })).status).toBe(401);
  });

  it("open the insights of a shared dashboard's live tiles, read-only and in its project", async () => {
    const onDashboard = (
      await h.api("POST", `${P}/insights/`, { name: "shown", query: trends, dashboards: [1] })
    ).body.id;
    const elsewhere = (await h.api("POST", `${P}/insights/`, { name: "private", query: trends })).body.id;
    const token = `sharing_access_token=${SHARE_TOKEN}`;
    // The token names its project: the path's project id does not matter.
    const list = await h.api("GET", `/api/projects/99999/insights/?${token}`, undefined, { key: null });
    expect(list.status).toBe(200);
    expect(list.body.results.map((i: Json) => i.id)).toEqual([onDashboard]);
    expect(list.body.results[0].user_access_level).toBeNull();
    const shown = await h.api("GET", `${P}/insights/${onDashboard}/?${token}`, undefined, { key: null });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ effective_restriction_level: 37, effective_privilege_level: 21 });
    expect(
      (await h.api("GET", `${P}/insights/${elsewhere}/?${token}`, undefined, { key: null })).status,
    ).toBe(404);
    // Other views take no sharing token: nothing authenticates the request there.
    expect((await h.api("GET", `${P}/dashboards/1/?${token}`, undefined, { key: null })).status).toBe(401);
    // Nor does a token write.
    const write = await h.api(
      "POST",
      `${P}/insights/bulk_delete/?${token}`,
      { ids: [onDashboard] },
      { key: null },
    );
    expect(write.status).toBe(403);
    expect(write.body.detail).toBe("Sharing access token can only be used for GET requests.");
  });

  it("let a sharing token's visitor read an insight's own configuration once shared", async () => {
    const insight = (await h.api("POST", `${P}/insights/`, { name: "solo", query: trends })).body.id;
    const shared = await h.api("PATCH", `${P}/insights/${insight}/sharing/`, { enabled: true });
    expect(shared.status).toBe(200);
    const token = shared.body.access_token;
    const read = await h.api("GET", `${P}/insights/${insight}/?sharing_access_token=${token}`, undefined, {
      key: null,
    });
    expect(read.status).toBe(200);
    expect(read.body.name).toBe("solo");
    await h.api("PATCH", `${P}/insights/${insight}/sharing/`, { enabled: false });
    const revoked = await h.api("GET", `${P}/insights/${insight}/?sharing_access_token=${token}`, undefined, {
      key: null,
    });
    expect(revoked.status).toBe(403);
    expect(revoked.body.detail).toBe("Sharing access token is invalid.");
  });
});
