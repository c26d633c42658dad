/**
 * A word on stderr for every wait (SPEC §4): plain lines in CI for rate-limit waits, retries, slow
 * answers and long steps; one live line on a terminal; nothing with --quiet.
 */
import { describe, expect, it } from "vitest";
import { progressFor } from "../../src/commands/progress.js";
import { useEmulator } from "../support/emulator.js";
import { memoryIo } from "../support/io.js";

describe("plain lines (no terminal)", () => {
  it("says every budget wait, retry and slow answer in one line each; says nothing of answers", () => {
    const mem = memoryIo();
    const progress = progressFor(mem.io);
    progress.step("reading live state");
    progress.onEvent({ type: "answer", method: "GET", path: "dashboards", status: 200, ms: 12, items: 100 });
    progress.onEvent({ type: "wait", reason: "rate-limit", ms: 40_200, method: "GET", path: "dashboards" });
    progress.onEvent({
      type: "retry",
      method: "GET",
      path: "dashboards",
      status: 502,
      attempt: 2,
      of: 5,
      inMs: 2_600,
    });
    progress.onEvent({
      type: "retry",
      method: "GET",
      path: "batch_exports",
      what: "ECONNRESET",
      attempt: 1,
      of: 5,
      inMs: 300,
    });
    progress.onEvent({
      type: "retry",
      method: "GET",
      path: "dashboards",
      status: 429,
      attempt: 1,
      of: 5,
      inMs: 9_000,
    });
    progress.onEvent({ type: "wait", reason: "retry-after", ms: 9_000, method: "GET", path: "dashboards" });
    progress.onEvent({ type: "slow", method: "PATCH", path: "dashboards/42", elapsedMs: 10_000 });
    progress.stop();
    expect(mem.stderr.split("\n")).toEqual([
      "waiting 41 s for the service's rate limit",
      "GET dashboards answered 502, retry 2 of 5 in 3 s",
      "GET batch_exports got no answer (ECONNRESET), retry 1 of 5 in 1 s",
      "GET dashboards answered 429, retry 1 of 5 in 9 s (the service's rate limit)",
      "PATCH dashboards/42: no answer yet after 10 s",
      "",
    ]);
    expect(mem.stdout).toBe("");
  });

  it("says a long step is still going, with what it has done so far", async () => {
    const mem = memoryIo();
    const progress = progressFor(mem.io, { heartbeatMs: 10 });
    progress.step("reading live state");
    progress.onEvent({ type: "answer", method: "GET", path: "dashboards", status: 200, ms: 1, items: 1200 });
    while (!mem.stderr.includes("still")) await new Promise((resolve) => setTimeout(resolve, 5));
    progress.step("applying", 10);
    progress.advance();
    progress.advance();
    while (!mem.stderr.includes("still applying")) await new Promise((resolve) => setTimeout(resolve, 5));
    progress.stop();
    expect(mem.stderr).toContain("still reading live state: 1 request, 1,200 objects read\n");
    expect(mem.stderr).toContain("still applying: 2 of 10 actions done\n");
  });

  it("counts one of a thing in the singular", async () => {
    const mem = memoryIo();
    const progress = progressFor(mem.io, { heartbeatMs: 10 });
    progress.step("reading live state");
    progress.onEvent({ type: "answer", method: "GET", path: "dashboards", status: 200, ms: 1, items: 1 });
    const until = async (text: string) => {
      for (let i = 0; i < 1000 && !mem.stderr.includes(text); i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await until("still");
    progress.step("applying", 1);
    await until("still applying");
    progress.stop();
    expect(mem.stderr).toContain("still reading live state: 1 request, 1 object read\n");
    expect(mem.stderr).toContain("still applying: 0 of 1 action done\n");
  });

  it("--quiet says nothing", () => {
    const mem = memoryIo();
    const progress = progressFor(mem.io, { quiet: true });
    progress.step("reading live state");
    progress.onEvent({ type: "wait", reason: "rate-limit", ms: 40_000, method: "GET", path: "dashboards" });
    progress.onEvent({
      type: "retry",
      method: "GET",
      path: "dashboards",
      status: 502,
      attempt: 1,
      of: 5,
      inMs: 100,
    });
    progress.stop();
    expect(mem.stderr).toBe("");
  });
});

describe("a live line (terminal)", () => {
  it("redraws one line in place, clears it around other output, shows the wait counting down", () => {
    const mem = memoryIo();
    const io = { ...mem.io, stderr: { ...mem.io.stderr, isTTY: true, columns: 200 } };
    const progress = progressFor(io);
    progress.step("reading live state");
    progress.onEvent({ type: "answer", method: "GET", path: "dashboards", status: 200, ms: 3, items: 250 });
    progress.onEvent({ type: "wait", reason: "rate-limit", ms: 41_000, method: "GET", path: "dashboards" });
    progress.io.stdout.write("plan output\n");
    progress.stop();
    const out = mem.stderr + mem.stdout;
    expect(mem.stderr).toContain("\r\u001b[2Kreading live state: 1 request, 250 objects read");
    expect(mem.stderr).toContain("· waiting 41 s for the service's rate limit");
    // The line is erased before other output and after the last step, so nothing is left half-drawn.
    expect(mem.stderr.endsWith("\r\u001b[2K")).toBe(true);
    expect(out).toContain("plan output\n");
  });
});

describe("end to end, without a terminal", () => {
  const h = useEmulator();

  it("a plan that meets the service's rate limit and a 502 says so on stderr, and nothing with --quiet", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n");
    await h.faults({ rules: [{ method: "GET", path: "/dashboards/?$", status: 502, times: 1 }] });
    const loud = await h.cli(["plan", "p"]);
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/^GET dashboards answered 502, retry 1 of 5 in \d+ s$/m);

    await h.faults({
      rules: [{ method: "GET", path: "/dashboards/?$", status: 429, retry_after: 1, times: 1 }],
    });
    const throttled = await h.cli(["plan", "p"]);
    expect(throttled.stderr).toMatch(
      /^GET dashboards answered 429, retry 1 of 5 in [12] s \(the service's rate limit\)$/m,
    );

    await h.faults({ rules: [{ method: "GET", path: "/dashboards/?$", status: 502, times: 1 }] });
    const quiet = await h.cli(["plan", "p", "--quiet"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
  });

  it("our own budget's waits get a line", async () => {
    // Two list reads under a budget of one request per 2 s: the second waits about 2 s.
    h.write("p/d.yaml", "project: 12345\ndashboards: []\nbatch_exports: []\n");
    const result = await h.cli(["plan", "p"], { POSTHOG_RATE_LIMIT: "1/2s" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^waiting 2 s for the service's rate limit$/m);
  });
});
