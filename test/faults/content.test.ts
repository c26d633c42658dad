/**
 * Dashboards with their content, the small version of the benchmark (issue 25, item 5): 20 dashboards
 * with 5 insight tiles each and their 100 insights, against the emulator with the service's limits
 * (the insight endpoints' own throttles included). A no-op plan sends exactly the list pages and one
 * read per dashboard that declares `tiles:`; a 10% change sends only what it changes on top; no 429.
 */
import { describe, expect, it } from "vitest";
import { CONTENT, contentMinimumReads, contentScenarios } from "../../bench/content.js";

describe("content benchmark, small", () => {
  it("counts the fewest reads: list pages of both kinds and one read per dashboard with tiles", () => {
    expect(contentMinimumReads(CONTENT)).toBe(2 + 10 + 200);
    expect(contentMinimumReads({ dashboards: 20, tilesPer: 5 })).toBe(1 + 1 + 20);
  });

  it("plans with exactly the minimum, applies a 10% change with only its writes on top, no 429", async () => {
    const [noop, change] = await contentScenarios({
      size: { dashboards: 20, tilesPer: 5 },
      latencyMs: 0,
      inProcess: true,
    });
    expect(noop?.problem).toBeUndefined();
    expect([noop?.requests, noop?.minimum, noop?.throttled]).toEqual([22, 22, 0]);
    expect(change?.problem).toBeUndefined();
    // Two moved tiles (a read and a PATCH of each dashboard) and ten queries (a PATCH each).
    expect([change?.requests, change?.minimum, change?.throttled]).toEqual([36, 36, 0]);
  }, 30_000);
});
