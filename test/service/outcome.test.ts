/** Retry-After parsing, error bodies the service sends in several shapes, and the long-wait refusal. */
import { describe, expect, it } from "vitest";
import { dashboardsApi } from "../../src/kinds/dashboard/service.js";
import { ServiceClient } from "../../src/service/client.js";
import { parseErrorBody, shortPath } from "../../src/service/errors.js";
import { parseRetryAfter } from "../../src/service/outcome.js";
import { json, startFakeServer } from "./fake-server.js";

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter(["1.5"], 0)).toBe(1500);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", Date.parse("2026-01-01T00:00:00Z"))).toBe(10_000);
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });
});

describe("parseErrorBody", () => {
  it("reads the standard shape, ad-hoc bodies and nothing", () => {
    expect(parseErrorBody('{"type":"t","code":"c","detail":"d","attr":"a"}')).toEqual({
      type: "t",
      code: "c",
      detail: "d",
      attr: "a",
    });
    expect(parseErrorBody('{"error":"e"}')).toEqual({ detail: "e", attr: null });
    expect(parseErrorBody("")).toBeUndefined();
    expect(parseErrorBody("<html>bad gateway</html>")).toBeUndefined();
    expect(parseErrorBody("[1]")).toBeUndefined();
  });

  it("keeps the change request a held write opened (409 approval_required)", () => {
    const body = parseErrorBody(
      '{"code":"approval_required","status":"approval_required","message":"A change request has been created and is pending approval.","change_request_id":"cr-1","change_request":{"intent":{}}}',
    );
    expect(body).toEqual({
      code: "approval_required",
      detail: "A change request has been created and is pending approval.",
      attr: null,
      change_request_id: "cr-1",
    });
  });
});

describe("shortPath", () => {
  it("drops the project prefix and trailing slash", () => {
    expect(shortPath("/api/projects/12345/dashboards/42/")).toBe("dashboards/42");
    expect(shortPath("/api/environments/1/batch_exports/")).toBe("batch_exports");
    expect(shortPath("/api/organizations/o/batch_exports/")).toBe("organizations/o/batch_exports");
  });
});

describe("a Retry-After longer than two minutes", () => {
  it("fails at once instead of hanging, and says why", async () => {
    const server = await startFakeServer((_req, res) =>
      json(
        res,
        429,
        { type: "throttled_error", code: "throttled", detail: "Request was throttled.", attr: null },
        { "retry-after": "1800" },
      ),
    );
    const slept: number[] = [];
    const client = new ServiceClient({
      host: server.url,
      apiKey: "phx_k",
      clock: { now: () => 0, sleep: async (ms) => void slept.push(ms) },
    });
    const error = await dashboardsApi(client)
      .get(1, 1)
      .catch((e) => e);
    await client.close();
    await server.close();
    expect(error.message).toBe(
      "GET dashboards/1: 429: rate limited; the service asks to wait 1800 s (is another process using this key?)",
    );
    expect(slept).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });
});
