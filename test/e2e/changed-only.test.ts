/**
 * `plan --base REF --changed-only` and `apply --base REF --changed-only` (SPEC §3 "Change-scoped
 * plans", "Live edits"): the real CLI against the emulator, in a real git repository. What the change
 * touches is read by id and by search, never with a list walk of dashboards; what it does not touch is
 * neither read nor reverted; and each reason to read everything says so.
 */
import { describe, expect, it } from "vitest";
import { type Json, type LoggedRequest, useEmulator } from "../support/emulator.js";
import { GIT_ENV, gitRepo, type Repo } from "../support/git-repo.js";
import { validJson } from "../support/valid-json.js";
import { bigSeed } from "./seeds.js";

const h = useEmulator();
const D = 1000;
const B = 12;
const name = (i: number) => `Dashboard ${String(i).padStart(4, "0")}`;
const exportName = (i: number) => `Export ${String(i).padStart(4, "0")}`;

/** The seeded fleet, declared: dashboards 0–9 pinned by id, the others by name; the NoOp exports. */
function fleetYaml(change: (i: number) => string[] = () => []): string {
  const lines = ["project: 12345", "dashboards:"];
  for (let i = 0; i < D; i++) {
    lines.push(`  - name: ${name(i)}`);
    if (i < 10) lines.push(`    id: ${1000 + i}`);
    lines.push(...change(i));
  }
  return `${lines.join("\n")}\n`;
}

function exportsYaml(paused: (i: number) => boolean = (i) => i % 6 === 0): string {
  const lines = ["project: 12345", "batch_exports:"];
  for (let i = 0; i < B; i++) {
    lines.push(`  - name: ${exportName(i)}`, `    paused: ${paused(i)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The fleet seeded, declared and committed on `main`. */
async function setUp(): Promise<Repo> {
  await h.seed(
    bigSeed(await h.state(), { dashboards: D, exports: B, restrictedEvery: 1000, sharedEvery: 1000 }),
  );
  const repo = gitRepo(h.dir);
  repo.write("posthog/dashboards.yaml", fleetYaml());
  repo.write("posthog/exports.yaml", exportsYaml());
  repo.commit("the fleet");
  await h.clearRequests();
  return repo;
}

const cli = (args: string[]) => h.cli(args, GIT_ENV);
const api = (r: LoggedRequest) => r.path.startsWith("/api/");
/** A page of the dashboard list (not a search, nor the one-item page that asks for its count). */
const dashboardListWalk = (r: LoggedRequest) => {
  const query = new URLSearchParams(r.query);
  return /\/dashboards\/?$/.test(r.path) && !query.has("search") && query.get("limit") === "100";
};

async function patchDashboard(id: number, body: Json): Promise<void> {
  expect((await h.api("PATCH", `/api/projects/12345/dashboards/${id}/`, body)).status).toBe(200);
}

describe("plan --base REF --changed-only", () => {
  it("a change of 3 objects (pinned, by name, new) reads them in 3 requests, not the lists", async () => {
    await setUp();
    h.write(
      "posthog/dashboards.yaml",
      `${fleetYaml((i) => (i === 3 || i === 120 ? ["    description: revised"] : []))}  - name: Brand new\n`,
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(2);
    const requests = (await h.requests()).filter(api);
    expect(requests.map((r) => `${r.method} ${r.path}?${r.query}`).sort()).toEqual(
      [
        "GET /api/projects/12345/dashboards/1003/?",
        "GET /api/projects/12345/dashboards/?search=Dashboard+0120&limit=1000",
        "GET /api/projects/12345/dashboards/?search=Brand+new&limit=1000",
      ].sort(),
    );
    expect(scoped.stdout).toContain(
      "This plan covers only the change since main: 3 of 1013 declarations, those it adds, modifies or deletes, were read and planned.\nThe other 1010 declarations were not read, so edits made to them in PostHog (drift) do not show here; a full plan, such as the nightly drift workflow's, shows them.",
    );
    expect(scoped.stdout).toContain(`~ dashboard "${name(3)}" (id 1003)`);
    expect(scoped.stdout).toContain(`~ dashboard "${name(120)}" (id 1120)`);
    expect(scoped.stdout).toContain('+ dashboard "Brand new"');
    expect(scoped.stdout).toContain("Plan: 1 to create, 2 to update.");

    await h.clearRequests();
    const full = await cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(full.code).toBe(2);
    const fullRequests = (await h.requests()).filter(api);
    expect(fullRequests.filter(dashboardListWalk)).toHaveLength(Math.ceil(D / 100));
    expect(fullRequests.length).toBeGreaterThan(requests.length);
    expect(full.stdout).toContain("Plan: 1 to create, 2 to update.");
  });

  it("no change since REF: nothing is read, and the plan says what it did not check", async () => {
    await setUp();
    await patchDashboard(1007, { name: "Renamed in the UI" });
    await h.clearRequests();
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).toBe(
      "This plan covers only the change since main: 0 of 1012 declarations, those it adds, modifies or deletes, were read and planned.\nThe other 1012 declarations were not read, so edits made to them in PostHog (drift) do not show here; a full plan, such as the nightly drift workflow's, shows them.\n\nNo changes. The live service matches the configuration.\n",
    );
    expect((await h.requests()).filter(api)).toEqual([]);
  });

  it("a UI edit of a changed object is shown (it is read); one of an unchanged object is not checked", async () => {
    await setUp();
    await patchDashboard(1120, { pinned: true, description: "typed in the UI" });
    await patchDashboard(1007, { name: "Renamed in the UI" });
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 120 ? ["    description: revised", "    pinned: false"] : [])),
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).toContain("-typed in the UI");
    expect(scoped.stdout).toContain("+revised");
    expect(scoped.stdout).toContain("pinned: true → false");
    expect(scoped.stdout).not.toContain("Renamed in the UI");
    expect(scoped.stdout).toContain("Plan: 1 to update.");
    // The full plan sees the other edit too (and says nothing of a scope).
    const full = await cli(["plan", "--base", "main", "posthog"]);
    expect(full.stdout).toContain('name: "Renamed in the UI" → "Dashboard 0007"');
    expect(full.stdout).toContain("Plan: 2 to update.");
    expect(full.stdout).not.toContain("Change-scoped");
  });

  it("a tombstone, a removed declaration, a rename by pin and a rename by name", async () => {
    await setUp();
    const text = fleetYaml((i) => (i === 40 ? ["    deleted: true"] : []))
      .replace(`  - name: ${name(5)}\n    id: 1005\n`, "  - name: Renamed through its pin\n    id: 1005\n")
      .replace(`  - name: ${name(60)}\n`, "  - name: Renamed by name\n")
      .replace(`  - name: ${name(70)}\n`, "");
    h.write("posthog/dashboards.yaml", text);
    const json = await cli(["plan", "--base", "main", "--changed-only", "--format", "json", "posthog"]);
    expect(json.code, json.stderr).toBe(0);
    const plan = validJson("plan", json.stdout);
    expect(
      plan.actions.map((a: Json) => `${a.action} ${a.object.name}${a.object.id ? ` #${a.object.id}` : ""}`),
    ).toEqual([
      "create Renamed by name",
      "update Renamed through its pin #1005",
      `soft_delete ${name(40)} #1040`,
    ]);
    expect(plan.scope).toEqual({
      read: "changes",
      base: "main",
      declarations: 1011,
      planned: 3,
      removed: [
        { kind: "dashboard", project: 12345, name: name(60), live: 1060 },
        { kind: "dashboard", project: 12345, name: name(70), live: 1070 },
      ],
    });
    const text2 = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(text2.stdout).toContain(
      `Declared at main and no longer: dashboard "${name(60)}" (live, id 1060), dashboard "${name(70)}" (live, id 1070). They are left as they are: only a full plan with --prune deletes what no file declares.`,
    );
    const markdown = await cli([
      "plan",
      "--base",
      "main",
      "--changed-only",
      "--format",
      "markdown",
      "posthog",
    ]);
    expect(markdown.stdout).toContain(
      "> [!NOTE]\n> This plan covers only the change since `main`: 3 of 1011 declarations",
    );
    expect(markdown.stdout).toContain(`dashboard <b>${name(60)}</b> (live, id 1060)`);
  });

  it("a collaborator added by email: the organization's members are read with the change, once", async () => {
    await setUp();
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) =>
        i === 121
          ? [
              "    restriction_level: only_collaborators",
              "    collaborators:",
              "      - email: carol@example.com",
            ]
          : [],
      ),
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).toContain("+ add collaborator Carol <carol@example.com> (can_edit)");
    const requests = (await h.requests()).filter(api).map((r) => `${r.method} ${r.path}`);
    expect(requests.filter((r) => r.endsWith("/members/"))).toHaveLength(1);
    expect(requests.filter((r) => /dashboards\/?$/.test(r))).toHaveLength(1); // the search
    // A change without collaborators reads no members.
    await h.clearRequests();
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 122 ? ["    pinned: true"] : [])),
    );
    expect((await cli(["plan", "--base", "main", "--changed-only", "posthog"])).code).toBe(0);
    expect((await h.requests()).filter(api).map((r) => r.path)).toEqual(["/api/projects/12345/dashboards/"]);
  });

  it("a pin the change adds takes its object from an unchanged name, which is planned too (as in the full plan)", async () => {
    await setUp();
    // Dashboard 0200 (id 1200) is now declared under another name with its id: the unchanged
    // declaration "Dashboard 0200" has no object any more, and gets a create.
    h.write("posthog/dashboards.yaml", `${fleetYaml()}  - name: Taken over\n    id: 1200\n`);
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    const full = await cli(["plan", "--base", "main", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    const actions = (out: string) => out.split("\n").filter((l) => /^\s+[+~-] /.test(l));
    expect(actions(scoped.stdout)).toEqual(actions(full.stdout));
    expect(scoped.stdout).toContain(`+ dashboard "${name(200)}"`);
    expect(scoped.stdout).toContain("This plan covers only the change since main: 2 of 1013 declarations");
  });

  it("a new name that a live object pinned by an unchanged declaration bears is a create, as in the full plan", async () => {
    await setUp();
    await patchDashboard(1004, { name: "Old title" });
    h.write("posthog/dashboards.yaml", `${fleetYaml()}  - name: Old title\n`);
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(scoped.stdout).toContain('+ dashboard "Old title"');
    expect(scoped.stdout).toContain("Plan: 1 to create.");
  });

  it("two live dashboards with a changed declaration's name: the usual error asking for a pin", async () => {
    await setUp();
    expect((await h.api("POST", "/api/projects/12345/dashboards/", { name: name(130) })).status).toBe(201);
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 130 ? ["    pinned: true"] : [])),
    );
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code).toBe(1);
    expect(scoped.stderr).toMatch(
      new RegExp(
        `dashboard "${name(130)}": 2 live objects have this name \\(ids 1130, \\d+\\); add an \`id:\` pin`,
      ),
    );
  });
});

describe("a change larger than the lists", () => {
  it("reads the lists whole (fewer requests than one by one) and still plans only the change", async () => {
    await setUp();
    await patchDashboard(1007, { name: "Renamed in the UI" });
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i >= 20 && i < 24 ? ["    pinned: true"] : [])),
    );
    const small = await cli(["plan", "--base", "main", "--changed-only", "--format", "json", "posthog"]);
    expect(validJson("plan", small.stdout).scope).not.toHaveProperty("reason");
    await h.clearRequests();
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i >= 20 && i < 32 ? ["    pinned: true"] : [])),
    );
    const large = await cli(["plan", "--base", "main", "--changed-only", "--format", "json", "posthog"]);
    expect(large.code, large.stderr).toBe(0);
    const plan = validJson("plan", large.stdout);
    expect(plan.scope).toEqual({
      read: "changes",
      base: "main",
      declarations: 1012,
      planned: 12,
      reason:
        "every list was read, since the change reads 12 dashboard objects one by one in project 12345, and their list is 10 pages",
    });
    // 20, 25 and 30 are pinned already; the UI's rename of 1007 is read, not planned.
    expect(plan.actions.map((a: Json) => a.object.name)).toHaveLength(9);
    expect(large.stdout).not.toContain("Renamed in the UI");
    const requests = (await h.requests()).filter(api);
    expect(requests.filter(dashboardListWalk)).toHaveLength(Math.ceil(D / 100));
    expect(requests.filter((r) => new URLSearchParams(r.query).has("search"))).toEqual([]);
  });
});

describe("the full read instead, with the reason", () => {
  const reasonOf = async (args: string[]) => {
    const result = await cli([
      "plan",
      "--base",
      "main",
      "--changed-only",
      "--format",
      "json",
      ...args,
      "posthog",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const plan = validJson("plan", result.stdout);
    expect(plan.scope.read).toBe("full");
    expect(plan.scope.planned).toBe(plan.scope.declarations);
    expect((await h.requests()).filter(api).filter(dashboardListWalk)).toHaveLength(Math.ceil(D / 100));
    return plan.scope.reason as string;
  };

  it("--prune", async () => {
    await setUp();
    expect(await reasonOf(["--prune"])).toBe(
      "--prune reads every live object, to find those no file declares",
    );
  });

  it("a changed file-level key", async () => {
    await setUp();
    h.write(
      "posthog/exports.yaml",
      exportsYaml().replace("project: 12345\n", "project: 12345\nvariables: [REGION]\n"),
    );
    expect(await reasonOf([])).toBe("`variables` of posthog/exports.yaml changed since main");
  });

  it("a base a shallow clone does not have", async () => {
    const repo = await setUp();
    repo.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 1 ? ["    pinned: true"] : [])),
    );
    repo.commit("second");
    repo.git("clone", "-q", "--depth", "1", `file://${repo.dir}`, "shallow");
    const result = await h.cli(
      ["plan", "--base", "HEAD~1", "--changed-only", "--format", "json", "posthog"],
      GIT_ENV,
      { cwd: "shallow" },
    );
    expect(result.code, result.stderr).toBe(0);
    const plan = validJson("plan", result.stdout);
    expect(plan.scope).toMatchObject({ read: "full", base: "HEAD~1" });
    expect(plan.scope.reason).toContain("--base HEAD~1: git does not know this revision here");
    expect(plan.base).toBeUndefined();
    expect(plan.actions.map((a: Json) => a.object.name)).toEqual([name(1)]);
  });
});

const exportId = (i: number) => `0190f1d2-7b4e-7c3a-9d1f-${String(0xe1000 + i).padStart(12, "0")}`;

describe("apply --base REF --changed-only", () => {
  it("leaves a UI edit of an unchanged object live and says so; a full apply then reverts it", async () => {
    await setUp();
    // An incident: someone pauses an export and renames a dashboard in the UI.
    const pause = await h.api("POST", `/api/projects/12345/batch_exports/${exportId(1)}/pause/`);
    expect(pause.status).toBe(200);
    await patchDashboard(1007, { name: "Renamed in the UI" });
    // An unrelated change merges: a dashboard's description, another export paused in the files (so
    // the exports' list is read, and the paused one is in it, but only the change is planned).
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 120 ? ["    description: revised"] : [])),
    );
    h.write(
      "posthog/exports.yaml",
      exportsYaml((i) => i % 6 === 0 || i === 2),
    );
    const scoped = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(scoped.code, scoped.stdout + scoped.stderr).toBe(0);
    expect(scoped.stdout).toContain("Apply complete: 2 succeeded, 0 failed, 0 skipped.");
    expect(scoped.stdout).toContain(
      "Only the change since main was applied. The other 1010 declarations were neither checked for drift nor reverted: the nightly drift plan reports drift, and a full apply reverts it.",
    );
    let state = await h.state();
    const exportOf = (i: number) => state.batch_exports.find((b: Json) => b.id === exportId(i));
    const dashboardOf = (id: number) => state.dashboards.find((d: Json) => d.id === id);
    expect(exportOf(1).paused).toBe(true);
    expect(exportOf(2).paused).toBe(true);
    expect(dashboardOf(1007).name).toBe("Renamed in the UI");
    expect(dashboardOf(1120).description).toBe("revised");
    // The scoped plan of the same change is now empty; the full one shows the two live edits.
    expect(
      (await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"])).code,
    ).toBe(0);
    const full = await cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(full.code).toBe(2);
    expect(full.stdout).toContain("Plan: 1 to update, 1 to unpause.");
    // Reverting drift on purpose: the full apply.
    expect((await cli(["apply", "--auto-approve", "posthog"])).code).toBe(0);
    state = await h.state();
    expect(exportOf(1).paused).toBe(false);
    expect(dashboardOf(1007).name).toBe(name(7));
  });

  it("a saved change-scoped plan applies exactly, reading again only what it read", async () => {
    await setUp();
    h.write(
      "posthog/dashboards.yaml",
      `${fleetYaml((i) => (i === 4 || i === 301 ? ["    pinned: true"] : []))}  - name: Saved new\n`,
    );
    const plan = await cli(["plan", "--base", "main", "--changed-only", "--out", "saved.json", "posthog"]);
    expect(plan.code, plan.stderr).toBe(0);
    await h.clearRequests();
    const applied = await cli(["apply", "--auto-approve", "--plan", "saved.json"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain("This plan covers only the change since main: 3 of 1013 declarations");
    expect(applied.stdout).toContain("Apply complete: 3 succeeded, 0 failed, 0 skipped.");
    const requests = (await h.requests()).filter(api);
    expect(requests.filter(dashboardListWalk)).toEqual([]);
    expect(
      requests
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([
      "PATCH /api/projects/12345/dashboards/1004/",
      "PATCH /api/projects/12345/dashboards/1301/",
      "POST /api/projects/12345/dashboards/",
    ]);
    expect(
      (await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"])).code,
    ).toBe(0);
  });

  it("a saved change-scoped plan whose object changed live since is refused, naming it", async () => {
    await setUp();
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 301 ? ["    pinned: true"] : [])),
    );
    expect(
      (await cli(["plan", "--base", "main", "--changed-only", "--out", "saved.json", "posthog"])).code,
    ).toBe(0);
    await patchDashboard(1301, { description: "edited meanwhile" });
    const applied = await cli(["apply", "--auto-approve", "--plan", "saved.json"]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(
      `the live state changed since the plan was made: dashboard "${name(301)}" (project 12345); nothing was applied`,
    );
    expect((await h.state()).dashboards.find((d: Json) => d.id === 1301).pinned).toBe(false);
  });

  it("--changed-only needs --base, and is refused with a saved plan", async () => {
    await setUp();
    const alone = await cli(["plan", "--changed-only", "posthog"]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toBe(
      "error: --changed-only needs --base REF: the revision the change is measured from\n",
    );
    const saved = await cli(["apply", "--auto-approve", "--plan", "saved.json", "--changed-only"]);
    expect(saved.code).toBe(1);
    expect(saved.stderr).toContain("apply --plan FILE applies the saved plan as it was made");
    expect((await h.requests()).filter(api)).toEqual([]);
  });
});

describe("apply --changed-only where a plan would read everything", () => {
  it("a base git cannot read: refused before any request, since a full apply would revert live edits", async () => {
    await setUp();
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i === 120 ? ["    description: revised"] : [])),
    );
    const applied = await cli([
      "apply",
      "--auto-approve",
      "--base",
      "origin/gone",
      "--changed-only",
      "posthog",
    ]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("--base origin/gone: git does not know this revision here");
    expect(applied.stderr).toContain(
      "apply --changed-only applies nothing it cannot tell from that revision: fetch it, or apply everything on purpose without --changed-only",
    );
    expect((await h.requests()).filter(api)).toEqual([]);
  });

  it("a change larger than the lists: the lists are read whole, and still only the change is applied", async () => {
    await setUp();
    await patchDashboard(1007, { name: "Renamed in the UI" });
    h.write(
      "posthog/dashboards.yaml",
      fleetYaml((i) => (i >= 20 && i < 32 ? ["    pinned: true"] : [])),
    );
    const applied = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      "It also read more than the change: every list was read, since the change reads 12 dashboard objects one by one in project 12345, and their list is 10 pages.",
    );
    expect(applied.stdout).toContain("Apply complete: 9 succeeded, 0 failed, 0 skipped.");
    expect((await h.state()).dashboards.find((d: Json) => d.id === 1007).name).toBe("Renamed in the UI");
  });

  it("a file whose own settings changed counts whole; the other files' objects are left as they are", async () => {
    await setUp();
    await patchDashboard(1007, { name: "Renamed in the UI" });
    expect((await h.api("POST", `/api/projects/12345/batch_exports/${exportId(1)}/pause/`)).status).toBe(200);
    h.write(
      "posthog/exports.yaml",
      exportsYaml().replace("project: 12345\n", "project: 12345\nvariables: [REGION]\n"),
    );
    const applied = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      "It also read more than the change: `variables` of posthog/exports.yaml changed since main: every declaration of that file counts as changed.",
    );
    expect(applied.stdout).toContain(
      `This plan covers only the change since main: ${B} of 1012 declarations, those it adds`,
    );
    const state = await h.state();
    expect(state.batch_exports.find((b: Json) => b.id === exportId(1)).paused).toBe(false);
    expect(state.dashboards.find((d: Json) => d.id === 1007).name).toBe("Renamed in the UI");
  });
});

describe("dashboards with tiles, change-scoped", () => {
  const insights = (names: string[]) =>
    `insights:\n${names
      .map(
        (n) =>
          `  - name: ${n}\n    query:\n      kind: InsightVizNode\n      source:\n        kind: TrendsQuery\n        series: [{kind: EventsNode, event: ${n.toLowerCase()}}]\n`,
      )
      .join("")}`;
  const board = (name: string, tiles: Array<[string, string]>) =>
    `  - name: ${name}\n    tiles:\n${tiles
      .map(([insight, layout]) => `      - insight: ${insight}\n        layout: ${layout}\n`)
      .join("")}`;
  /** Two dashboards showing three of four insights; `orders` is where "Orders" sits on "Growth". */
  const content = (orders: string) =>
    `project: 12345\n${insights(["Signups", "Orders", "Churn", "Visits"])}dashboards:\n${board("Growth", [
      ["Signups", "{x: 0, y: 0, w: 6, h: 5}"],
      ["Orders", orders],
    ])}${board("Retention", [["Churn", "{x: 0, y: 0, w: 6, h: 5}"]])}`;

  it("a moved tile reads its dashboard, the dashboard's tiles and the insights they show, and plans as the full plan does", async () => {
    const repo = gitRepo(h.dir);
    repo.write("posthog/content.yaml", content("{x: 6, y: 0, w: 6, h: 5}"));
    expect((await cli(["apply", "--auto-approve", "posthog"])).code).toBe(0);
    repo.commit("the content");
    // A project of some size: 300 more insights and 200 more dashboards that no file declares, so
    // reading the change one by one is cheaper than the lists.
    await h.reseed((state: Json) => {
      const insight = state.insights[0];
      const dashboard = state.dashboards.find((d: Json) => d.team_id === 12345 && !d.deleted);
      for (let i = 0; i < 300; i++) {
        state.insights.push({ ...insight, id: 50_000 + i, short_id: `bulk${i}`, name: `Bulk insight ${i}` });
      }
      for (let i = 0; i < 200; i++) {
        state.dashboards.push({ ...dashboard, id: 60_000 + i, name: `Bulk dashboard ${i}` });
      }
    });
    h.write("posthog/content.yaml", content("{x: 0, y: 5, w: 6, h: 5}"));
    await h.clearRequests();
    const scoped = await cli(["plan", "--base", "main", "--changed-only", "--detailed-exitcode", "posthog"]);
    expect(scoped.code, scoped.stderr).toBe(2);
    const paths = (await h.requests()).filter(api).map((r) => `${r.method} ${r.path}`);
    // The dashboard by search, its tiles (one retrieve), the two insights its tiles name by search, and
    // the insights' count (two to read one by one, more than the 4 declared fill pages: is the list
    // cheaper? 304 insights are 4 pages, so no): neither list is walked, nor is the other dashboard read.
    const requests = (await h.requests()).filter(api);
    const searched = requests.flatMap((r) => new URLSearchParams(r.query).getAll("search")).sort();
    expect(searched).toEqual(["Growth", "Orders", "Signups"]);
    expect(paths.filter((p) => /\/dashboards\/\d+\/$/.test(p))).toHaveLength(1);
    expect(requests.filter((r) => new URLSearchParams(r.query).get("limit") === "1")).toHaveLength(1);
    expect(paths).toHaveLength(5);
    const full = await cli(["plan", "--detailed-exitcode", "posthog"]);
    const actions = (out: string) => out.split("\n").filter((l) => /^\s+[+~-] /.test(l));
    expect(actions(scoped.stdout)).toEqual(actions(full.stdout));
    expect(scoped.stdout).toContain('~ update tile insight "Orders"');
    const applied = await cli(["apply", "--auto-approve", "--base", "main", "--changed-only", "posthog"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await cli(["plan", "--detailed-exitcode", "posthog"])).code).toBe(0);
  });
});
