/**
 * Every action kind round-trips through the real CLI and the real emulator: plan names it, apply does
 * it, the emulator's state shows it, and a second `plan --detailed-exitcode` exits 0.
 */
import { describe, expect, it } from "vitest";
import { type Json, P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "../support/emulator.js";
import { addRunningExport, ALL_KINDS_CONFIG as CONFIG, SECRETS } from "./fixtures.js";

const h = useEmulator();

describe("every action kind round-trips", () => {
  it("plans all eleven kinds, applies them, and the next plan is empty", async () => {
    const noopId = await addRunningExport(h);
    expect((await h.api("PATCH", `${P}/dashboards/4/`, { deleted: true })).status).toBe(200);
    h.write("posthog/all.yaml", CONFIG);
    await h.clearRequests();

    const planned = await h.cli(["plan", "--format", "json", "--detailed-exitcode", "posthog"]);
    expect(planned.stderr).not.toMatch(/error/i); // plan works without the secret variables
    expect(planned.code).toBe(2);
    const plan = JSON.parse(planned.stdout);
    const kinds = new Set(plan.actions.map((a: Json) => a.action));
    expect([...kinds].sort()).toEqual(
      [
        "add_collaborator",
        "create",
        "delete",
        "disable_sharing",
        "enable_sharing",
        "pause",
        "remove_collaborator",
        "restore",
        "soft_delete",
        "unpause",
        "update",
      ].sort(),
    );

    const applied = await h.cli(["apply", "--auto-approve", "posthog"], SECRETS);
    expect(applied.stdout).toContain("Apply complete");
    expect(applied.code).toBe(0);
    expect(applied.stdout).not.toContain("✗");

    const again = await h.cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(again.stdout).toContain("No changes");
    expect(again.code).toBe(0);

    const state = await h.state();
    const dash = (id: number) => state.dashboards.find((d: Json) => d.id === id);
    expect(dash(1).description).toBe("Weekly product health, reviewed on Mondays");
    expect(state.sharing.find((s: Json) => s.dashboard_id === 1).enabled).toBe(false);
    expect(dash(2).deleted).toBe(true);
    expect(dash(4).deleted).toBe(false);
    expect(state.sharing.find((s: Json) => s.dashboard_id === 4).enabled).toBe(true);
    const revenue = state.collaborators.filter((c: Json) => c.dashboard_id === 3).map((c: Json) => c.user);
    expect(revenue).toEqual([2]);
    const created = state.dashboards.filter((d: Json) => d.name === "Created by e2e");
    expect(created).toHaveLength(1);
    expect(created[0].tags).toEqual(["e2e"]);

    const exp = (id: string) => state.batch_exports.find((b: Json) => b.id === id);
    expect(exp(S3_EXPORT_ID).paused).toBe(true);
    expect(exp(POSTGRES_EXPORT_ID).paused).toBe(false);
    expect(exp(POSTGRES_EXPORT_ID).interval).toBe("hour");
    expect(exp(noopId) === undefined || exp(noopId).deleted === true).toBe(true);
    const fresh = state.batch_exports.filter((b: Json) => b.name === "New S3 export" && !b.deleted);
    expect(fresh).toHaveLength(1);
    expect([fresh[0].destination.type, fresh[0].destination.integration]).toEqual(["AwsS3", 1]);
    const http = state.batch_exports.filter((b: Json) => b.name === "New HTTP export" && !b.deleted);
    expect(http.map((b: Json) => b.destination.config.token)).toEqual([SECRETS.NEW_TOKEN]);
    // The newest service refuses nothing the plan showed.
    expect((await h.requests()).filter((r) => r.status >= 400)).toEqual([]);

    // Pause and unpause go through their endpoints, soft delete and restore through PATCH.
    const writes = (await h.requests()).filter((r) => r.method !== "GET");
    expect(writes.some((r) => r.method === "POST" && r.path.endsWith(`${S3_EXPORT_ID}/pause/`))).toBe(true);
    expect(writes.some((r) => r.method === "POST" && r.path.endsWith(`${POSTGRES_EXPORT_ID}/unpause/`))).toBe(
      true,
    );
    expect(writes.some((r) => r.method === "DELETE" && r.path.includes(noopId))).toBe(true);

    // SPEC order: per object restore/update, collaborator removes then adds, sharing, pause/unpause;
    // deletes after everything else.
    const at = (test: (r: { method: string; path: string }) => boolean) => writes.findIndex(test);
    const removeCarol = at((r) => r.method === "DELETE" && r.path.includes("/dashboards/3/collaborators/"));
    const addBob = at((r) => r.method === "POST" && /\/dashboards\/3\/collaborators\/?$/.test(r.path));
    expect(removeCarol).toBeGreaterThanOrEqual(0);
    expect(removeCarol).toBeLessThan(addBob);
    const restore4 = at((r) => r.method === "PATCH" && /\/dashboards\/4\/?$/.test(r.path));
    const share4 = at((r) => r.method === "PATCH" && /\/dashboards\/4\/sharing\/?$/.test(r.path));
    expect(restore4).toBeGreaterThanOrEqual(0);
    expect(restore4).toBeLessThan(share4);
    const updatePg = at((r) => r.method === "PATCH" && r.path.includes(POSTGRES_EXPORT_ID));
    const unpausePg = at((r) => r.path.endsWith(`${POSTGRES_EXPORT_ID}/unpause/`));
    expect(updatePg).toBeGreaterThanOrEqual(0);
    expect(updatePg).toBeLessThan(unpausePg);
    const softDelete2 = at((r) => r.method === "PATCH" && /\/dashboards\/2\/?$/.test(r.path));
    const deleteNoop = at((r) => r.method === "DELETE" && r.path.includes(noopId));
    const lastOther = Math.max(...writes.map((_r, i) => (i === softDelete2 || i === deleteNoop ? -1 : i)));
    expect(Math.min(softDelete2, deleteNoop)).toBeGreaterThan(lastOther);
    expect(writes.some((r) => r.method === "DELETE" && /\/dashboards\/\d+\/?$/.test(r.path))).toBe(false);
    expect(writes.some((r) => r.method === "PATCH" && /\/dashboards\/2\/?$/.test(r.path))).toBe(true);
  });

  it("a second apply after convergence sends no write at all", async () => {
    await addRunningExport(h);
    h.write("posthog/all.yaml", CONFIG);
    expect((await h.cli(["apply", "--auto-approve", "posthog"], SECRETS)).code).toBe(0);
    await h.clearRequests();
    const second = await h.cli(["apply", "--auto-approve", "posthog"], SECRETS);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("No changes");
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });
});
