/**
 * Every kind of write whose answer is lost after the service carried it out (the emulator commits, then
 * drops the connection) or whose connection is reset before it arrives: one apply still converges,
 * nothing is duplicated, and the next plan is empty.
 */
import { describe, expect, it } from "vitest";
import { type Json, P, useEmulator } from "../support/emulator.js";
import { ALL_KINDS_CONFIG, addRunningExport, SECRETS } from "./fixtures.js";

const h = useEmulator();

const WRITES = [
  { method: "POST", path: "/dashboards/?$" },
  { method: "PATCH", path: "/dashboards/\\d+/?$" },
  { method: "POST", path: "/collaborators/?$" },
  { method: "DELETE", path: "/collaborators/[^/]+/?$" },
  { method: "PATCH", path: "/sharing/?$" },
  { method: "POST", path: "/batch_exports/?$" },
  { method: "PATCH", path: "/batch_exports/[^/]+/?$" },
  { method: "POST", path: "/pause/?$" },
  { method: "POST", path: "/unpause/?$" },
  { method: "DELETE", path: "/batch_exports/[^/]+/?$" },
];

async function run(fault: "lose_response" | "reset") {
  await addRunningExport(h);
  expect((await h.api("PATCH", `${P}/dashboards/4/`, { deleted: true })).status).toBe(200);
  h.write("p/all.yaml", ALL_KINDS_CONFIG);
  await h.clearRequests();
  await h.faults({ rules: WRITES.map((w) => ({ ...w, [fault]: true, times: 1 })) });
  const apply = await h.cli(["apply", "--auto-approve", "p"], SECRETS);
  const hit = (await h.requests()).filter((r) => r.fault === fault);
  expect(hit.length).toBeGreaterThanOrEqual(WRITES.length - 1);
  await h.faults({});
  return apply;
}

function expectNoDuplicates(state: Json) {
  const live = (list: Json[]) => list.filter((o) => !o.deleted && o.team_id === 12345).map((o) => o.name);
  for (const names of [live(state.dashboards), live(state.batch_exports)]) {
    expect(new Set(names).size).toBe(names.length);
  }
  const pairs = state.collaborators.map((c: Json) => `${c.dashboard_id}/${c.user}`);
  expect(new Set(pairs).size).toBe(pairs.length);
}

describe("writes whose answer is lost", () => {
  it("answers lost after commit: one apply converges, nothing duplicated", async () => {
    const apply = await run("lose_response");
    expect(apply.stdout).not.toContain("✗");
    expect(apply.code).toBe(0);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"], SECRETS)).code).toBe(0);
    expectNoDuplicates(await h.state());
  });

  it("connections reset before the service saw the write: at most two applies converge", async () => {
    const first = await run("reset");
    if (first.code !== 0) {
      expect((await h.cli(["apply", "--auto-approve", "p"], SECRETS)).code).toBe(0);
    }
    expect((await h.cli(["plan", "--detailed-exitcode", "p"], SECRETS)).code).toBe(0);
    expectNoDuplicates(await h.state());
  });
});
