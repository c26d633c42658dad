/** `--host` / POSTHOG_HOST name the service's address only: anything after it is refused, never dropped. */
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { checkHost } from "../../src/service/env.js";

describe("checkHost: the address only", () => {
  it.each([
    ["https://us.posthog.com", "https://us.posthog.com"],
    ["https://us.posthog.com/", "https://us.posthog.com"],
    ["http://127.0.0.1:8010/", "http://127.0.0.1:8010"],
  ])("accepts %s as %s", (raw, origin) => expect(checkHost(raw)).toBe(origin));

  it.each([
    ["https://us.posthog.com/foo", "a path (/foo)"],
    ["https://us.posthog.com//", "a path (//)"],
    ["https://eu.posthog.com/api/projects/1", "a path (/api/projects/1)"],
    ["http://127.0.0.1:8010/x", "a path (/x)"],
    ["https://us.posthog.com?project=1", "a query (?…)"],
    ["https://us.posthog.com/?", "a query (?…)"],
    ["https://us.posthog.com#top", "a fragment (#…)"],
  ])("refuses %s: it has %s", (raw, what) => {
    expect(() => checkHost(raw)).toThrow(UserError);
    expect(() => checkHost(raw)).toThrow(
      `POSTHOG_HOST / --host must be the service's address only, but it has ${what}: use ${new URL(raw).origin}`,
    );
  });

  it("refuses credentials in the URL without echoing them", () => {
    let message = "";
    try {
      checkHost("https://someone:phx_hunter2@us.posthog.com");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("a user name or password");
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("someone");
  });

  it("does not echo a query, which may hold a token", () => {
    expect(() => checkHost("https://us.posthog.com/?token=phx_abc")).toThrow(/a query \(\?…\)/);
    expect(() => checkHost("https://us.posthog.com/?token=phx_abc")).not.toThrow(/phx_abc/);
  });
});
