/**
 * Control endpoints refuse browsers (SPEC §8, issue 14 item 9): a web page of another origin must not
 * reconfigure or read a developer's local emulator. Tools send no Origin and stay unauthenticated.
 */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { P, useEmulator } from "./support/harness.js";

const h = useEmulator();

async function control(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await request(`${h.url}/_emulator/${path}`, {
    method: method as "GET",
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text === "" ? undefined : JSON.parse(text) };
}

const refused = (origin: string) => ({
  type: "authentication_error",
  code: "permission_denied",
  detail: `Control endpoints refuse requests from web pages of other origins (${origin}); call them from a tool, not a browser.`,
  attr: null,
});

describe("control endpoints and browsers", () => {
  it("serve tools that send no Origin, without credentials", async () => {
    expect((await control("POST", "reset", {})).status).toBe(204);
    expect((await control("GET", "state", {})).status).toBe(200);
  });

  it("refuse another origin, and a page's opaque null origin, before doing anything", async () => {
    const evil = await control("POST", "seed", { origin: "http://evil.example" }, { dashboards: [] });
    expect(evil.status).toBe(403);
    expect(evil.body).toEqual(refused("Origin: http://evil.example"));
    const nullOrigin = await control("POST", "faults", { origin: "null" }, { error_rate: 1 });
    expect(nullOrigin.status).toBe(403);
    expect(nullOrigin.body).toEqual(refused("Origin: null"));
    const read = await control("GET", "state", { origin: "https://evil.example" });
    expect(read.status).toBe(403);
    // Nothing changed: the seed still has its dashboards and no fault was set.
    expect((await h.api("GET", `${P}/dashboards/`)).body.count).toBe(4);
    expect((await control("GET", "faults", {})).body).toEqual({});
  });

  it("refuse a rebound DNS name even when Host and Origin agree", async () => {
    const port = new URL(h.url).port;
    const res = await control("POST", "reset", {
      host: `evil.example:${port}`,
      origin: `http://evil.example:${port}`,
    });
    // Refused for its Host, before the Origin is looked at.
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("disallowed_host");
  });

  it("and every endpoint refuse a Host that is not a loopback name or address (DNS rebinding)", async () => {
    const port = new URL(h.url).port;
    // A page of rebind.example, its name now resolving to 127.0.0.1, reads "its own" origin: no
    // Origin header and no cross-site metadata on a same-origin GET, only the Host gives it away.
    for (const host of [
      `rebind.example:${port}`,
      `localhost.rebind.example:${port}`,
      `api.localhost:${port}`,
    ]) {
      const state = await request(`${h.url}/_emulator/state`, { headers: { host } });
      expect(state.statusCode, host).toBe(400);
      const text = await state.body.text();
      expect(text).not.toContain(h.key);
      expect(JSON.parse(text).code).toBe("disallowed_host");
      const api = await request(`${h.url}${P}/dashboards/`, {
        headers: { host, authorization: `Bearer ${h.key}` },
      });
      expect(api.statusCode, host).toBe(400);
      expect(await api.body.text()).not.toContain("Product KPIs");
    }
    // Loopback, by name or address, is served.
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `127.9.8.7:${port}`,
      `[::1]:${port}`,
      "localhost",
    ]) {
      const state = await request(`${h.url}/_emulator/state`, { headers: { host } });
      expect(state.statusCode, host).toBe(200);
      await state.body.dump();
    }
    // Nothing refused was logged as an API request.
    expect(await h.requests()).toEqual([]);
  });

  it("refuse cross-site fetch metadata without an Origin (e.g. an <img> GET)", async () => {
    const res = await control("GET", "requests", { "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refused("Sec-Fetch-Site: cross-site"));
  });

  it("accept the emulator's own origin, by address or localhost", async () => {
    const port = new URL(h.url).port;
    expect((await control("POST", "reset", { origin: h.url })).status).toBe(204);
    const local = await control("GET", "faults", {
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
      "sec-fetch-site": "same-origin",
    });
    expect(local.status).toBe(200);
    // A different port on the same address is another origin.
    const otherPort = await control("POST", "reset", { origin: "http://127.0.0.1:1" });
    expect(otherPort.status).toBe(403);
  });
});
