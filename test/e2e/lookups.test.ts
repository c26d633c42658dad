/**
 * Look-ups in batches through the real CLI and emulator (SPEC §3 "Concurrency"): right before the
 * creates of a kind, their names are looked up with one search each or one re-read of the list,
 * whichever needs fewer requests; a name someone else created since the plan is skipped, the others
 * are created.
 */
import { describe, expect, it } from "vitest";
import { type Json, type LoggedRequest, type RunResult, useEmulator } from "../support/emulator.js";
import { gateProxy } from "./gate-proxy.js";
import { bigSeed } from "./seeds.js";

const h = useEmulator();

const dashboardsYaml = (names: string[]) =>
  `project: 12345\ndashboards:\n${names.map((n) => `  - name: ${n}\n`).join("")}`;

const dashboardList = (r: LoggedRequest) => r.method === "GET" && /\/dashboards\/?$/.test(r.path);

/** The requests between the plan's reads and the first create: the look-up. */
function lookUp(log: LoggedRequest[], planReads: number): LoggedRequest[] {
  const firstPost = log.findIndex((r) => r.method === "POST");
  return log.slice(planReads, firstPost).filter(dashboardList);
}

describe("the look-up before a batch of creates", () => {
  it("a small project: one list re-read answers twelve new names, and the check after reads it once more", async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Batch ${i}`);
    h.write("p/x.yaml", dashboardsYaml(names));
    await h.clearRequests();
    const applied = await h.cli(["apply", "--auto-approve", "p"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const log = (await h.requests()).filter((r) => r.path.startsWith("/api/"));
    expect(log.filter((r) => r.method === "POST")).toHaveLength(12);
    // The plan's list, the look-up's list, the check's list: no name search at all.
    const lists = log.filter(dashboardList);
    expect(lists.map((r) => r.query)).toEqual(["limit=100", "limit=100", "limit=100"]);
    expect(log.filter((r) => r.query.includes("search="))).toEqual([]);
    expect(lookUp(log, 1)).toHaveLength(1);
    const lastPost = log.findLastIndex((r) => r.method === "POST");
    expect(log.slice(lastPost + 1).filter(dashboardList)).toHaveLength(1);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("a project of 250: two new names are two searches (fewer than 3 pages), four are one walk of 3 pages", async () => {
    await h.seed(
      bigSeed(await h.state(), { dashboards: 250, exports: 0, restrictedEvery: 1000, sharedEvery: 1000 }),
    );
    h.write("p/x.yaml", dashboardsYaml(["Two A", "Two B"]));
    await h.clearRequests();
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    let log = (await h.requests()).filter((r) => r.path.startsWith("/api/"));
    const searched = log.flatMap((r) => new URLSearchParams(r.query).getAll("search"));
    // Two before the creates, two in the check after them.
    expect(searched.sort()).toEqual(["Two A", "Two A", "Two B", "Two B"]);
    expect(log.filter(dashboardList).filter((r) => !r.query.includes("search="))).toHaveLength(3); // the plan's pages

    h.write("p/x.yaml", dashboardsYaml(["Four A", "Four B", "Four C", "Four D"]));
    await h.clearRequests();
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    log = (await h.requests()).filter((r) => r.path.startsWith("/api/"));
    expect(log.filter((r) => r.query.includes("search="))).toEqual([]);
    // The plan's 3 pages, the look-up's 3, the check's 3 (256 dashboards).
    expect(log.filter(dashboardList)).toHaveLength(9);
    expect(log.filter((r) => r.method === "POST")).toHaveLength(4);
  });

  it("a name created by someone else since the plan is skipped; the rest of the batch is created", async () => {
    h.write("p/x.yaml", dashboardsYaml(["Mine 1", "Taken", "Mine 2"]));
    // Held at its look-up: the first dashboard list after the plan's.
    let lists = 0;
    const gate = await gateProxy(
      () => h.url,
      (r) => r.method === "GET" && /\/dashboards\/?(\?|$)/.test(r.url) && ++lists > 1,
    );
    let applied: RunResult;
    let taken: number;
    try {
      const run = h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: gate.url });
      await gate.holding;
      const other = await h.api("POST", "/api/projects/12345/dashboards/", { name: "Taken" });
      expect(other.status).toBe(201);
      taken = other.body.id;
      gate.open();
      applied = await run;
    } finally {
      await gate.close();
    }
    expect(applied.stdout).toContain(
      `create skipped: a dashboard named "Taken" now exists live (id ${taken}), created by someone else since the plan; run plan again`,
    );
    expect(applied.stdout).toContain("Apply failed: 2 succeeded, 1 failed, 0 skipped.");
    expect(applied.code).toBe(1);
    const live = (await h.state()).dashboards.filter(
      (d: Json) => /^(Mine \d|Taken)$/.test(d.name) && !d.deleted,
    );
    expect(live.map((d: Json) => d.name).sort()).toEqual(["Mine 1", "Mine 2", "Taken"]);
  });
});
