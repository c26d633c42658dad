/**
 * Saved plans (`plan --out`, `apply --plan`): applied exactly when nothing the plan touches changed,
 * refused (exit 1, naming the objects, nothing written) when anything did, including a namesake created
 * after a planned create, a collaborator changed, or the same plan applied twice.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type E2E, type Json, USER_UUIDS, useE2E } from "./helpers.js";

const h = useE2E();
const P = "/api/projects/12345";

const writes = async (e: E2E) =>
  (await e.requests()).filter((r) => r.method !== "GET" && r.path.startsWith("/api/"));

describe("saved plans", () => {
  const yaml =
    "project: 12345\ndashboards:\n  - name: Product KPIs\n    description: Saved-plan description\n";

  it("refuses a stale saved plan, naming the object, and writes nothing", async () => {
    h.write("p/d.yaml", yaml);
    const saved = await h.cli(["plan", "--out", "plan.json", "p"]);
    expect(saved.code).toBe(0);
    expect(existsSync(join(h.dir, "plan.json"))).toBe(true); // relative to the command's cwd
    expect((await h.api("PATCH", `${P}/dashboards/1/`, { pinned: false })).status).toBe(200);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "--plan", join(h.dir, "plan.json")]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('dashboard "Product KPIs"');
    expect(apply.stderr).toMatch(/changed since the plan was made/);
    expect(await writes(h)).toEqual([]);
    expect((await h.state()).dashboards.find((d: Json) => d.id === 1).description).toBe(
      "Weekly product health",
    );
  });

  it("applies an unchanged saved plan, exactly", async () => {
    h.write("p/d.yaml", yaml);
    expect((await h.cli(["plan", "--out", "plan.json", "p"])).code).toBe(0);
    // A change to an object the plan does not touch does not make it stale.
    expect((await h.api("PATCH", `${P}/dashboards/2/`, { pinned: true })).status).toBe(200);
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"]);
    expect(apply.code).toBe(0);
    expect((await h.state()).dashboards.find((d: Json) => d.id === 1).description).toBe(
      "Saved-plan description",
    );
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

describe("saved plans: what makes them stale", () => {
  it("a namesake created after a planned create", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Brand new\n");
    expect((await h.cli(["plan", "--out", "plan.json", "p"])).code).toBe(0);
    expect((await h.api("POST", `${P}/dashboards/`, { name: "Brand new" })).status).toBe(201);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('dashboard "Brand new"');
    expect(await writes(h)).toEqual([]);
    expect((await h.state()).dashboards.filter((d: Json) => d.name === "Brand new")).toHaveLength(1);
  });

  it("a collaborator changed on a dashboard whose collaborators the plan manages", async () => {
    h.write(
      "p/d.yaml",
      `project: 12345\ndashboards:\n  - name: Revenue\n    restriction_level: only_collaborators\n    collaborators:\n      - user_uuid: ${USER_UUIDS.bob}\n`,
    );
    expect((await h.cli(["plan", "--out", "plan.json", "p"])).code).toBe(0);
    const del = await h.api("DELETE", `${P}/dashboards/3/collaborators/${USER_UUIDS.carol}/`);
    expect(del.status).toBe(204);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('dashboard "Revenue"');
    expect(await writes(h)).toEqual([]);
  });

  it("the same saved plan applied twice: the second is refused", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: false\n");
    expect((await h.cli(["plan", "--out", "plan.json", "p"])).code).toBe(0);
    expect((await h.cli(["apply", "--auto-approve", "--plan", "plan.json"])).code).toBe(0);
    await h.clearRequests();
    const second = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"]);
    expect(second.code).toBe(1);
    expect(await writes(h)).toEqual([]);
  });

  it("a saved plan that is not one is refused before any request", async () => {
    h.write("plan.json", JSON.stringify({ saved_plan_version: 1, plan: { actions: "no" }, reads: [] }));
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/not a plan saved by this version/);
    expect(await h.requests()).toEqual([]);
  });
});
