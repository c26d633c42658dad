/** Every client method sends the right method, path and body, and returns the parsed, checked answer. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, ServiceClient } from "../../src/service/client.js";
import { type FakeServer, startFakeServer } from "./fake-server.js";
import { answerEverything } from "./samples.js";

let server: FakeServer;
let client: ServiceClient;

beforeAll(async () => {
  server = await startFakeServer(answerEverything);
  client = new ServiceClient({ host: server.url, apiKey: "phx_test" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

type Call = [
  name: string,
  run: (c: ServiceClient) => Promise<unknown>,
  method: string,
  path: string,
  body?: unknown,
];
const P = "/api/projects/7";
const E = `${P}/batch_exports/be-1`;

const calls: Call[] = [
  ["dashboards.list", (c) => collect(c.dashboards.list(7, { search: "x" })), "GET", `${P}/dashboards/`],
  ["dashboards.get", (c) => c.dashboards.get(7, 42), "GET", `${P}/dashboards/42/`],
  [
    "dashboards.create",
    (c) => c.dashboards.create(7, { name: "A" }),
    "POST",
    `${P}/dashboards/`,
    { name: "A" },
  ],
  [
    "dashboards.update",
    (c) => c.dashboards.update(7, 42, { pinned: true }),
    "PATCH",
    `${P}/dashboards/42/`,
    { pinned: true },
  ],
  [
    "dashboards.moveTile",
    (c) => c.dashboards.moveTile(7, 42, { tile: { id: 1 }, toDashboard: 43 }),
    "PATCH",
    `${P}/dashboards/42/move_tile/`,
    { tile: { id: 1 }, toDashboard: 43 },
  ],
  [
    "dashboards.createFromTemplateJson",
    (c) => c.dashboards.createFromTemplateJson(7, { template: {} }),
    "POST",
    `${P}/dashboards/create_from_template_json/`,
    { template: {} },
  ],
  ["collaborators.list", (c) => c.collaborators.list(7, 42), "GET", `${P}/dashboards/42/collaborators/`],
  [
    "collaborators.add",
    (c) => c.collaborators.add(7, 42, { user_uuid: "u-1", level: 37 }),
    "POST",
    `${P}/dashboards/42/collaborators/`,
    { user_uuid: "u-1", level: 37 },
  ],
  [
    "collaborators.remove",
    (c) => c.collaborators.remove(7, 42, "u-1"),
    "DELETE",
    `${P}/dashboards/42/collaborators/u-1/`,
  ],
  ["sharing.get", (c) => c.sharing.get(7, 42), "GET", `${P}/dashboards/42/sharing/`],
  [
    "sharing.update",
    (c) => c.sharing.update(7, 42, { enabled: true }),
    "PATCH",
    `${P}/dashboards/42/sharing/`,
    { enabled: true },
  ],
  ["sharing.refresh", (c) => c.sharing.refresh(7, 42), "POST", `${P}/dashboards/42/sharing/refresh/`],
  ["batchExports.list", (c) => collect(c.batchExports.list(7)), "GET", `${P}/batch_exports/`],
  [
    "batchExports.listForOrganization",
    (c) => collect(c.batchExports.listForOrganization("org-1")),
    "GET",
    "/api/organizations/org-1/batch_exports/",
  ],
  ["batchExports.get", (c) => c.batchExports.get(7, "be-1"), "GET", `${E}/`],
  [
    "batchExports.create",
    (c) => c.batchExports.create(7, { name: "n" }),
    "POST",
    `${P}/batch_exports/`,
    { name: "n" },
  ],
  [
    "batchExports.update",
    (c) => c.batchExports.update(7, "be-1", { paused: true }),
    "PATCH",
    `${E}/`,
    { paused: true },
  ],
  ["batchExports.delete", (c) => c.batchExports.delete(7, "be-1"), "DELETE", `${E}/`],
  ["batchExports.pause", (c) => c.batchExports.pause(7, "be-1"), "POST", `${E}/pause/`],
  [
    "batchExports.unpause",
    (c) => c.batchExports.unpause(7, "be-1", { backfill: true }),
    "POST",
    `${E}/unpause/`,
    { backfill: true },
  ],
  [
    "batchExports.backfill",
    (c) => c.batchExports.backfill(7, "be-1", { start_at: "a", end_at: "b" }),
    "POST",
    `${E}/backfills/`,
    { start_at: "a", end_at: "b" },
  ],
  ["batchExports.backfills", (c) => collect(c.batchExports.backfills(7, "be-1")), "GET", `${E}/backfills/`],
  [
    "batchExports.logs",
    (c) => collect(c.batchExports.logs(7, "be-1", { level: "ERROR" })),
    "GET",
    `${E}/logs/`,
  ],
  ["runs.list", (c) => collect(c.runs.list(7, "be-1")), "GET", `${E}/runs/`],
  ["runs.get", (c) => c.runs.get(7, "be-1", "r-1"), "GET", `${E}/runs/r-1/`],
  ["runs.retry", (c) => c.runs.retry(7, "be-1", "r-1"), "POST", `${E}/runs/r-1/retry/`],
  ["runs.cancel", (c) => c.runs.cancel(7, "be-1", "r-1"), "POST", `${E}/runs/r-1/cancel/`],
  ["runs.logs", (c) => collect(c.runs.logs(7, "be-1", "r-1")), "GET", `${E}/runs/r-1/logs/`],
  ["events.list", (c) => collect(c.events.list(7, { event: "$pageview" })), "GET", `${P}/events/`],
  ["events.get", (c) => c.events.get(7, "0190-aa"), "GET", `${P}/events/0190-aa/`],
  [
    "events.values",
    (c) => c.events.values(7, { key: "$browser", event_name: "x" }),
    "GET",
    `${P}/events/values/`,
  ],
  ["organizations.get", (c) => c.organizations.get("@current"), "GET", "/api/organizations/@current/"],
  ["organizations.getProject", (c) => c.organizations.getProject(7), "GET", `${P}/`],
];

describe("every endpoint", () => {
  it.each(calls)("%s", async (_name, run, method, path, body) => {
    const before = server.seen.length;
    const result = await run(client);
    const req = server.seen[before];
    expect(server.seen.length).toBe(before + 1);
    expect(req?.method).toBe(method);
    expect(req?.path).toBe(path);
    expect(req?.body).toEqual(body);
    expect(req?.headers.authorization).toBe("Bearer phx_test");
    if (body !== undefined) expect(req?.headers["content-type"]).toBe("application/json");
    if (method === "DELETE") expect(result).toBeUndefined();
    else expect(result).toBeTruthy();
  });

  it("sends list filters as query parameters, arrays repeated", async () => {
    const before = server.seen.length;
    await collect(client.dashboards.list(7, { tags: ["a", "b"], search: "q r", limit: 5, skip: undefined }));
    expect(server.seen[before]?.url).toBe("/api/projects/7/dashboards/?tags=a&tags=b&search=q+r&limit=5");
  });

  it("counts requests by method", () => {
    expect(client.stats.requests.GET).toBeGreaterThan(10);
    expect(client.stats.requests.DELETE).toBe(2);
    expect(client.stats.retries).toBe(0);
  });
});
