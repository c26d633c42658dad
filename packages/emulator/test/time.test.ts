/**
 * The emulator reads relative times as the service does (posthog/utils.py relative_date_parse): m is
 * months and M minutes, and the sign does not matter (always into the past).
 */
import { describe, expect, it } from "vitest";
import { parseTime } from "../src/time.js";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const at = (text: string) => {
  const ms = parseTime(text, NOW);
  return ms === undefined ? undefined : new Date(ms).toISOString();
};

describe("emulator time parameters", () => {
  it("reads the service's units, M minutes and m months", () => {
    expect(at("-30M")).toBe("2026-11-24T11:30:00.000Z");
    expect(at("-1m")).toBe("2026-10-25T12:00:00.000Z");
    expect(at("-3h")).toBe("2026-11-24T09:00:00.000Z");
    expect(at("-7d")).toBe("2026-11-17T12:00:00.000Z");
    expect(at("-2w")).toBe("2026-11-10T12:00:00.000Z");
    expect(at("now")).toBe("2026-11-24T12:00:00.000Z");
  });

  it("goes into the past whatever the sign", () => {
    expect(at("+7d")).toBe(at("-7d"));
    expect(at("7d")).toBe(at("-7d"));
  });

  it("reads ISO instants, naive ones as UTC, and refuses anything else", () => {
    expect(at("2026-11-20T06:00:00+02:00")).toBe("2026-11-20T04:00:00.000Z");
    expect(at("2026-11-20T06:00:00")).toBe("2026-11-20T06:00:00.000Z");
    expect(at("-5s")).toBeUndefined();
    expect(at("yesterday")).toBeUndefined();
  });
});
