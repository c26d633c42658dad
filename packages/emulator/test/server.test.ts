import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { hostAllowed } from "../src/control.js";
import { defaultSeed } from "../src/default-seed.js";
import { FaultState } from "../src/faults.js";
import { RateLimiter } from "../src/rate-limit.js";
import { Router } from "../src/router.js";
import { handleRequest, type ServerState } from "../src/server.js";
import { Store } from "../src/store.js";
import { TEST_NOW, testClock } from "./support/clock.js";

describe("handleRequest", () => {
  it("answers 500 server_error when a handler throws, reports it, and keeps serving", async () => {
    const router = new Router();
    router.add({
      method: "GET",
      pattern: "/api/projects/:project/boom",
      scope: null,
      handler: () => {
        throw new TypeError("bug");
      },
    });
    router.add({
      method: "GET",
      pattern: "/api/projects/:project/ok",
      scope: null,
      handler: () => ({ status: 200, body: { ok: true } }),
    });
    const errors: unknown[] = [];
    const state: ServerState = {
      store: new Store(defaultSeed(new Date(TEST_NOW))),
      clock: testClock(),
      router,
      limiter: new RateLimiter(),
      faults: () => new FaultState({}),
      optionLimits: undefined,
      log: [],
      control: async (_req, res) => void res.end(),
      hostAllowed: (host) => hostAllowed(host, false),
      onError: (e) => errors.push(e),
    };
    const server = createServer((req, res) => void handleRequest(state, req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const headers = { Authorization: "Bearer phx_emulator" };
      const boom = await fetch(`${base}/api/projects/12345/boom/`, { headers });
      expect(boom.status).toBe(500);
      expect(await boom.json()).toEqual({
        type: "server_error",
        code: "error",
        detail: "A server error occurred.",
        attr: null,
      });
      expect(errors).toHaveLength(1);
      // A null scope means the action has no API-key scope mapping: only full-access keys pass.
      expect((await fetch(`${base}/api/projects/12345/ok/`, { headers })).status).toBe(200);
      expect(state.log.map((e) => e.status)).toEqual([500, 200]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
