/**
 * Retry policy on each fault: 502/503/504, 429 with Retry-After, resets, timeouts; creates are never
 * repeated once they may have reached the service.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { backfillsApi, runsApi } from "../../src/kinds/batch-export/operations/service.js";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { collaboratorsApi, dashboardsApi, sharingApi } from "../../src/kinds/dashboard/service.js";
import { ServiceClient } from "../../src/service/client.js";
import { NetworkError, ServiceError, UnknownOutcomeError } from "../../src/service/errors.js";
import { type FakeServer, type Handler, json, startFakeServer } from "./fake-server.js";
import { batchExport, sharing } from "./samples.js";

let server: FakeServer;
let slept: number[] = [];
let clients: ServiceClient[] = [];
/** A fake clock: sleeping advances it at once. */
let clock = 0;

function makeClient(extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {}) {
  const client = new ServiceClient({
    host: server.url,
    apiKey: "phx_test",
    clock: {
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
      now: () => clock,
    },
    random: () => 0.5,
    ...extra,
  });
  clients.push(client);
  return client;
}

/** Answers with the scripted faults first, then with `ok`. */
function script(
  faults: Handler[],
  ok: Handler = (_req, res) => json(res, 200, { id: 1, paused: true }),
): void {
  let i = 0;
  server.setHandler((req, res, raw) => (faults[i] ? faults[i++]!(req, res, raw) : ok(req, res, raw)));
}
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    json(res, code, { type: "server_error", code: "error", detail: `injected ${code}`, attr: null }, headers);
const reset: Handler = (_req, res) => void res.socket?.destroy();

beforeAll(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  slept = [];
  server.seen.length = 0;
});
afterAll(() => server.close());

describe("retry-safe requests", () => {
  it.each([502, 503, 504])("GET retries %i with jittered exponential backoff", async (code) => {
    script([status(code), status(code)]);
    const client = makeClient();
    await expect(dashboardsApi(client).get(1, 1)).resolves.toEqual({ id: 1, paused: true });
    expect(server.seen).toHaveLength(3);
    expect(slept).toEqual([125, 250]); // random 0.5 × 250 ms × 2^attempt
    expect(client.stats.retries).toBe(2);
  });

  it("honours Retry-After on 429 for every method, creates included", async () => {
    script([status(429, { "retry-after": "3" })]);
    const client = makeClient();
    await dashboardsApi(client).create(1, { name: "x" });
    expect(server.seen.map((s) => s.method)).toEqual(["POST", "POST"]);
    expect(slept[0]).toBeGreaterThanOrEqual(3000);
    expect(client.stats.throttled429).toBe(1);
    expect(client.stats.waitedMs).toBeGreaterThanOrEqual(3000);
  });

  it("retries a reset connection for PATCH and the idempotent pause", async () => {
    script([reset, reset]);
    const client = makeClient();
    await dashboardsApi(client).update(1, 1, { name: "x" });
    script([reset]);
    await batchExportsApi(client).pause(1, "e");
    expect(server.seen.map((s) => s.method)).toEqual(["PATCH", "PATCH", "PATCH", "POST", "POST"]);
  });

  it("retries after a headers timeout", async () => {
    // undici checks its timeouts about once a second, so the late answer must come well after that.
    script([(_req, res) => void setTimeout(() => json(res, 200, { late: true }), 2500)], (_req, res) =>
      json(res, 200, sharing),
    );
    const client = makeClient({ timeouts: { headersMs: 100 } });
    await expect(sharingApi(client).get(1, 1)).resolves.toEqual(sharing);
    expect(server.seen).toHaveLength(2);
  });

  it("retries after the total deadline of an attempt", async () => {
    script([(_req, res) => void setTimeout(() => json(res, 200, {}), 300)], (_req, res) =>
      json(res, 200, batchExport("e")),
    );
    const client = makeClient({ timeouts: { totalMs: 50 } });
    await expect(batchExportsApi(client).get(1, "e")).resolves.toEqual(batchExport("e"));
    expect(server.seen).toHaveLength(2);
  });

  it("logs one line per attempt with method, path, status, ms and the retry", async () => {
    script([status(502)]);
    const lines: string[] = [];
    const client = makeClient({ log: (line) => lines.push(line) });
    await dashboardsApi(client).get(1, 5);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/api\/projects\/1\/dashboards\/5\/ 502 \d+ms: retry 1\/5 in 125ms$/);
    expect(lines[1]).toMatch(/^GET \/api\/projects\/1\/dashboards\/5\/ 200 \d+ms \(after 1 retry\)$/);
    expect(client.describeStats()).toMatch(/^requests: GET 2; retries 1; 429s 0; waited \d+ ms$/);
  });

  it("gives up after maxRetries with the last status", async () => {
    script([], status(502));
    const client = makeClient({ maxRetries: 2 });
    const error = await dashboardsApi(client)
      .get(1, 9)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toBe("GET dashboards/9: 502: injected 502");
    expect(server.seen).toHaveLength(3);
  });

  it("treats a 404 on a retried DELETE as done", async () => {
    script([reset], status(404));
    const client = makeClient();
    await expect(batchExportsApi(client).delete(1, "e")).resolves.toBeUndefined();
    script([], status(404));
    await expect(batchExportsApi(client).delete(1, "e")).rejects.toThrow("DELETE batch_exports/e: 404");
  });

  it("tries a host that never answered twice (creates too: nothing was sent), then fails every request at once", async () => {
    const client = new ServiceClient({
      host: "http://127.0.0.1:1",
      apiKey: "phx_test",
      maxRetries: 5,
      clock: { now: () => clock, sleep: async (ms) => void slept.push(ms) },
    });
    clients.push(client);
    const error = await dashboardsApi(client)
      .create(1, { name: "x" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(UnknownOutcomeError);
    expect(error.status).toBe(0);
    expect(error.message).toBe(
      "POST dashboards: cannot connect to http://127.0.0.1:1 (connection refused): check POSTHOG_HOST / --host (e.g. https://us.posthog.com or https://eu.posthog.com)",
    );
    expect(slept).toHaveLength(1);
    expect(client.stats.requests.POST).toBe(2);
    // Known unreachable now: the next request is not even tried.
    const next = await dashboardsApi(client)
      .listAll(1)
      .catch((e) => e);
    expect(next.message).toMatch(/^GET dashboards: cannot connect to http:\/\/127\.0\.0\.1:1 /);
    expect(client.stats.requests.GET).toBeUndefined();
    expect(slept).toHaveLength(1);
  });

  it("retries refused connections with the usual budget once the host has answered", async () => {
    const own = await startFakeServer();
    own.setHandler((_req, res) => json(res, 200, { id: 9 }));
    const client = makeClient({ host: own.url, maxRetries: 2 });
    await dashboardsApi(client).get(1, 9);
    await own.close();
    const error = await dashboardsApi(client)
      .get(1, 9)
      .catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(
      /^GET dashboards\/9: no answer from http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
    );
    expect(slept).toHaveLength(2);
  });
});

describe("creates", () => {
  it.each([
    ["a lost answer", reset],
    ["a 502", status(502)],
    ["a 503", status(503)],
    ["a 504", status(504)],
  ])("reports %s as an unknown outcome and does not repeat the request", async (_what, fault) => {
    script([fault]);
    const client = makeClient();
    const error = await batchExportsApi(client)
      .create(1, { name: "x" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error.message).toMatch(/^POST batch_exports: .*look the object up before trying again$/);
    expect(server.seen).toHaveLength(1);
    expect(client.stats.unknownOutcomes).toBe(1);
  });

  it.each([
    ["collaborators.add", (c: ServiceClient) => collaboratorsApi(c).add(1, 2, { user_uuid: "u", level: 37 })],
    [
      "batchExports.backfill",
      (c: ServiceClient) => backfillsApi(c).start(1, "e", { start_at: "a", end_at: "b" }),
    ],
    ["runs.retry", (c: ServiceClient) => runsApi(c).retry(1, "e", "r")],
    ["dashboards.create", (c: ServiceClient) => dashboardsApi(c).create(1, {})],
  ])("%s is not repeated after a reset", async (_name, run) => {
    script([reset]);
    await expect(run(makeClient())).rejects.toBeInstanceOf(UnknownOutcomeError);
    expect(server.seen).toHaveLength(1);
  });

  it("does not retry a 500 or a 400", async () => {
    script([status(500)]);
    await expect(dashboardsApi(makeClient()).get(1, 1)).rejects.toThrow(
      "GET dashboards/1: 500: injected 500",
    );
    expect(server.seen).toHaveLength(1);
  });
});
