/**
 * Identity through `id` pins and the service's quirks: restoring a pinned soft-deleted dashboard (the
 * PATCH body is exactly {"deleted": false}, seen through a recording proxy), renaming through a pin, and
 * tags the service ignores without the tagging feature (a note, not a change planned forever).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type Json, P, recordingProxy, useEmulator } from "../support/emulator.js";

const h = useEmulator();
let closeProxy: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeProxy?.();
  closeProxy = undefined;
});

describe("restore of a pinned soft-deleted dashboard", () => {
  it('sends PATCH {"deleted": false} first, then the update; the next plan is empty', async () => {
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true })).status).toBe(200);
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - id: 2\n    name: Marketing Overview\n    description: Back again\n    pinned: true\n",
    );
    const plan = JSON.parse((await h.cli(["plan", "--format", "json", "p"])).stdout);
    expect(plan.actions.map((a: Json) => a.action)).toEqual(["restore", "update"]);

    const proxy = await recordingProxy(() => h.url);
    closeProxy = proxy.close;
    const apply = await h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: proxy.url });
    expect(apply.code).toBe(0);
    const patches = proxy.recorded.filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.path.replace(/\/$/, ""))).toEqual([`${P}/dashboards/2`, `${P}/dashboards/2`]);
    expect(JSON.parse(patches[0]?.body ?? "null")).toEqual({ deleted: false });
    // Live values are unknown while deleted: apply reads the restored dashboard back (one GET between
    // the two PATCHes) and sends only the declared fields that differ (the name does not).
    expect(JSON.parse(patches[1]?.body ?? "null")).toEqual({ description: "Back again", pinned: true });
    const order = proxy.recorded.map((r) => `${r.method} ${r.path.replace(/\/$/, "")}`);
    const restoreAt = order.indexOf(`PATCH ${P}/dashboards/2`);
    expect(order.slice(restoreAt, restoreAt + 3)).toEqual([
      `PATCH ${P}/dashboards/2`,
      `GET ${P}/dashboards/2`,
      `PATCH ${P}/dashboards/2`,
    ]);

    const d = (await h.state()).dashboards.find((x: Json) => x.id === 2);
    expect([d.deleted, d.description, d.pinned]).toEqual([false, "Back again", true]);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("a tombstone on a pinned dashboard that is already soft-deleted is a no-op", async () => {
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { deleted: true })).status).toBe(200);
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - id: 2\n    name: Marketing Overview\n    deleted: true\n",
    );
    const plan = await h.cli(["plan", "--detailed-exitcode", "p"]);
    expect(plan.code).toBe(0);
  });
});

describe("rename through an id pin", () => {
  it("updates the name in place: same id, no new dashboard, then no changes", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - id: 3\n    name: Revenue (finance)\n");
    const plan = JSON.parse((await h.cli(["plan", "--format", "json", "p"])).stdout);
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0].action).toBe("update");
    expect(plan.actions[0].changes).toEqual([
      { path: "name", before: "Revenue", after: "Revenue (finance)" },
    ]);
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    const state = await h.state();
    expect(state.dashboards.find((d: Json) => d.id === 3).name).toBe("Revenue (finance)");
    expect(state.dashboards.filter((d: Json) => d.name === "Revenue")).toEqual([]);
    expect(state.dashboards.filter((d: Json) => !d.deleted && d.team_id === 12345)).toHaveLength(4);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

describe("tags the service ignores (no tagging feature)", () => {
  it("warns on the first apply, then plans no tag change but a note; --detailed-exitcode exits 0", async () => {
    const state = await h.state();
    for (const org of state.organizations) org.features.tagging = false;
    await h.seed(state);
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - name: Tagged new\n    tags: [growth]\n  - name: Marketing Overview\n    tags: [marketing, extra]\n",
    );
    const first = await h.cli(["apply", "--auto-approve", "p"]);
    expect(first.code).toBe(0);
    expect(`${first.stdout}${first.stderr}`).toMatch(/tag/i);
    expect(`${first.stdout}${first.stderr}`).toMatch(/tagging/);

    const again = await h.cli(["plan", "--detailed-exitcode", "p"]);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/^\s*[~+-] .*tags/m);
    expect(again.stdout).toMatch(/tagging/);
    const json = JSON.parse((await h.cli(["plan", "--format", "json", "p"])).stdout);
    expect(json.actions).toEqual([]);
    expect(json.notes.length).toBeGreaterThan(0);
    expect(JSON.stringify(json.notes)).toMatch(/Tagged new|Marketing Overview/);
    // Nothing is sent on later applies.
    await h.clearRequests();
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });
});
