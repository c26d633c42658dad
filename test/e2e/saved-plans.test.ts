/**
 * Saved plans (`plan --out`, `apply --plan`): applied exactly when nothing the plan touches changed,
 * refused (exit 1, naming the objects, nothing written) when anything did, including a namesake created
 * after a planned create, a collaborator changed, or the same plan applied twice.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { type EmulatorHarness, type Json, P, ROOT, USER_UUIDS, useEmulator } from "../support/emulator.js";

const h = useEmulator();

const writes = async (e: EmulatorHarness) =>
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

describe("a saved plan is bound to what made it (SPEC §3)", () => {
  const yaml =
    "project: 12345\ndashboards:\n  - name: Product KPIs\n    description: Bound description\n  - name: Bound new board\n";
  const file = () => join(h.dir, "plan.json");
  const edit = (change: (saved: Json) => void) => {
    const saved = JSON.parse(readFileSync(file(), "utf8"));
    change(saved);
    writeFileSync(file(), JSON.stringify(saved));
  };
  async function saved() {
    h.write("p/d.yaml", yaml);
    expect((await h.cli(["plan", "--out", "plan.json", "p"])).code).toBe(0);
    await h.clearRequests();
  }
  async function refused(message: RegExp, extra: string[] = [], env: Record<string, string> = {}) {
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json", ...extra], env);
    expect(apply.code, apply.stderr).toBe(1);
    expect(apply.stderr).toMatch(message);
    expect(await writes(h)).toEqual([]);
  }

  it("says what it applies: when it was made, against which host and project", async () => {
    await saved();
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toMatch(
      /^Applying the plan made \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(\d+s ago\) against http:\/\/127\.0\.0\.1:\d+, project 12345\.$/m,
    );
  });

  it("a body edited by hand (deleted: true slipped into an update) is refused, nothing is sent", async () => {
    await saved();
    edit((s) => {
      const update = s.plan.actions.find((a: Json) => a.action === "update");
      update.after.deleted = true;
    });
    await refused(
      /refusing the saved plan: its action \d \(update of dashboard "Product KPIs" \(project 12345\)\) is not what the files and the live state give/,
    );
  });

  it("is what schemas/saved-plan.schema.json describes", async () => {
    await saved();
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(ROOT, "schemas/saved-plan.schema.json"), "utf8")),
    );
    expect(validate(JSON.parse(readFileSync(file(), "utf8"))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("a plan with a list of other plans slipped in by hand is refused, nothing is sent", async () => {
    await saved();
    edit((s) => {
      s.environments = [{ ...structuredClone(s), environment: "elsewhere" }];
    });
    await refused(/is not a plan saved by this version of posthog-gitops, or it was edited by hand/);
  });

  it("an action flipped by hand (update → soft_delete) is refused", async () => {
    await saved();
    edit((s) => {
      const update = s.plan.actions.find((a: Json) => a.action === "update");
      update.action = "soft_delete";
      update.destructive = true;
      s.plan.summary.destructive = true;
    });
    await refused(/is not a plan saved by this version of posthog-gitops, or it was edited by hand/);
  });

  it("an object added by hand is refused", async () => {
    await saved();
    edit((s) => {
      const extra = structuredClone(s.plan.actions[0]);
      extra.object.name = "Smuggled";
      s.plan.actions.push(extra);
    });
    await refused(/is not what the files and the live state give \(nothing\)/);
  });

  it("another host is refused", async () => {
    await saved();
    const other = h.url.replace("127.0.0.1", "localhost");
    await refused(/it was made against http:\/\/127\.0\.0\.1:\d+, not http:\/\/localhost:\d+/, [], {
      POSTHOG_HOST: other,
    });
  });

  it("another project is refused", async () => {
    h.write("p/d.yaml", "dashboards:\n  - name: Product KPIs\n    description: Bound description\n");
    expect((await h.cli(["plan", "--out", "plan.json", "p"], { POSTHOG_PROJECT_ID: "12345" })).code).toBe(0);
    await h.clearRequests();
    await refused(/it is for project 12345, not 12346/, ["--project", "12346"]);
  });

  it("another version of the tool is refused", async () => {
    await saved();
    edit((s) => {
      s.tool_version = "0.0.1";
    });
    await refused(/it was made by posthog-gitops 0\.0\.1, this is /);
  });

  it("changed, added or removed configuration files are refused, naming them", async () => {
    await saved();
    h.write("p/d.yaml", `${yaml}  - name: One more\n`);
    await refused(/the configuration changed since: p\/d\.yaml\. Make a new plan\./);
    h.write("p/d.yaml", yaml);
    h.write("p/extra.yaml", "project: 12345\ndashboards: []\n");
    await refused(/the configuration changed since: p\/extra\.yaml \(new\)/);
  });
});
