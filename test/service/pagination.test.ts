/** The three paging styles, lazy fetching, the cap, and refusing a `next` on another origin. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runsApi } from "../../src/kinds/batch-export/operations/service.js";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { dashboardsApi } from "../../src/kinds/dashboard/service.js";
import { collect, ServiceClient } from "../../src/service/client.js";
import { ServiceError, UnexpectedAnswerError } from "../../src/service/errors.js";
import { type FakeServer, type Handler, json, startFakeServer } from "./fake-server.js";
import { batchExport, dashboard, event, offsetPage, run } from "./samples.js";

let server: FakeServer;
let client: ServiceClient;
const items = Array.from({ length: 25 }, (_, i) => dashboard(i));

beforeAll(async () => {
  server = await startFakeServer();
  client = new ServiceClient({ host: server.url, apiKey: "phx_test" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** An honest limit/offset list of `items`, like DRF's. */
const offsetList: Handler = (req, res) => {
  const limit = Number(req.query.get("limit") ?? 10);
  const offset = Number(req.query.get("offset") ?? 0);
  const more = offset + limit < items.length;
  const next = more ? `${server.url}${req.path}?limit=${limit}&offset=${offset + limit}` : null;
  json(res, 200, { count: items.length, next, previous: null, results: items.slice(offset, offset + limit) });
};

describe("pagination", () => {
  it("follows absolute offset `next` links until null", async () => {
    server.setHandler(offsetList);
    const before = server.seen.length;
    const all = await collect(dashboardsApi(client).list(1, { limit: 10 }));
    expect(all.map((d) => d.id)).toEqual(items.map((d) => d.id));
    expect(server.seen.length - before).toBe(3);
  });

  it("listAll reads the pages after the first in parallel, in order, once the count is known", async () => {
    let inFlight = 0;
    let most = 0;
    // The pages after the first wait for each other (a barrier, up to 5 s) instead of for a fixed
    // delay: on a loaded machine a 20 ms wait may end before the second request arrives.
    const waiting: Array<() => void> = [];
    server.setHandler(async (req, res) => {
      const limit = Number(req.query.get("limit"));
      const offset = Number(req.query.get("offset") ?? 0);
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (offset > 0) {
        if (inFlight >= 2) for (const release of waiting.splice(0)) release();
        else await new Promise<void>((r) => waiting.push(r) && setTimeout(r, 5_000));
      }
      inFlight -= 1;
      const next =
        offset + limit < 250 ? `${server.url}${req.path}?limit=${limit}&offset=${offset + limit}` : null;
      const page = Array.from({ length: Math.max(0, Math.min(limit, 250 - offset)) }, (_, i) =>
        dashboard(offset + i),
      );
      json(res, 200, { count: 250, next, previous: null, results: page });
    });
    const before = server.seen.length;
    const all = await dashboardsApi(client).listAll(1);
    expect(all.map((d) => d.id)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(server.seen.length - before).toBe(3);
    expect(most).toBe(2);
  });

  it("listAll follows `next` when the list grew while it was read, without repeating an item", async () => {
    let size = 150;
    server.setHandler((req, res) => {
      const limit = Number(req.query.get("limit"));
      const offset = Number(req.query.get("offset") ?? 0);
      const count = size;
      size = 220; // an object appears after the first page was read
      const next =
        offset + limit < size ? `${server.url}${req.path}?limit=${limit}&offset=${offset + limit}` : null;
      const page = Array.from({ length: Math.max(0, Math.min(limit, size - offset)) }, (_, i) =>
        batchExport(String(offset + i)),
      );
      json(res, 200, { count, next, previous: null, results: page });
    });
    const all = await batchExportsApi(client).listAll(1);
    expect(all.map((b) => b.id)).toEqual(Array.from({ length: 220 }, (_, i) => String(i)));
  });

  it("fetches only the pages needed for `max`", async () => {
    server.setHandler(offsetList);
    const before = server.seen.length;
    const some = await collect(dashboardsApi(client).list(1, { limit: 10 }), 12);
    expect(some).toHaveLength(12);
    expect(server.seen.length - before).toBe(2);
    const capped = await collect(dashboardsApi(client).list(1, { limit: 10 }, 5));
    expect(capped).toHaveLength(5);
    expect(server.seen.length - before).toBe(3);
  });

  it("follows opaque cursors for runs", async () => {
    server.setHandler((req, res) => {
      const at = Number(Buffer.from(req.query.get("cursor") ?? "MA==", "base64").toString());
      const next =
        at + 10 < items.length
          ? `${server.url}${req.path}?cursor=${Buffer.from(String(at + 10)).toString("base64")}`
          : null;
      json(res, 200, {
        next,
        previous: null,
        results: items.slice(at, at + 10).map((d) => run(String(d.id))),
      });
    });
    const runs = await collect(runsApi(client).list(1, "e"));
    expect(runs).toHaveLength(25);
    expect(server.seen.at(-1)?.query.get("cursor")).toBe(Buffer.from("20").toString("base64"));
  });

  it("follows `before=` pages for events, keeping the filters", async () => {
    const stamps = Array.from({ length: 7 }, (_, i) => `2026-01-01T00:00:0${7 - i}Z`);
    server.setHandler((req, res) => {
      const before = req.query.get("before");
      const rest = before ? stamps.filter((s) => s < before) : stamps;
      const page = rest.slice(0, 3);
      const q = new URLSearchParams(req.query);
      q.set("before", page.at(-1) ?? "");
      const next = rest.length > 3 ? `${server.url}${req.path}?${q}` : null;
      json(res, 200, { next, results: page.map((timestamp) => event(`e-${timestamp}`, timestamp)) });
    });
    const events = await collect(client.events.list(1, { event: "$pageview" }));
    expect(events.map((e) => e.timestamp)).toEqual(stamps);
    expect(server.seen.at(-1)?.query.get("event")).toBe("$pageview");
  });

  it("refuses a `next` link on another origin without requesting it", async () => {
    server.setHandler((_req, res) =>
      json(
        res,
        200,
        offsetPage([dashboard(1)], 2, "https://evil.example/api/projects/1/dashboards/?offset=1"),
      ),
    );
    const before = server.seen.length;
    const error = await collect(dashboardsApi(client).list(1)).catch((e) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toContain("another origin (https://evil.example)");
    expect(server.seen.length - before).toBe(1);
  });

  it("stops with an error when the service repeats a `next` link", async () => {
    server.setHandler((req, res) =>
      json(res, 200, offsetPage([dashboard(1)], 10, `${server.url}${req.path}?offset=1`)),
    );
    await expect(collect(dashboardsApi(client).list(1))).rejects.toThrow(/same next page came twice/);
  });

  it("does not request anything until iterated", async () => {
    const before = server.seen.length;
    dashboardsApi(client).list(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(server.seen.length).toBe(before);
  });
});

describe("a list that does not end by itself (SPEC §8)", () => {
  const refused = async (run: () => Promise<unknown>, message: string, requests: number) => {
    const before = server.seen.length;
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toBe(message);
    expect(server.seen.length - before).toBe(requests);
  };

  it("stops when `next` loops back to the first page", async () => {
    server.setHandler((req, res) => {
      const second = req.query.get("page") === "2";
      const next = second ? `${server.url}${req.path}` : `${server.url}${req.path}?page=2`;
      json(res, 200, offsetPage([dashboard(second ? 2 : 1)], 100, next));
    });
    const message =
      "unexpected answer from the service for GET dashboards: the same next page came twice; stopped paging";
    await refused(() => collect(dashboardsApi(client).list(1)), message, 2);
    // ?page=2&limit=100, then the first page, then ?page=2 again (the query differs from the head's).
    await refused(() => dashboardsApi(client).listAll(1, { page: 2 }), message, 3);
  });

  it("refuses a cross-origin `next` in the rest of a full read too, without requesting it", async () => {
    server.setHandler((_req, res) =>
      json(
        res,
        200,
        offsetPage([dashboard(1)], 2, "https://evil.example/api/projects/1/dashboards/?offset=1"),
      ),
    );
    const before = server.seen.length;
    const error = await dashboardsApi(client)
      .listAll(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as Error).message).toBe(
      "GET dashboards: refusing to follow a link to another origin (https://evil.example)",
    );
    expect(server.seen.length - before).toBe(1);
  });

  it("stops when the pages outrun their count (a lying count)", async () => {
    server.setHandler((req, res) => {
      const offset = Number(req.query.get("offset") ?? 0);
      const next = `${server.url}${req.path}?limit=2&offset=${offset + 2}`;
      json(res, 200, offsetPage([dashboard(offset), dashboard(offset + 1)], 5, next));
    });
    const message =
      "unexpected answer from the service for GET dashboards: more pages than its count of 5 allows";
    await refused(() => collect(dashboardsApi(client).list(1, { limit: 2 })), message, 3);
    // listAll: the first page (limit 100) holds 2 of 5, the offsets 100.. are past the count, so the
    // rest is read by `next`: two more pages reach the count while `next` goes on.
    await refused(() => dashboardsApi(client).listAll(1), message, 3);
  });

  it("refuses an absurd count before reading any further page", async () => {
    server.setHandler((req, res) =>
      json(res, 200, offsetPage([dashboard(1)], 1e12, `${server.url}${req.path}?offset=100`)),
    );
    const message =
      "unexpected answer from the service for GET dashboards: count 1000000000000 is beyond the 1,000,000 objects one list may hold";
    await refused(() => dashboardsApi(client).listAll(1), message, 1);
    await refused(() => collect(dashboardsApi(client).list(1)), message, 1);
    server.setHandler((req, res) =>
      json(res, 200, offsetPage([batchExport("e")], 1_000_001, `${server.url}${req.path}?offset=100`)),
    );
    await refused(
      () => batchExportsApi(client).listAll(1),
      "unexpected answer from the service for GET batch_exports: count 1000001 is beyond the 1,000,000 objects one list may hold",
      1,
    );
  });

  it("believes a count at the cap", async () => {
    server.setHandler((req, res) =>
      json(res, 200, offsetPage([dashboard(1)], 1_000_000, `${server.url}${req.path}?offset=100`)),
    );
    await expect(collect(dashboardsApi(client).list(1), 1)).resolves.toHaveLength(1);
  });

  describe("with small limits", () => {
    let fewPages: ServiceClient;
    let fewObjects: ServiceClient;
    beforeAll(() => {
      fewPages = new ServiceClient({ host: server.url, apiKey: "phx_test", pageLimits: { maxPages: 50 } });
      fewObjects = new ServiceClient({
        host: server.url,
        apiKey: "phx_test",
        pageLimits: { maxObjects: 30 },
      });
    });
    afterAll(() => Promise.all([fewPages.close(), fewObjects.close()]));

    it("ends an endless cursor chain after maxPages pages", async () => {
      let n = 0;
      server.setHandler((req, res) =>
        json(res, 200, {
          next: `${server.url}${req.path}?cursor=${++n}`,
          previous: null,
          results: [run(`r${n}`)],
        }),
      );
      await refused(
        () => collect(runsApi(fewPages).list(1, "e")),
        "unexpected answer from the service for GET batch_exports/e/runs: the list goes on past 50 pages",
        50,
      );
    });

    it("ends a chain after maxObjects items, whatever the pages claim", async () => {
      let n = 0;
      server.setHandler((req, res) => {
        n += 1;
        const results = Array.from({ length: 10 }, (_, i) => event(`e${n}-${i}`));
        json(res, 200, { next: `${server.url}${req.path}?before=${n}`, results });
      });
      await refused(
        () => collect(fewObjects.events.list(1)),
        "unexpected answer from the service for GET events: the list holds more than 30 objects",
        4,
      );
    });

    it("refuses a count beyond maxObjects", async () => {
      server.setHandler((req, res) =>
        json(res, 200, offsetPage([dashboard(1)], 31, `${server.url}${req.path}?offset=100`)),
      );
      await refused(
        () => dashboardsApi(fewObjects).listAll(1),
        "unexpected answer from the service for GET dashboards: count 31 is beyond the 30 objects one list may hold",
        1,
      );
    });
  });
});

describe("a hostile `next` link", () => {
  const odd = (url: string) => [
    url.replace("http://", "HTTP://"),
    `HTTP://127.0.0.1:1/api/projects/1/dashboards/?offset=1`,
    ` ${url}/api/projects/1/dashboards/?offset=1`,
    `http:evil.example/api/projects/1/dashboards/?offset=1`,
    `//evil.example/api/projects/1/dashboards/?offset=1`,
    "javascript:alert(1)",
    "/api/projects/1/dashboards/?offset=1",
    "http://[::1",
    `${url}\n/api/projects/1/dashboards/?offset=1`,
  ];

  it("is an unexpected answer naming the link, never an internal error, and is never requested", async () => {
    for (const next of odd(server.url)) {
      for (const read of [
        () => collect(dashboardsApi(client).list(1)),
        () => dashboardsApi(client).listAll(1),
      ]) {
        server.setHandler((_req, res) => json(res, 200, offsetPage([dashboard(1)], 2, next as string)));
        const before = server.seen.length;
        const error = await read().catch((e: unknown) => e);
        expect(error, String(next)).toBeInstanceOf(UnexpectedAnswerError);
        expect((error as Error).message).toBe(
          `unexpected answer from the service for GET dashboards: its next link ${JSON.stringify(next)} is not a link on ${server.url}`,
        );
        expect(server.seen.length - before).toBe(1);
      }
    }
  });

  it("is named scrubbed of the key", async () => {
    server.setHandler((_req, res) =>
      json(res, 200, offsetPage([dashboard(1)], 2, "HTTP://127.0.0.1:1/?personal_api_key=phx_test")),
    );
    const error = await collect(dashboardsApi(client).list(1)).catch((e: unknown) => e);
    expect((error as Error).message).toContain(
      '"HTTP://127.0.0.1:1/?personal_api_key=(secret from $POSTHOG_API_KEY)"',
    );
  });
});

describe("a redirect", () => {
  it.each([301, 302, 303, 307, 308])("answered %i is never read as the answer", async (status) => {
    server.setHandler((_req, res) => {
      res.writeHead(status, { location: "https://evil.example/", "content-type": "application/json" });
      res.end(JSON.stringify(offsetPage([dashboard(1)])));
    });
    const before = server.seen.length;
    const error = await collect(dashboardsApi(client).list(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toBe(
      `unexpected answer from the service for GET dashboards: it answered ${status} (a redirect, to https://evil.example/), which is not followed: is the host right?`,
    );
    expect(server.seen.length - before).toBe(1);
  });
});
