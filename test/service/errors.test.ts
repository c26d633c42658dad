/** One-line messages users understand, and the API key absent from every output and thrown object. */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { dashboardsApi } from "../../src/kinds/dashboard/service.js";
import { ServiceClient } from "../../src/service/client.js";
import { ServiceError } from "../../src/service/errors.js";
import { type FakeServer, json, startFakeServer } from "./fake-server.js";

const KEY = "phx_Sup3rSecretKeyValue0123456789";
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());

function client(log?: (line: string) => void) {
  return new ServiceClient({
    host: server.url,
    apiKey: KEY,
    maxRetries: 1,
    clock: { now: () => 0, sleep: async () => {} },
    ...(log ? { log } : {}),
  });
}

describe("error messages", () => {
  it.each([
    [
      400,
      { type: "validation_error", code: "required", detail: "This field is required.", attr: "name" },
      "PATCH dashboards/42: 400 on name: This field is required.",
    ],
    [
      401,
      {
        type: "authentication_error",
        code: "authentication_failed",
        detail: "Personal API key found in request Authorization header is invalid.",
        attr: null,
      },
      "PATCH dashboards/42: 401: the service refused the API key (check POSTHOG_API_KEY): Personal API key found in request Authorization header is invalid.",
    ],
    [
      403,
      {
        type: "authentication_error",
        code: "permission_denied",
        detail: "API key missing required scope 'dashboard:write'",
        attr: null,
      },
      "PATCH dashboards/42: 403: API key missing required scope 'dashboard:write' (give the key the 'dashboard:write' scope)",
    ],
    [
      404,
      { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null },
      "PATCH dashboards/42: 404: Not found.",
    ],
    [405, undefined, "PATCH dashboards/42: 405: Method Not Allowed"],
    [
      403,
      { error: "Sharing with password requires the Advanced Permissions feature" },
      "PATCH dashboards/42: 403: Sharing with password requires the Advanced Permissions feature",
    ],
  ])("%i → one line", async (status, body, message) => {
    server.setHandler((_req, res) => json(res, status, body));
    const c = client();
    const error = await dashboardsApi(c)
      .update(1, 42, { name: "" })
      .catch((e) => e);
    await c.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toBe(message);
    expect(error.message).not.toContain("\n");
    expect(error.status).toBe(status);
    expect(error.path).toBe("/api/projects/1/dashboards/42/");
    expect(error.exitCode).toBe(1);
  });

  it("carries the service's type, code, detail and attr", async () => {
    server.setHandler((_req, res) =>
      json(res, 400, {
        type: "validation_error",
        code: "invalid_input",
        detail: "Bad.",
        attr: "destination__config",
      }),
    );
    const c = client();
    const error = await batchExportsApi(c)
      .update(1, "e", {})
      .catch((e) => e);
    await c.close();
    expect(error).toMatchObject({
      type: "validation_error",
      serviceCode: "invalid_input",
      code: "service_error",
      detail: "Bad.",
      attr: "destination__config",
    });
  });
});

describe("the API key", () => {
  it("appears nowhere: messages, causes, inspect, JSON, logs, stats, the client itself", async () => {
    const lines: string[] = [];
    const c = client((line) => lines.push(line));
    const errors: unknown[] = [];
    // The service echoes the Authorization header back in its error detail.
    server.setHandler((req, res) =>
      json(res, 400, {
        type: "validation_error",
        code: "x",
        detail: `bad ${req.headers.authorization}`,
        attr: null,
      }),
    );
    errors.push(
      await dashboardsApi(c)
        .get(1, 1)
        .catch((e) => e),
    );
    server.setHandler((_req, res) => void res.socket?.destroy());
    errors.push(
      await dashboardsApi(c)
        .get(1, 1)
        .catch((e) => e),
    );
    errors.push(
      await dashboardsApi(c)
        .create(1, { name: "x" })
        .catch((e) => e),
    );
    const refused = new ServiceClient({
      host: "http://127.0.0.1:1",
      apiKey: KEY,
      maxRetries: 0,
      log: (l) => lines.push(l),
    });
    errors.push(
      await dashboardsApi(refused)
        .get(1, 1)
        .catch((e) => e),
    );
    server.setHandler((_req, res) => void setTimeout(() => json(res, 200, {}), 500));
    const slow = new ServiceClient({
      host: server.url,
      apiKey: KEY,
      maxRetries: 0,
      timeouts: { totalMs: 20 },
    });
    errors.push(
      await dashboardsApi(slow)
        .get(1, 1)
        .catch((e) => e),
    );
    await Promise.all([c.close(), refused.close(), slow.close()]);

    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(errors).toHaveLength(5);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ServiceError);
      const e = error as ServiceError;
      expect(e.cause === undefined || e.cause instanceof Error).toBe(true);
      const dumps = [
        e.message,
        e.stack,
        inspect(e, { depth: null, showHidden: true }),
        JSON.stringify(e),
        String(e.cause),
      ];
      for (const dump of dumps) expect(dump ?? "").not.toContain(KEY);
    }
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.join("\n")).not.toContain(KEY);
    expect(inspect(c, { depth: null, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(c)).not.toContain(KEY);
    expect(JSON.stringify(c.stats)).not.toContain(KEY);
    expect((errors[0] as ServiceError).detail).toBe("bad Bearer (secret from $POSTHOG_API_KEY)");
  });
});
