import { describe, expect, it } from "vitest";
import { P, useEmulator } from "./support/harness.js";

const h = useEmulator();

describe("request log", () => {
  it("records API requests oldest first, never control requests, and clears", async () => {
    await h.api("GET", `${P}/dashboards/?limit=1`);
    await h.api("POST", `${P}/dashboards/`, { name: "x" });
    await h.control("GET", "faults");
    const log = await h.control("GET", "requests");
    expect(
      log.body.requests.map((r: { method: string; path: string; query: string; status: number }) => [
        r.method,
        r.path,
        r.query,
        r.status,
      ]),
    ).toEqual([
      ["GET", `${P}/dashboards/`, "limit=1", 200],
      ["POST", `${P}/dashboards/`, "", 201],
    ]);
    expect(typeof log.body.requests[0].ms).toBe("number");
    expect((await h.control("DELETE", "requests")).status).toBe(204);
    expect((await h.control("GET", "requests")).body.requests).toEqual([]);
  });
});

describe("faults", () => {
  it("applies status rules in order with times, 429 with Retry-After", async () => {
    const set = await h.control("POST", "faults", {
      rules: [{ method: "GET", path: "/dashboards/?$", status: 429, retry_after: 3, times: 2 }],
    });
    expect(set.status).toBe(200);
    const first = await h.api("GET", `${P}/dashboards/`);
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("3");
    expect(first.body).toEqual({
      type: "throttled_error",
      code: "throttled",
      detail: "Request was throttled. Expected available in 3 seconds.",
      attr: null,
    });
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(429);
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(200);
    const log = (await h.control("GET", "requests")).body.requests;
    expect(log.map((r: { status: number }) => r.status)).toEqual([429, 429, 200]);
    expect(log[0].fault).toBe("status");
  });

  it("lose_response commits the request then drops the connection", async () => {
    await h.control("POST", "faults", {
      rules: [{ method: "POST", path: "/dashboards/?$", lose_response: true, times: 1 }],
    });
    await expect(h.api("POST", `${P}/dashboards/`, { name: "Lost" })).rejects.toThrow();
    const list = await h.api("GET", `${P}/dashboards/?search=Lost`);
    expect(list.body.count).toBe(1);
    const log = (await h.control("GET", "requests")).body.requests;
    expect(log[0]).toMatchObject({ method: "POST", status: 201, fault: "lose_response" });
  });

  it("reset drops the connection before doing anything", async () => {
    await h.control("POST", "faults", { rules: [{ path: ".*", reset: true, times: 1 }] });
    await expect(h.api("POST", `${P}/dashboards/`, { name: "Never" })).rejects.toThrow();
    expect((await h.api("GET", `${P}/dashboards/?search=Never`)).body.count).toBe(0);
  });

  it("injects a seeded error rate deterministically and adds latency", async () => {
    const pattern = async () => {
      await h.control("POST", "faults", { error_rate: 0.5, error_status: 503, seed: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await h.api("GET", `${P}/dashboards/`)).status);
      return statuses;
    };
    const a = await pattern();
    const b = await pattern();
    expect(a).toEqual(b);
    expect(a).toContain(503);
    expect(a).toContain(200);
    await h.control("POST", "faults", { latency_ms: 60 });
    const started = performance.now();
    await h.api("GET", `${P}/dashboards/`);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    await h.control("POST", "faults", {});
    expect((await h.control("GET", "faults")).body).toEqual({});
  });

  it("replaces the rate limit and answers 429 with Retry-After", async () => {
    await h.control("POST", "faults", { rate_limit: { requests: 3, window_seconds: 30 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.api("GET", `${P}/dashboards/`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await h.api("GET", `${P}/dashboards/`);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
    expect(limited.body.detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
    // Control endpoints are never throttled; reset restores the default limits.
    expect((await h.control("GET", "state")).status).toBe(200);
    await h.control("POST", "reset");
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(200);
  });

  it("rejects malformed faults with 400 and keeps the previous ones", async () => {
    const bad = await h.control("POST", "faults", { error_rate: 2 });
    expect(bad.status).toBe(400);
    const regex = await h.control("POST", "faults", { rules: [{ path: "(", status: 500 }] });
    expect(regex.status).toBe(400);
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(200);
  });
});

describe("state and seed", () => {
  it("exposes the store and replaces it from a posted seed", async () => {
    const state = (await h.control("GET", "state")).body;
    expect(state.dashboards.length).toBe(5);
    const seed = await h.control("POST", "seed", {
      organizations: [{ id: "0190f1d2-0000-7000-8000-000000000001", name: "Tiny" }],
      projects: [{ id: 1, name: "Only", organization: "0190f1d2-0000-7000-8000-000000000001" }],
      users: [
        {
          id: 9,
          uuid: "0190f1d2-0000-7000-8000-000000000009",
          email: "z@example.com",
          organizations: ["0190f1d2-0000-7000-8000-000000000001"],
        },
      ],
      api_keys: [{ key: "phx_tiny", user: 9, scopes: ["*"] }],
      dashboards: [{ id: 40, team_id: 1, name: "Seeded" }],
    });
    expect(seed.status).toBe(204);
    const list = await h.api("GET", "/api/projects/1/dashboards/", undefined, { key: "phx_tiny" });
    expect(list.body.results.map((d: { name: string }) => d.name)).toEqual(["Seeded"]);
    const created = await h.api("POST", "/api/projects/1/dashboards/", { name: "next" }, { key: "phx_tiny" });
    expect(created.body.id).toBe(41);
    // The emulator's own key is added to a posted seed that lacks it.
    expect((await h.api("GET", "/api/projects/1/dashboards/")).status).toBe(200);
    expect((await h.control("POST", "seed", { projects: "nope" })).status).toBe(400);
    expect((await h.control("POST", "nothing")).status).toBe(404);
  });
});

describe("request log hygiene", () => {
  it("masks a key passed in the query string", async () => {
    await h.api("GET", `${P}/dashboards/?personal_api_key=${h.key}&limit=1`, undefined, { key: null });
    const log = await h.control("GET", "requests");
    expect(log.text).not.toContain(h.key);
    expect(log.body.requests[0].status).toBe(200);
  });
});
