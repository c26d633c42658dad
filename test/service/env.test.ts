/** clientFromEnv: required key, http:// only on loopback, rate limit parsing. */
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.js";
import { checkHost, clientFromEnv, isLoopback, parseRateLimit } from "../../src/service/env.js";

describe("clientFromEnv", () => {
  it("names the missing variable", () => {
    expect(() => clientFromEnv({}, {})).toThrow(UserError);
    expect(() => clientFromEnv({}, {})).toThrow(/POSTHOG_API_KEY is not set/);
  });

  it("defaults to https://us.posthog.com; --host and --project win over the environment", async () => {
    const a = clientFromEnv({ POSTHOG_API_KEY: "phx_k" }, {});
    expect(a.host).toBe("https://us.posthog.com");
    expect(a.project).toBeUndefined();
    const b = clientFromEnv(
      { POSTHOG_API_KEY: "phx_k", POSTHOG_HOST: "https://eu.posthog.com", POSTHOG_PROJECT_ID: "1" },
      { host: "http://localhost:8010", project: 2 },
    );
    expect(b.host).toBe("http://localhost:8010");
    expect(b.project).toBe("2");
    await Promise.all([a.client.close(), b.client.close()]);
  });

  it("rejects a bad concurrency and a bad POSTHOG_RATE_LIMIT", () => {
    expect(() => clientFromEnv({ POSTHOG_API_KEY: "k" }, { concurrency: "0" })).toThrow(/--concurrency/);
    expect(() => clientFromEnv({ POSTHOG_API_KEY: "k", POSTHOG_RATE_LIMIT: "fast" }, {})).toThrow(
      /POSTHOG_RATE_LIMIT must look like/,
    );
  });
});

describe("checkHost", () => {
  it.each([
    "http://127.0.0.1:8010",
    "http://127.9.9.9",
    "http://[::1]:80",
    "http://localhost:1",
    "https://example.com",
  ])("accepts %s", (host) => expect(() => checkHost(host)).not.toThrow());
  it.each([
    "http://example.com",
    "http://10.0.0.1",
    "http://128.0.0.1",
    "http://[::2]",
    "http://api.localhost:8010",
    "ftp://127.0.0.1",
    "nope",
  ])("refuses %s", (host) => expect(() => checkHost(host)).toThrow(UserError));
  it("explains why http:// is refused", () => {
    expect(() => checkHost("http://eu.posthog.com")).toThrow(
      "refusing http:// for eu.posthog.com: the API key would travel unencrypted; use https://",
    );
    // A name a resolver could point elsewhere is not loopback, even under .localhost.
    expect(isLoopback("api.localhost")).toBe(false);
  });
});

describe("parseRateLimit", () => {
  it("reads minute/hour and second windows", () => {
    expect(parseRateLimit("480/minute,4800/hour", "X")).toEqual([
      { limit: 480, ms: 60_000 },
      { limit: 4800, ms: 3_600_000 },
    ]);
    expect(parseRateLimit("20/2s", "X")).toEqual([{ limit: 20, ms: 2000 }]);
    expect(parseRateLimit("5 / seconds", "X")).toEqual([{ limit: 5, ms: 1000 }]);
    expect(() => parseRateLimit("0/minute", "X")).toThrow(UserError);
  });
});
