import { describe, expect, it } from "vitest";
import { compareQuery, projectOnDeclared } from "../../src/queries/normalise.js";

const trends = (extra: Record<string, unknown> = {}) => ({
  kind: "InsightVizNode",
  source: {
    kind: "TrendsQuery",
    series: [{ kind: "EventsNode", event: "user signed up", math: "total" }],
    interval: "week",
    ...extra,
  },
});

describe("compareQuery", () => {
  it("ignores what the service adds: version stamps and keys the file does not declare", () => {
    const live = {
      kind: "InsightVizNode",
      full: true,
      source: {
        kind: "TrendsQuery",
        version: 5,
        filterTestAccounts: false,
        series: [{ kind: "EventsNode", event: "user signed up", math: "total", name: "user signed up" }],
        interval: "week",
      },
    };
    expect(compareQuery(trends(), live).equal).toBe(true);
  });

  it("sees a changed declared value, and shows both sides on the declared keys only", () => {
    const live = { ...trends(), source: { ...trends().source, interval: "day", version: 5, extra: 1 } };
    const result = compareQuery(trends(), live);
    expect(result.equal).toBe(false);
    expect(result.live).toEqual({ ...trends(), source: { ...trends().source, interval: "day" } });
    expect(result.declared).toEqual(trends());
  });

  it("compares lists whole: a series more or less is a change", () => {
    const live = trends({ series: [...trends().source.series, { kind: "EventsNode", event: "other" }] });
    expect(compareQuery(trends(), live).equal).toBe(false);
    expect(compareQuery(live, trends()).equal).toBe(false);
  });

  it("runs the declared query through the service's upgrades: a key a migration renames compares in its new form", () => {
    const declared = { kind: "RetentionQuery", retentionFilter: { showMean: true, totalIntervals: 7 } };
    const live = {
      kind: "RetentionQuery",
      version: 2,
      retentionFilter: { meanRetentionCalculation: "simple", totalIntervals: 7 },
    };
    expect(compareQuery(declared, live).equal).toBe(true);
    const weighted = {
      ...live,
      retentionFilter: { meanRetentionCalculation: "weighted", totalIntervals: 7 },
    };
    expect(compareQuery(declared, weighted).equal).toBe(false);
  });

  it("stamps the kind a series item without one gets (migration 0004) on both sides", () => {
    const declared = { kind: "TrendsQuery", series: [{ event: "$pageview" }] };
    const stored = { kind: "TrendsQuery", series: [{ event: "$pageview" }] };
    const upgradedOnRead = {
      kind: "TrendsQuery",
      version: 5,
      series: [{ event: "$pageview", kind: "EventsNode" }],
    };
    expect(compareQuery(declared, stored).equal).toBe(true);
    expect(compareQuery(declared, upgradedOnRead).equal).toBe(true);
  });

  it("takes a declared null as the key's absence (the service may store either), but not a live null as a value", () => {
    expect(compareQuery({ kind: "HogQuery", code: null }, { kind: "HogQuery" }).equal).toBe(true);
    expect(compareQuery({ kind: "HogQuery", code: null }, { kind: "HogQuery", code: null }).equal).toBe(true);
    expect(compareQuery({ kind: "HogQuery", code: "x" }, { kind: "HogQuery", code: null }).equal).toBe(false);
    expect(compareQuery({ kind: "HogQuery", code: "x" }, { kind: "HogQuery" }).equal).toBe(false);
  });
});

describe("projectOnDeclared", () => {
  it("keeps live list elements beyond the declared ones", () => {
    expect(projectOnDeclared([{ a: 1, b: 2 }, { c: 3 }], [{ a: 1 }])).toEqual([{ a: 1 }, { c: 3 }]);
  });
});
