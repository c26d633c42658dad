import { describe, expect, it } from "vitest";
import { parseRateLimit, RateLimiter } from "../src/rate-limit.js";

describe("parseRateLimit", () => {
  it("reads windows and refuses nonsense", () => {
    expect(parseRateLimit("480/minute,4800/hour")).toEqual([
      { requests: 480, windowMs: 60_000 },
      { requests: 4800, windowMs: 3_600_000 },
    ]);
    expect(parseRateLimit("10/5s")).toEqual([{ requests: 10, windowMs: 5000 }]);
    expect(parseRateLimit("none")).toEqual([]);
    expect(() => parseRateLimit("fast")).toThrow(/invalid rate limit/);
    expect(() => parseRateLimit("0/minute")).toThrow(/invalid rate limit/);
  });
});

describe("RateLimiter", () => {
  it("refuses when a window is full, waits until the oldest entry leaves, and keys separately", () => {
    const limiter = new RateLimiter();
    const windows = [{ requests: 2, windowMs: 10_000 }];
    expect(limiter.check("a", "default", windows, 0)).toBe(0);
    expect(limiter.check("a", "default", windows, 1000)).toBe(0);
    expect(limiter.check("a", "default", windows, 2000)).toBe(8);
    expect(limiter.check("b", "default", windows, 2000)).toBe(0);
    expect(limiter.check("a", "events", windows, 2000)).toBe(0);
    expect(limiter.check("a", "default", windows, 9_999.5)).toBe(1);
    expect(limiter.check("a", "default", windows, 10_000)).toBe(0);
  });
});
