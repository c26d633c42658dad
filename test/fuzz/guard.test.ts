/** The fuzz campaign's watchers must be able to fire. */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { foreignPrototypes, guardNetwork, prototypeSnapshot } from "./guard.js";

describe("fuzz guards", () => {
  it("record and refuse a socket connection", () => {
    const guard = guardNetwork();
    try {
      expect(() => net.connect({ host: "127.0.0.1", port: 9 })).toThrow(/forbids network/);
      expect(guard.attempts).toHaveLength(1);
    } finally {
      guard.restore();
    }
  });

  it("find an object whose prototype came from input", () => {
    const polluted = JSON.parse('{"a": {"b": 1}}') as { a: object };
    Object.setPrototypeOf(polluted.a, { injected: true });
    expect(foreignPrototypes({ ok: [new Date(), Object.create(null)], polluted })).toEqual(["$.polluted.a"]);
  });

  it("see a new property on Object.prototype", () => {
    const before = prototypeSnapshot();
    Object.defineProperty(Object.prototype, "fuzzCanary", { value: 1, configurable: true });
    try {
      expect(prototypeSnapshot()).not.toBe(before);
    } finally {
      delete (Object.prototype as Record<string, unknown>).fuzzCanary;
    }
    expect(prototypeSnapshot()).toBe(before);
  });
});
