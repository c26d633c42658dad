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

describe("a text card added through the dashboard PATCH", () => {
  const board = (tiles: string) => `project: 12345\ndashboards:\n  - name: Notes board\n${tiles}`;
  const NOTES = '    tiles:\n      - text: "## Release notes"\n      - text: "## Release notes"\n';

  async function textTiles(): Promise<string[]> {
    const state = await h.state();
    const board = state.dashboards.find((d: Json) => d.name === "Notes board");
    return board.tiles.filter((t: Json) => !t.deleted && t.text).map((t: Json) => t.text.body);
  }

  async function addWith(fault: "lose_response" | "reset") {
    h.write("p/board.yaml", board(""));
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    // The same text twice: the second card is told from the first by counting, not by its text.
    h.write("p/board.yaml", board(NOTES));
    await h.clearRequests();
    // Lost answers: both adds; a reset: the first add's first try.
    const times = fault === "lose_response" ? 2 : 1;
    await h.faults({ rules: [{ method: "PATCH", path: "/dashboards/\\d+/?$", [fault]: true, times }] });
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    await h.faults({});
    const patches = (await h.requests()).filter((r: Json) => r.method === "PATCH");
    return { apply, patches };
  }

  it("is never sent again blindly after a lost answer: the dashboard is read and the card looked for", async () => {
    const { apply, patches } = await addWith("lose_response");
    expect(apply.stderr).toBe("");
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain("the answer was lost; the card was found on the dashboard");
    // Two adds, each sent once: both answers were lost, both cards were found.
    expect(patches.filter((r: Json) => r.fault === "lose_response")).toHaveLength(2);
    expect(patches).toHaveLength(2);
    expect(await textTiles()).toEqual(["## Release notes", "## Release notes"]);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("is sent again once the dashboard shows it never arrived", async () => {
    const { apply, patches } = await addWith("reset");
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain("the first add was not committed (its answer was lost); sent again");
    expect(patches.filter((r: Json) => r.fault === "reset")).toHaveLength(1);
    expect(patches).toHaveLength(3);
    expect(await textTiles()).toEqual(["## Release notes", "## Release notes"]);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});
