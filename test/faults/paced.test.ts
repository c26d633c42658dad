/**
 * Pacing under a scaled-down rate limit (issue 8, item 2, small version of the benchmark): the emulator
 * allows 20 requests per second, the client's budget (POSTHOG_RATE_LIMIT) says the same, and an apply
 * of 40 changes (one list page + 40 PATCHes) gets no 429 and spends within 15% of the 2 s the budget
 * itself requires between its first request and its last answer.
 */
import { describe, expect, it } from "vitest";
import { budgetMs, pacedApply } from "../../bench/rate.js";

describe("paced apply", () => {
  it("knows what the budget requires", () => {
    expect(budgetMs(1, 20, 1)).toBe(0);
    expect(budgetMs(20, 20, 1)).toBe(0);
    expect(budgetMs(21, 20, 1)).toBe(1000);
    expect(budgetMs(201, 40, 5)).toBe(25_000);
  });

  it("applies 40 changes under 20 requests per second with no 429, within 15% of the budget's time", async () => {
    const figures = await pacedApply({
      limit: 20,
      windowSeconds: 1,
      changes: 40,
      latencyMs: 20,
      inProcess: true,
    });
    expect(figures.code, figures.stderr).toBe(0);
    expect(figures.throttled).toBe(0);
    expect(figures.requests).toBe(41);
    expect(figures.budgetMs).toBe(2000);
    expect(figures.spanMs).toBeGreaterThanOrEqual(figures.budgetMs);
    expect(figures.spanMs).toBeLessThanOrEqual(figures.budgetMs * 1.15);
  }, 20_000);
});
