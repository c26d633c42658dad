/**
 * Where the key may go (SPEC §8 "Hosts"): plain `http://` only to an address that is loopback as
 * written (127.0.0.0/8, `[::1]`, `localhost`), never to a name a resolver could point elsewhere
 * (`*.localhost` included); and a host given with credentials is never echoed with them. The real CLI
 * runs in-process; each refusal is one line, exit 1, and nothing reaches the emulator.
 */
import { describe, expect, it } from "vitest";
import { checkHost, isLoopback } from "../../src/service/env.js";
import { recordingProxy, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const USER = "usr-Kq7Wz";
const PASSWORD = "pw-Zq81xXv";

describe("plain http://", () => {
  it("goes only to loopback addresses as written: never to *.localhost, which a resolver may move", async () => {
    const port = new URL(h.url).port;
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n");
    for (const host of [`http://posthog.localhost:${port}`, `http://localhost.:${port}`]) {
      const result = await h.cli(["plan", "p"], { POSTHOG_HOST: host });
      expect(result.code, host).toBe(1);
      expect(result.stderr).toMatch(
        /^error: refusing http:\/\/ for localhost\.|^error: refusing http:\/\/ for posthog\.localhost:/,
      );
      expect(result.stderr).toContain("the API key would travel unencrypted; use https://");
    }
    expect(await h.requests()).toEqual([]);
    // The emulator itself, by the loopback names and addresses.
    for (const host of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      expect((await h.cli(["plan", "p"], { POSTHOG_HOST: host })).code, host).toBe(0);
    }
  });

  it("counts 127.0.0.0/8, [::1] and localhost as loopback, and nothing else", () => {
    for (const name of ["127.0.0.1", "127.200.3.4", "[::1]", "::1", "localhost", "LOCALHOST"]) {
      expect(isLoopback(name), name).toBe(true);
    }
    for (const name of [
      "posthog.localhost",
      "localhost.",
      "localhost.example.com",
      "127.0.0.1.nip.io",
      "[::ffff:7f00:1]",
      "[::2]",
      "10.0.0.1",
      "0.0.0.0",
    ]) {
      expect(isLoopback(name), name).toBe(false);
    }
  });
});

describe("a host given with credentials", () => {
  const hosts = [
    `https://${USER}:${PASSWORD}@us.posthog.com`,
    `https://${USER}:${PASSWORD}@us.posthog.com:99999`,
    `https://${USER}:${PASSWORD}@us.posthog.com/api`,
    `http://${USER}:${PASSWORD}@[::1`,
    `http://${USER}:${PASSWORD}@eu.posthog.com`,
    `ftp://${USER}:${PASSWORD}@us.posthog.com`,
    `${USER}:${PASSWORD}@us.posthog.com`,
    `https://${USER}:pw/${PASSWORD}@us.posthog.com`,
  ];

  it.each(hosts)("is never echoed with them: %s", (host) => {
    let message = "";
    try {
      checkHost(host);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe("");
    // In any case: a scheme is read in lower case, so a user name taken for one would be too.
    expect(message.toLowerCase()).not.toContain(USER.toLowerCase());
    expect(message.toLowerCase()).not.toContain(PASSWORD.toLowerCase());
  });

  it("is refused by every command in one line that names neither part", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n");
    for (const host of hosts) {
      for (const args of [
        ["plan", "p"],
        ["status", "--project", "12345", "--host", host],
      ]) {
        const result = await h.cli(args, { POSTHOG_HOST: host });
        expect(result.code, `${host} ${args[0]}`).toBe(1);
        expect(result.stderr.trim().split("\n")).toHaveLength(1);
        const output = `${result.stdout}${result.stderr}`.toLowerCase();
        expect(output).not.toContain(USER.toLowerCase());
        expect(output).not.toContain(PASSWORD.toLowerCase());
      }
    }
    expect(await h.requests()).toEqual([]);
  });
});

describe("a service that answers with a hostile next link", () => {
  it("is one line naming the link, scrubbed, exit 1: never an internal error, and the link is not followed", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n");
    for (const next of [
      "HTTP://127.0.0.1:1/api/projects/12345/dashboards/?offset=1",
      " http://127.0.0.1:1/api/projects/12345/dashboards/?offset=1",
      `http:evil.example/api/projects/12345/dashboards/?key=${h.key}`,
    ]) {
      const proxy = await recordingProxy(
        () => h.url,
        (text) => text.replace('"next":null', `"next":${JSON.stringify(next)}`),
      );
      try {
        const result = await h.cli(["plan", "p"], { POSTHOG_HOST: proxy.url });
        expect(result.code, next).toBe(1);
        const line = result.stderr.trim().split("\n").at(-1) ?? "";
        expect(line).toMatch(
          /^error: reading project 12345: unexpected answer from the service for GET dashboards: its next link "/,
        );
        expect(line).toContain(`is not a link on ${proxy.url}`);
        expect(result.stderr).not.toContain("internal error");
        expect(result.stderr).not.toContain(h.key);
        // Only the first page was read, through the proxy.
        expect(proxy.recorded.filter((r) => r.path.includes("/dashboards/"))).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    }
  });
});
