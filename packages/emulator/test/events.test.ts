import { describe, expect, it } from "vitest";
import { schemaErrors } from "./openapi.js";
import { P, useEmulator } from "./support/harness.js";

const h = useEmulator();
const E = `${P}/events/`;

describe("events list", () => {
  it("answers {next, results} newest first, 100 by default, without count", async () => {
    const res = await h.api("GET", E);
    expect(res.status).toBe(200);
    expect(schemaErrors("PaginatedClickhouseEventList", res.body)).toEqual([]);
    expect(Object.keys(res.body).sort()).toEqual(["next", "results"]);
    expect(res.body.results).toHaveLength(100);
    const ts = res.body.results.map((e: { timestamp: string }) => Date.parse(e.timestamp));
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    expect(res.body.results[0].timestamp).toMatch(/\+00:00$/);
    expect(res.body.results[0].person).toBeNull();
  });

  it("pages with next = same params and before=<last timestamp>, never repeating rows", async () => {
    const seen = new Set<string>();
    let path: string | null = `${E}?limit=120&event=%24pageview`;
    let pages = 0;
    while (path && pages < 10) {
      const res = await h.api("GET", path);
      for (const e of res.body.results) {
        expect(e.event).toBe("$pageview");
        seen.add(e.id);
      }
      pages++;
      if (res.body.next) {
        const next = new URL(res.body.next);
        expect(next.searchParams.get("event")).toBe("$pageview");
        expect(next.searchParams.get("limit")).toBe("120");
        const last = res.body.results[res.body.results.length - 1];
        expect(Date.parse(next.searchParams.get("before") ?? "")).toBe(Date.parse(last.timestamp));
        path = `${next.pathname}${next.search}`;
      } else path = null;
    }
    const state = (await h.control("GET", "state")).body;
    const expected = state.events.filter(
      (e: { team_id: number; event: string }) => e.team_id === 12345 && e.event === "$pageview",
    );
    expect(seen.size).toBe(expected.length);
  });

  it("filters by time, distinct_id, properties and orders ascending", async () => {
    const recent = await h.api("GET", `${E}?after=-1d&limit=1000`);
    const cutoff = h.clock.now() - 86_400_000;
    expect(recent.body.results.every((e: { timestamp: string }) => Date.parse(e.timestamp) > cutoff)).toBe(
      true,
    );
    expect(recent.body.next).toBeNull();
    const user = await h.api("GET", `${E}?distinct_id=user-3&limit=1000`);
    expect(user.body.results.every((e: { distinct_id: string }) => e.distinct_id === "user-3")).toBe(true);
    const chrome = encodeURIComponent(
      JSON.stringify([{ key: "$browser", value: "Chrome", operator: "exact", type: "event" }]),
    );
    const notChrome = encodeURIComponent(
      JSON.stringify([{ key: "$browser", value: "Chrome", operator: "is_not" }]),
    );
    const a = (await h.api("GET", `${E}?properties=${chrome}&limit=1000`)).body.results;
    const b = (await h.api("GET", `${E}?properties=${notChrome}&limit=1000`)).body.results;
    expect(a.every((e: { properties: { $browser: string } }) => e.properties.$browser === "Chrome")).toBe(
      true,
    );
    expect(b.some((e: { properties: { $browser: string } }) => e.properties.$browser === "Chrome")).toBe(
      false,
    );
    expect(a.length + b.length).toBe(270);
    const bad = await h.api("GET", `${E}?properties=%7Bnope`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Properties are unparsable!");
    const asc = await h.api("GET", `${E}?orderBy=${encodeURIComponent('["timestamp"]')}&limit=5`);
    const ts = asc.body.results.map((e: { timestamp: string }) => Date.parse(e.timestamp));
    expect([...ts].sort((x, y) => x - y)).toEqual(ts);
    expect(new URL(asc.body.next).searchParams.get("after")).toBeTruthy();
    expect((await h.api("GET", `${E}?limit=5000`)).body.results).toHaveLength(270);
  });

  it("renders CSV", async () => {
    const res = await h.api("GET", `${E}?format=csv&limit=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = res.text.trim().split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain("properties.$browser");
  });
});

describe("event retrieve and values", () => {
  it("retrieves by uuid, 400 for a bad uuid and 404 for a missing one", async () => {
    const first = (await h.api("GET", `${E}?limit=1`)).body.results[0];
    const one = await h.api("GET", `${E}${first.id}/`);
    expect(one.body.id).toBe(first.id);
    expect(schemaErrors("ClickhouseEvent", one.body)).toEqual([]);
    const bad = await h.api("GET", `${E}not-a-uuid/`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe("Invalid UUID");
    const missing = await h.api("GET", `${E}0190f1d2-0000-7c3a-9d1f-000000000000/`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe("No events exist for event UUID 0190f1d2-0000-7c3a-9d1f-000000000000");
  });

  it("lists property values, requiring event_name with a personal API key", async () => {
    const res = await h.api("GET", `${E}values/?key=%24browser&event_name=%24pageview`);
    expect(res.body.map((v: { name: string }) => v.name).sort()).toEqual(["Chrome", "Firefox", "Safari"]);
    expect((await h.api("GET", `${E}values/?key=%24browser`)).status).toBe(400);
  });

  it("throttles events at 240 per minute per key", async () => {
    await h.reseed(() => {});
    let limited = 0;
    for (let i = 0; i < 241; i++) {
      const res = await h.api("GET", `${E}?limit=1`);
      if (res.status === 429) limited++;
    }
    expect(limited).toBe(1);
    expect((await h.api("GET", `${P}/dashboards/`)).status).toBe(200);
  });
});
