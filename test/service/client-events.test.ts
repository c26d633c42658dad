/**
 * The client's events (SPEC §4: a word on stderr for every wait): noticeable waits for the budget or
 * a 429's Retry-After, once each; retries; slow answers at 5, 10, 20 s with their timers cleared;
 * one answer per completed request with the items of list pages. Fake clocks and fake timers only.
 */

import type { Clock } from "posthog-gitops-shared/clock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { collaboratorsApi, dashboardsApi } from "../../src/kinds/dashboard/service.js";
import type { ClientEvent, Timers } from "../../src/service/client.js";
import { collect, ServiceClient } from "../../src/service/client.js";
import { Notifier } from "../../src/service/client-events.js";
import { type FakeServer, type Handler, json, startFakeServer } from "./fake-server.js";
import { collaborator, dashboard, offsetPage } from "./samples.js";

const KEY = "phx_EventsTestKey0123456789";
let server: FakeServer;
let clients: ServiceClient[] = [];

beforeAll(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  server.seen.length = 0;
});
afterAll(() => server.close());

/** A clock whose sleeps advance it at once. */
function instantClock(): Clock {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
}

/** A clock and timers that move only when the test says so. */
function manualTime() {
  let now = 0;
  let nextId = 0;
  const due = new Map<number, { at: number; fire: () => void }>();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((resolve) => void due.set(++nextId, { at: now + ms, fire: resolve })),
  };
  const timers: Timers = {
    set: (fire, ms) => {
      due.set(++nextId, { at: now + ms, fire });
      return nextId;
    },
    clear: (id) => void due.delete(id as number),
  };
  return {
    clock,
    timers,
    pending: () => due.size,
    /** Moves time forward, firing what falls due in order, letting each settle. */
    async advance(ms: number) {
      const target = now + ms;
      for (;;) {
        const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
        if (!next || next[1].at > target) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].fire();
        await settle();
      }
      now = target;
      await settle();
    },
  };
}

function client(options: Partial<ConstructorParameters<typeof ServiceClient>[0]>): {
  c: ServiceClient;
  events: ClientEvent[];
} {
  const events: ClientEvent[] = [];
  const c = new ServiceClient({
    host: server.url,
    apiKey: KEY,
    clock: instantClock(),
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...options,
  });
  clients.push(c);
  return { c, events };
}

function script(faults: Handler[], ok: Handler): void {
  let i = 0;
  server.setHandler((req, res, raw) => (faults[i] ? faults[i++]!(req, res, raw) : ok(req, res, raw)));
}
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    json(res, code, { type: "server_error", code: "error", detail: `injected ${code}`, attr: null }, headers);
const reset: Handler = (_req, res) => void res.socket?.destroy();
const okDashboard: Handler = (req, res) => json(res, 200, dashboard(Number(req.path.split("/")[5] ?? 1)));

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2500 && !condition(); i++) await new Promise((r) => setTimeout(r, 2));
  expect(condition()).toBe(true);
}

describe("retries", () => {
  it("announce each retry with the status or what failed, then the answer", async () => {
    script([status(502), reset, status(503)], okDashboard);
    const { c, events } = client({ maxRetries: 4 });
    await dashboardsApi(c).get(1, 7);
    expect(events).toEqual([
      { type: "retry", method: "GET", path: "dashboards/7", status: 502, attempt: 1, of: 4, inMs: 125 },
      {
        type: "retry",
        method: "GET",
        path: "dashboards/7",
        what: "UND_ERR_SOCKET",
        attempt: 2,
        of: 4,
        inMs: 250,
      },
      { type: "retry", method: "GET", path: "dashboards/7", status: 503, attempt: 3, of: 4, inMs: 500 },
      { type: "answer", method: "GET", path: "dashboards/7", status: 200, ms: 0 },
    ]);
  });

  it("a final error is a completed request too; a 404 after a lost DELETE is done", async () => {
    script([], status(404));
    const { c, events } = client({});
    await expect(dashboardsApi(c).get(1, 7)).rejects.toThrow("GET dashboards/7: 404");
    script([reset], status(404));
    await batchExportsApi(c).delete(1, "e");
    expect(events.map((e) => `${e.type} ${e.method} ${e.path} ${"status" in e ? e.status : ""}`)).toEqual([
      "answer GET dashboards/7 404",
      "retry DELETE batch_exports/e ",
      "answer DELETE batch_exports/e 404",
    ]);
  });
});

describe("waits", () => {
  it("a 429's Retry-After is one wait, not repeated by the requests queued behind its pause", async () => {
    const time = manualTime();
    let first = true;
    server.setHandler((req, res) => {
      if (first) {
        first = false;
        status(429, { "retry-after": "41" })(req, res, undefined as never);
      } else okDashboard(req, res, undefined as never);
    });
    const { c, events } = client({ clock: time.clock, timers: time.timers, notice: { slowMs: 0 } });
    const a = dashboardsApi(c).get(1, 1);
    await until(() => events.length === 2); // A's retry and wait, A asleep until 41.125 s
    const b = dashboardsApi(c).get(1, 2); // waits for the pause until 41 s: already announced
    await until(() => time.pending() === 2);
    await time.advance(41_000);
    await b;
    await time.advance(125);
    await a;
    expect(events).toEqual([
      { type: "retry", method: "GET", path: "dashboards/1", status: 429, attempt: 1, of: 5, inMs: 41_125 },
      { type: "wait", reason: "retry-after", ms: 41_125, method: "GET", path: "dashboards/1" },
      { type: "answer", method: "GET", path: "dashboards/2", status: 200, ms: 0 },
      { type: "answer", method: "GET", path: "dashboards/1", status: 200, ms: 0 },
    ]);
  });

  it("a full budget is announced once, by the first request that must wait", async () => {
    server.setHandler(okDashboard);
    const { c, events } = client({ rateWindows: { general: [{ limit: 2, ms: 60_000 }] } });
    await dashboardsApi(c).get(1, 1);
    await dashboardsApi(c).get(1, 2);
    await Promise.all([dashboardsApi(c).get(1, 3), dashboardsApi(c).get(1, 4)]);
    expect(events.slice(0, 3)).toEqual([
      { type: "answer", method: "GET", path: "dashboards/1", status: 200, ms: 0 },
      { type: "answer", method: "GET", path: "dashboards/2", status: 200, ms: 0 },
      { type: "wait", reason: "rate-limit", ms: 60_000, method: "GET", path: "dashboards/3" },
    ]);
    expect(
      events
        .slice(3)
        .map((e) => `${e.type} ${e.path}`)
        .sort(),
    ).toEqual(["answer dashboards/3", "answer dashboards/4"]);
  });

  it("short waits stay quiet unless the threshold says otherwise", async () => {
    server.setHandler(okDashboard);
    const windows = { general: [{ limit: 1, ms: 800 }] };
    const quiet = client({ rateWindows: windows });
    await dashboardsApi(quiet.c).get(1, 1);
    await dashboardsApi(quiet.c).get(1, 2);
    expect(quiet.events.map((e) => e.type)).toEqual(["answer", "answer"]);
    const told = client({ rateWindows: windows, notice: { waitMs: 500 } });
    await dashboardsApi(told.c).get(1, 1);
    await dashboardsApi(told.c).get(1, 2);
    expect(told.events.map((e) => e.type)).toEqual(["answer", "wait", "answer"]);
    expect(told.events[1]).toMatchObject({ reason: "rate-limit", ms: 800 });
  });
});

describe("the notifier", () => {
  it("announces a wait only when it ends noticeably later than the last one announced", () => {
    const heard: ClientEvent[] = [];
    const notifier = new Notifier((e) => heard.push(e), { waitMs: 1_000 });
    notifier.wait("retry-after", 9_000, 0, "GET", "/api/projects/1/dashboards/"); // until 9 s
    notifier.wait("retry-after", 9_100, 50, "GET", "/api/projects/1/dashboards/"); // until 9.15 s: same wait
    notifier.wait("rate-limit", 900, 8_500, "GET", "/api/projects/1/dashboards/"); // too short to mention
    notifier.wait("rate-limit", 5_000, 9_000, "GET", "/api/projects/1/batch_exports/"); // until 14 s: new
    expect(heard).toEqual([
      { type: "wait", reason: "retry-after", ms: 9_000, method: "GET", path: "dashboards" },
      { type: "wait", reason: "rate-limit", ms: 5_000, method: "GET", path: "batch_exports" },
    ]);
  });
});

describe("slow answers", () => {
  it("are reported at 5, 10 and 20 s, and their timers end with the answer", async () => {
    const time = manualTime();
    let release: () => void = () => {};
    server.setHandler((req, res) => {
      release = () => okDashboard(req, res, undefined as never);
    });
    const { c, events } = client({ clock: time.clock, timers: time.timers });
    const pending = dashboardsApi(c).get(1, 9);
    await until(() => server.seen.length === 1 && time.pending() === 1);
    await time.advance(4_999);
    expect(events).toEqual([]);
    await time.advance(1);
    await time.advance(5_000);
    await time.advance(10_000);
    release();
    await pending;
    expect(events).toEqual([
      { type: "slow", method: "GET", path: "dashboards/9", elapsedMs: 5_000 },
      { type: "slow", method: "GET", path: "dashboards/9", elapsedMs: 10_000 },
      { type: "slow", method: "GET", path: "dashboards/9", elapsedMs: 20_000 },
      { type: "answer", method: "GET", path: "dashboards/9", status: 200, ms: 20_000 },
    ]);
    expect(time.pending()).toBe(0);
  });

  it("a quick answer leaves no timer behind, a failed attempt neither", async () => {
    const time = manualTime();
    script([reset], okDashboard);
    const { c } = client({ clock: time.clock, timers: time.timers, maxRetries: 0 });
    await expect(dashboardsApi(c).get(1, 1)).rejects.toThrow();
    await dashboardsApi(c).get(1, 1);
    expect(time.pending()).toBe(0);
  });
});

describe("answers", () => {
  it("count the objects of each list page", async () => {
    server.setHandler((req, res) => {
      if (req.path.endsWith("/collaborators/")) return json(res, 200, [collaborator("a"), collaborator("b")]);
      const offset = Number(req.query.get("offset") ?? 0);
      const page = Array.from({ length: Math.min(100, 250 - offset) }, (_, i) => dashboard(offset + i));
      const next = offset + 100 < 250 ? `${server.url}${req.path}?limit=100&offset=${offset + 100}` : null;
      json(res, 200, offsetPage(page, 250, next));
    });
    const { c, events } = client({});
    await dashboardsApi(c).listAll(1, { search: "weekly" });
    await collaboratorsApi(c).list(1, 5);
    const counts = events.map((e) => (e.type === "answer" ? `${e.path} ${e.items}` : e.type));
    expect(counts.slice(0, 3).sort()).toEqual(["dashboards 100", "dashboards 100", "dashboards 50"]);
    expect(counts[3]).toBe("dashboards/5/collaborators 2");
  });

  it("never carry the key, the host or the query, and a throwing listener breaks nothing", async () => {
    server.setHandler((_req, res) => json(res, 200, offsetPage([dashboard(1)])));
    const events: ClientEvent[] = [];
    const c = new ServiceClient({
      host: server.url,
      apiKey: KEY,
      clock: instantClock(),
      onEvent: (e) => {
        events.push(e);
        throw new Error("printer bug");
      },
    });
    clients.push(c);
    await expect(collect(dashboardsApi(c).list(1, { search: KEY }))).resolves.toHaveLength(1);
    expect(events).toEqual([
      { type: "answer", method: "GET", path: "dashboards", status: 200, ms: 0, items: 1 },
    ]);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain("127.0.0.1");
  });

  it("keep the --verbose log lines as before", async () => {
    script([status(502)], okDashboard);
    const lines: string[] = [];
    const { c, events } = client({ log: (l) => lines.push(l) });
    await dashboardsApi(c).get(1, 5);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/api\/projects\/1\/dashboards\/5\/ 502 \d+ms: retry 1\/5 in 125ms$/);
    expect(events.map((e) => e.type)).toEqual(["retry", "answer"]);
  });
});
