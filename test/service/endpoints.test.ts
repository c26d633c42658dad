/** Every client method sends the right method, path and body, and returns the parsed, checked answer. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillsApi, logsApi, runsApi } from "../../src/kinds/batch-export/operations/service.js";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { collaboratorsApi, dashboardsApi, sharingApi } from "../../src/kinds/dashboard/service.js";
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
  ["dashboards.list", (c) => collect(dashboardsApi(c).list(7, { search: "x" })), "GET", `${P}/dashboards/`],
  ["dashboards.get", (c) => dashboardsApi(c).get(7, 42), "GET", `${P}/dashboards/42/`],
  [
    "dashboards.create",
    (c) => dashboardsApi(c).create(7, { name: "A" }),
    "POST",
    `${P}/dashboards/`,
    { name: "A" },
  ],
  [
    "dashboards.update",
    (c) => dashboardsApi(c).update(7, 42, { pinned: true }),
    "PATCH",
    `${P}/dashboards/42/`,
    { pinned: true },
  ],
  [
    "dashboards.moveTile",
    (c) => dashboardsApi(c).moveTile(7, 42, { tile: { id: 1 }, toDashboard: 43 }),
    "PATCH",
    `${P}/dashboards/42/move_tile/`,
    { tile: { id: 1 }, toDashboard: 43 },
  ],
  [
    "dashboards.createFromTemplateJson",
    (c) => dashboardsApi(c).createFromTemplateJson(7, { template: {} }),
    "POST",
    `${P}/dashboards/create_from_template_json/`,
    { template: {} },
  ],
  ["collaborators.list", (c) => collaboratorsApi(c).list(7, 42), "GET", `${P}/dashboards/42/collaborators/`],
  [
    "collaborators.add",
    (c) => collaboratorsApi(c).add(7, 42, { user_uuid: "u-1", level: 37 }),
    "POST",
    `${P}/dashboards/42/collaborators/`,
    { user_uuid: "u-1", level: 37 },
  ],
  [
    "collaborators.remove",
    (c) => collaboratorsApi(c).remove(7, 42, "u-1"),
    "DELETE",
    `${P}/dashboards/42/collaborators/u-1/`,
  ],
  ["sharing.get", (c) => sharingApi(c).get(7, 42), "GET", `${P}/dashboards/42/sharing/`],
  [
    "sharing.update",
    (c) => sharingApi(c).update(7, 42, { enabled: true }),
    "PATCH",
    `${P}/dashboards/42/sharing/`,
    { enabled: true },
  ],
  ["sharing.refresh", (c) => sharingApi(c).refresh(7, 42), "POST", `${P}/dashboards/42/sharing/refresh/`],
  ["batchExports.list", (c) => collect(batchExportsApi(c).list(7)), "GET", `${P}/batch_exports/`],
  [
    "batchExports.listForOrganization",
    (c) => collect(batchExportsApi(c).listForOrganization("org-1")),
    "GET",
    "/api/organizations/org-1/batch_exports/",
  ],
  ["batchExports.get", (c) => batchExportsApi(c).get(7, "be-1"), "GET", `${E}/`],
  [
    "batchExports.create",
    (c) => batchExportsApi(c).create(7, { name: "n" }),
    "POST",
    `${P}/batch_exports/`,
    { name: "n" },
  ],
  [
    "batchExports.update",
    (c) => batchExportsApi(c).update(7, "be-1", { paused: true }),
    "PATCH",
    `${E}/`,
    { paused: true },
  ],
  ["batchExports.delete", (c) => batchExportsApi(c).delete(7, "be-1"), "DELETE", `${E}/`],
  ["batchExports.pause", (c) => batchExportsApi(c).pause(7, "be-1"), "POST", `${E}/pause/`],
  [
    "batchExports.unpause",
    (c) => batchExportsApi(c).unpause(7, "be-1", { backfill: true }),
    "POST",
    `${E}/unpause/`,
    { backfill: true },
  ],
  [
    "batchExports.backfill",
    (c) => backfillsApi(c).start(7, "be-1", { start_at: "a", end_at: "b" }),
    "POST",
    `${E}/backfills/`,
    { start_at: "a", end_at: "b" },
  ],
  ["batchExports.backfills", (c) => collect(backfillsApi(c).list(7, "be-1")), "GET", `${E}/backfills/`],
  ["batchExports.logs", (c) => collect(logsApi(c).list(7, "be-1", { level: "ERROR" })), "GET", `${E}/logs/`],
  ["runs.list", (c) => collect(runsApi(c).list(7, "be-1")), "GET", `${E}/runs/`],
  ["runs.get", (c) => runsApi(c).get(7, "be-1", "r-1"), "GET", `${E}/runs/r-1/`],
  ["runs.retry", (c) => runsApi(c).retry(7, "be-1", "r-1"), "POST", `${E}/runs/r-1/retry/`],
  ["runs.cancel", (c) => runsApi(c).cancel(7, "be-1", "r-1"), "POST", `${E}/runs/r-1/cancel/`],
  ["runs.logs", (c) => collect(runsApi(c).logs(7, "be-1", "r-1")), "GET", `${E}/runs/r-1/logs/`],
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
    await collect(
      dashboardsApi(client).list(7, { tags: ["a", "b"], search: "q r", limit: 5, skip: undefined }),
    );
    expect(server.seen[before]?.url).toBe("/api/projects/7/dashboards/?tags=a&tags=b&search=q+r&limit=5");
  });

  it("counts requests by method", () => {
    expect(client.stats.requests.GET).toBeGreaterThan(10);
    expect(client.stats.requests.DELETE).toBe(2);
    expect(client.stats.retries).toBe(0);
  });
});
