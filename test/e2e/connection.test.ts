/**
 * Reaching the service, as a newcomer gets it wrong (issue 21): a host that refuses connections fails
 * in one line within 3 s (at most two tries); a host that answers but is not PostHog says to check
 * POSTHOG_HOST, with an example; a host written without a scheme gets the URL to write instead. The
 * built binary, so the times are real ones.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { systemClock } from "posthog-gitops-shared/clock";
import { afterEach, describe, expect, it } from "vitest";
import { KEY, spawnCli, useEmulator } from "../support/emulator.js";

const h = useEmulator({ clock: systemClock });
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback port nothing listens on (it did a moment ago). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A loopback web server that is not PostHog: every request gets `status` and an HTML page. */
async function webServer(status: number): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "text/html" });
    res.end("<!doctype html><title>Welcome</title><p>Hello</p>");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const CONFIG = "project: 12345\ndashboards:\n  - name: A\n  - name: B\nbatch_exports: []\n";
const HINT = "check POSTHOG_HOST / --host (e.g. https://us.posthog.com or https://eu.posthog.com)";

describe("connecting", () => {
  it("a host that refuses connections: one line, within 3 s", async () => {
    h.write("posthog/a.yaml", CONFIG);
    const host = `http://127.0.0.1:${await deadPort()}`;
    const started = performance.now();
    const out = await spawnCli(["plan"], { POSTHOG_HOST: host, POSTHOG_API_KEY: KEY }, h.dir);
    const ms = performance.now() - started;
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr.split("\n").filter(Boolean)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^error: (reading project 12345: )?GET [^:]+: cannot connect to ${host} \\(connection refused\\): ${HINT.replace(/[.()/]/g, "\\$&")}$`,
        ),
      ),
    ]);
    expect(ms).toBeLessThan(3000);
  });

  it.each([
    [404, "404: Not Found"],
    [200, "the answer is not JSON"],
  ])("a host that answers %i with a web page is not taken for PostHog", async (status, what) => {
    h.write("posthog/a.yaml", CONFIG);
    const host = await webServer(status);
    const out = await spawnCli(["plan"], { POSTHOG_HOST: host, POSTHOG_API_KEY: KEY }, h.dir);
    expect(out.code).toBe(1);
    const lines = out.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(what);
    expect(lines[0]).toContain(`${host} does not answer like PostHog's API: ${HINT}`);
  });

  it.each([
    ["us.posthog.com", "https://us.posthog.com"],
    ["eu.posthog.com/", "https://eu.posthog.com"],
    ["localhost:8010", "http://localhost:8010"],
    ["127.0.0.1:8010", "http://127.0.0.1:8010"],
  ])("--host %s without a scheme suggests %s, and sends nothing", async (given, suggested) => {
    h.write("posthog/a.yaml", CONFIG);
    await h.clearRequests();
    const out = await h.cli(["plan", "--host", given]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `error: POSTHOG_HOST / --host needs a scheme: write ${suggested} (not ${given.replace(/\/$/, "")})\n`,
    );
    expect(await h.requests()).toEqual([]);
  });

  it("a host without a scheme that holds more than a name is not echoed", async () => {
    h.write("posthog/a.yaml", CONFIG);
    const out = await h.cli(["plan", "--host", "user:s3cret-pass@us.posthog.com"]);
    expect(out.code).toBe(1);
    expect(out.stderr).not.toContain("s3cret-pass");
  });
});
