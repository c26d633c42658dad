/**
 * The insights API of the client against the emulator: the metadata-only list (`?basic=true`), the
 * tiles read with a dashboard, and the ClickHouse budget (insights and events in one, paced apart from
 * the other endpoints), on a clock the test moves.
 */
import { afterEach, describe, expect, it } from "vitest";
import { dashboardsApi } from "../../src/kinds/dashboard/service.js";
import { insightsApi } from "../../src/kinds/insight/service.js";
import { steppedClients } from "../support/clients.js";
import { KEY, useEmulator } from "../support/emulator.js";

const P = 12345;
const h = useEmulator({ rateLimit: "none" });
const { client, slept, closeAll } = steppedClients(() => h.url, KEY);

afterEach(closeAll);

describe("insights", () => {
  it("lists the basic shape in one page per hundred, and writes through create and update", async () => {
    const c = client();
    const created = await insightsApi(c).create(P, {
      name: "Signups",
      query: {
        kind: "InsightVizNode",
        source: { kind: "TrendsQuery", series: [{ kind: "EventsNode", event: "x" }] },
      },
      dashboards: [1],
    });
    for (let i = 0; i < 3; i++) await insightsApi(c).create(P, { name: `More ${i}` });
    await h.clearRequests();
    const all = await insightsApi(c).listAll(P);
    expect(all.map((i) => i.name)).toEqual(["Signups", "More 0", "More 1", "More 2"]);
    expect(all[0]?.dashboard_tiles.map((t) => t.dashboard_id)).toEqual([1]);
    const requests = await h.requests();
    expect(requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      `/api/projects/${P}/insights/?basic=true&limit=100`,
    ]);
    const updated = await insightsApi(c).update(P, created.id, { dashboards: [] });
    expect(updated.dashboard_tiles).toEqual([]);
    const dashboard = await dashboardsApi(c).getWithTiles(P, 1);
    expect(dashboard.tiles.map((t) => t.text?.body ?? t.insight?.name)).toEqual(["Activation and retention"]);
  });

  it("paces insight requests on the ClickHouse budget, shared with events, apart from the rest", async () => {
    const c = client({
      rateWindows: { events: [{ limit: 2, ms: 60_000 }], general: [{ limit: 100, ms: 60_000 }] },
    });
    await insightsApi(c).listAll(P);
    await insightsApi(c).listAll(P);
    expect(slept).toEqual([]);
    for (let i = 0; i < 5; i++) await dashboardsApi(c).get(P, 1);
    expect(slept).toEqual([]);
    await c.events.get(P, "00000000-0000-0000-0000-000000000000").catch(() => undefined);
    expect(slept.length).toBeGreaterThan(0);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(59_000);
  });
});
