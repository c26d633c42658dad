/**
 * The client against the emulator over loopback: a round trip through every area, each fault the
 * emulator injects, lost creates not repeated (from the emulator's request log), and the budget
 * keeping a burst under the emulator's limit.
 */

import { OLD_RUN_ID } from "posthog-gitops-emulator";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { backfillsApi, logsApi, runsApi } from "../../src/kinds/batch-export/operations/service.js";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { collaboratorsApi, dashboardsApi, sharingApi } from "../../src/kinds/dashboard/service.js";
import { collect, ServiceClient } from "../../src/service/client.js";
import { UnknownOutcomeError } from "../../src/service/errors.js";
import { steppedClients } from "../support/clients.js";
import { KEY, useEmulator } from "../support/emulator.js";

const P = 12345;
/** The emulator answers as of its clock, `h.clock` (backfill windows are checked against it). */
const h = useEmulator();
const { client, track, slept, closeAll } = steppedClients(() => h.url, KEY);

beforeEach(closeAll);
afterAll(closeAll);

describe("round trip", () => {
  it("dashboards, sharing and collaborators", async () => {
    const c = client();
    const created = await dashboardsApi(c).create(P, {
      name: "Client test",
      restriction_level: 37,
      tags: ["A"],
    });
    expect(created.name).toBe("Client test");
    expect((await dashboardsApi(c).get(P, created.id)).id).toBe(created.id);
    const updated = await dashboardsApi(c).update(P, created.id, { description: "d" });
    expect(updated.description).toBe("d");
    const listed = await collect(dashboardsApi(c).list(P, { limit: 1 }));
    expect(listed.some((d) => d.id === created.id)).toBe(true);

    const sharing = await sharingApi(c).update(P, created.id, { enabled: true });
    expect(sharing.enabled).toBe(true);
    expect((await sharingApi(c).get(P, created.id)).access_token).toBe(sharing.access_token);

    const state: {
      users: Array<{ id: number; uuid: string }>;
      api_keys: Array<{ key: string; user: number }>;
    } = await h.state();
    const me = state.api_keys.find((k) => k.key === KEY)?.user;
    const other = state.users.find((u) => u.id !== me);
    expect(other).toBeDefined();
    const added = await collaboratorsApi(c).add(P, created.id, { user_uuid: other!.uuid, level: 37 });
    expect(added.level).toBe(37);
    expect((await collaboratorsApi(c).list(P, created.id)).map((x) => x.user.uuid)).toContain(other!.uuid);
    await collaboratorsApi(c).remove(P, created.id, other!.uuid);
    expect(await collaboratorsApi(c).list(P, created.id)).toEqual([]);

    const org = await c.organizations.get("@current");
    expect(org.available_product_features?.map((f) => f.key)).toContain("tagging");
    expect((await c.organizations.getProject(P)).id).toBe(P);
  });

  it("batch exports, runs, backfills, logs and events", async () => {
    const c = client();
    const created = await batchExportsApi(c).create(P, {
      name: "noop",
      destination: { type: "NoOp", config: {} },
      interval: "hour",
    });
    expect((await batchExportsApi(c).pause(P, created.id)).paused).toBe(true);
    expect((await batchExportsApi(c).pause(P, created.id)).paused).toBe(true);
    expect((await batchExportsApi(c).unpause(P, created.id)).paused).toBe(false);
    const end = new Date(h.clock.now() - 3_600_000);
    end.setUTCMinutes(0, 0, 0);
    const start = new Date(end.getTime() - 3 * 3_600_000);
    const backfill = await backfillsApi(c).start(P, created.id, {
      start_at: start.toISOString(),
      end_at: end.toISOString(),
    });
    expect(typeof backfill.backfill_id).toBe("string");
    expect((await collect(backfillsApi(c).list(P, created.id))).length).toBeGreaterThan(0);
    await collect(logsApi(c).list(P, created.id));
    expect(
      (await collect(batchExportsApi(c).listForOrganization("@current"))).some((b) => b.id === created.id),
    ).toBe(true);
    await batchExportsApi(c).delete(P, created.id);
    await expect(batchExportsApi(c).get(P, created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("cursor pages for runs and before= pages for events", async () => {
    const c = client();
    const exports = await collect(batchExportsApi(c).list(P));
    const seeded = exports.find((b) => b.name === "Events to S3") ?? exports[0]!;
    const all = await collect(runsApi(c).list(P, seeded.id));
    expect(all.length).toBeGreaterThan(2);
    // Run pages have a fixed size of 100 (no `limit`); multi-page cursors are covered in pagination.test.ts.
    expect(all.length).toBeLessThanOrEqual(100);
    const run = all[0]!;
    expect((await runsApi(c).get(P, seeded.id, run.id)).id).toBe(run.id);
    // The newest service's run-logs route is broken (500): a run's entries are the export's entries
    // of that run.
    const entries = await collect(logsApi(c).list(P, seeded.id, { instance_id: run.id }));
    expect(entries.every((e) => e.instance_id === run.id)).toBe(true);
    expect(typeof (await runsApi(c).retry(P, seeded.id, run.id)).backfill_id).toBe("string");
    // A run created 10 days ago is outside the 7-day window of single-run requests unless widened.
    await expect(runsApi(c).get(P, seeded.id, OLD_RUN_ID)).rejects.toMatchObject({ status: 404 });
    const widened = { after: "2025-01-01T00:00:00Z" };
    expect((await runsApi(c).get(P, seeded.id, OLD_RUN_ID, widened)).id).toBe(OLD_RUN_ID);
    expect(typeof (await runsApi(c).retry(P, seeded.id, OLD_RUN_ID, widened)).backfill_id).toBe("string");

    await h.clearRequests();
    const events = await collect(c.events.list(P, { limit: 5 }), 12);
    expect(events).toHaveLength(12);
    const eventPages = await h.requests();
    expect(eventPages).toHaveLength(3);
    expect(eventPages[1]?.path).toBe(`/api/projects/${P}/events/`);
    expect(new Set(events.map((e) => e.id)).size).toBe(12);
  });
});

describe("faults", () => {
  it("retries 502 and resets on GET", async () => {
    await h.faults({
      rules: [
        { method: "GET", path: "/dashboards/?$", status: 502, times: 2 },
        { method: "GET", path: "/dashboards/?$", reset: true, times: 1 },
      ],
    });
    const c = client();
    await collect(dashboardsApi(c).list(P));
    expect((await h.requests()).map((r) => r.status)).toEqual([502, 502, 0, 200]);
    expect(c.stats.retries).toBe(3);
  });

  it("waits Retry-After on 429", async () => {
    await h.faults({
      rules: [{ method: "GET", path: "/batch_exports", status: 429, retry_after: 2, times: 2 }],
    });
    const c = client();
    await collect(batchExportsApi(c).list(P));
    expect(slept.filter((ms) => ms >= 2000)).toHaveLength(2);
    expect(c.stats.throttled429).toBe(2);
    expect((await h.requests()).map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it("reports a lost create as an unknown outcome and never repeats it", async () => {
    await h.faults({
      rules: [{ method: "POST", path: "/dashboards/?$", lose_response: true, times: 1 }],
    });
    const c = client();
    const error = await dashboardsApi(c)
      .create(P, { name: "Lost" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect((await h.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
    const found = await collect(dashboardsApi(c).list(P, { search: "Lost" }));
    expect(found.map((d) => d.name)).toEqual(["Lost"]);
  });

  it("retries a lost answer on PATCH (idempotent)", async () => {
    const c = client();
    const d = await dashboardsApi(c).create(P, { name: "x" });
    await h.faults({
      rules: [{ method: "PATCH", path: "/dashboards/", lose_response: true, times: 1 }],
    });
    expect((await dashboardsApi(c).update(P, d.id, { name: "y" })).name).toBe("y");
  });
});

describe("refusals", () => {
  it("a refused key gives a 401 that names POSTHOG_API_KEY and not the key", async () => {
    const key = "phx_NotTheRightKey_9f8e7d6c5b4a";
    const c = client({ apiKey: key });
    const error = await dashboardsApi(c)
      .get(P, 1)
      .catch((e) => e);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(
      /^GET dashboards\/1: 401: the service refused the API key \(check POSTHOG_API_KEY\)/,
    );
    expect(JSON.stringify(error) + error.message + String(error.stack)).not.toContain(key);
  });

  it("a 400 names the field", async () => {
    const c = client();
    const error = await batchExportsApi(c)
      .create(P, { name: "x", destination: { type: "NoOp", config: { nope: 1 } } })
      .catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^POST batch_exports: 400( on [a-z_]+)?: .+/);
  });
});

describe("budget", () => {
  const burst = (c: ServiceClient) =>
    Promise.all(Array.from({ length: 25 }, () => c.organizations.getProject(P)));

  it("keeps a burst under the emulator's limit with zero 429s", async () => {
    await h.faults({ rate_limit: { requests: 10, window_seconds: 1 } });
    const c = new ServiceClient({
      host: h.url,
      apiKey: KEY,
      rateWindows: { general: [{ limit: 10, ms: 1000 }] },
    });
    track(c);
    const started = performance.now();
    await burst(c);
    expect(performance.now() - started).toBeGreaterThan(1900);
    expect(c.stats.throttled429).toBe(0);
    expect((await h.requests()).filter((r) => r.status === 429)).toHaveLength(0);
  });

  it("(control) without a matching budget the same burst is throttled", async () => {
    await h.faults({ rate_limit: { requests: 10, window_seconds: 1 } });
    const c = client({ maxRetries: 0 });
    await burst(c).catch(() => undefined);
    expect((await h.requests()).filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });
});
