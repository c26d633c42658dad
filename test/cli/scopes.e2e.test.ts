/**
 * Scopes in one place (issue 30 item 3): README's table is what the code declares (each kind its read,
 * write and pull scopes, the operations commands theirs), and the declarations are true: against the
 * emulator, which asks each route's scope as the service does, a key holding exactly what a command
 * declares runs it on examples/ with no request refused, and a key lacking a scope it needs always
 * fails naming that scope. `whoami` reads the key's scopes and says per command what is missing; a
 * project API key is refused before any request.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BEGIN, END, withScopes } from "../../scripts/write-readme-scopes.js";
import { COMMAND_SCOPES } from "../../src/commands/scopes.js";
import { KINDS } from "../../src/kinds/index.js";
import type { Scope, ScopeNeed } from "../../src/scopes.js";
import { grants, mergeNeeds } from "../../src/scopes.js";
import { ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const SECRETS = { PRODUCTION_PROJECT_TOKEN: "phc_Ex7Lq2Vm9Rt4Kw", PRICING_PAYLOAD: "ExPrc7Lq2Vm9Rt" };
const PRODUCTION = join(ROOT, "test/fixtures/single-project/production");

const needsOf = (command: string): ScopeNeed[] => {
  const entry = COMMAND_SCOPES.find((c) => c.commands.includes(command));
  if (!entry) throw new Error(`no scopes for ${command}`);
  return entry.needs(KINDS);
};
const scopesOf = (needs: readonly ScopeNeed[]) => needs.map((n) => n.scope);

let keys = 0;
/** A key of user 1 (alice, admin of Acme) holding exactly `scopes`. */
async function keyWith(scopes: readonly string[], more: { scoped_teams?: number[] } = {}): Promise<string> {
  keys += 1;
  const key = `phx_scopes_test_${keys}_${"k".repeat(20)}`;
  await h.reseed((s) => s.api_keys.push({ key, user: 1, scopes: [...scopes], ...more }));
  return key;
}

async function refusedRequests(): Promise<string[]> {
  return (await h.requests()).filter((r) => r.status === 403).map((r) => `${r.method} ${r.path}`);
}

describe("README's table of scopes", () => {
  it("is what the code declares (npm run readme:scopes writes it)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(BEGIN);
    expect(readme).toContain(END);
    expect(withScopes(readme), "README's scopes table differs from the code: run npm run readme:scopes").toBe(
      readme,
    );
  });

  it("names every built-in kind, and each declares what reading, writing and pulling it needs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const kind of KINDS) {
      expect(kind.scopes.read.length, kind.name).toBeGreaterThan(0);
      expect(kind.scopes.write.length, kind.name).toBeGreaterThan(0);
      expect(kind.scopes.pull.length, kind.name).toBeGreaterThan(0);
      expect(readme).toContain(`| ${kind.words.many} | \``);
    }
    for (const c of COMMAND_SCOPES)
      for (const command of c.commands) expect(readme).toContain(`\`${command}\``);
  });

  it("grants read with write and everything with *; merged needs name each scope once", () => {
    expect(grants(["dashboard:write"], "dashboard:read")).toBe(true);
    expect(grants(["dashboard:read"], "dashboard:write")).toBe(false);
    expect(grants(["*"], "batch_export:write")).toBe(true);
    expect(
      mergeNeeds([
        { scope: "a:read", when: "x" },
        { scope: "a:write" },
        { scope: "b:read", when: "x" },
        { scope: "b:read", when: "y" },
      ]),
    ).toEqual([{ scope: "a:write" }, { scope: "b:read", when: "x; or y" }]);
  });
});

describe("the declarations hold against the emulator", () => {
  it("a key with exactly apply's scopes applies examples/ with no request refused; plan's plans, pull's pulls", async () => {
    const apply = await keyWith(scopesOf(needsOf("apply")));
    await h.clearRequests();
    const applied = await h.cli(["apply", "--auto-approve", PRODUCTION], {
      ...SECRETS,
      POSTHOG_API_KEY: apply,
    });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).not.toMatch(/scope|may not/);
    expect(await refusedRequests()).toEqual([]);

    const plan = await keyWith(scopesOf(needsOf("plan")));
    // Edited in the UI since: the plan has work, which names people and features.
    const board = (await h.state()).dashboards.find((d: { name: string }) => d.name === "Weekly KPIs");
    expect(
      (await h.api("PATCH", `/api/projects/12345/dashboards/${board.id}/`, { tags: ["other"] })).status,
    ).toBe(200);
    const planned = await h.cli(["plan", PRODUCTION], { ...SECRETS, POSTHOG_API_KEY: plan });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout + planned.stderr).not.toMatch(/scope|may not/);

    const pull = await keyWith(scopesOf(needsOf("pull")));
    const pulled = await h.cli(["pull", "--project", "12345", "--out", "adopted"], { POSTHOG_API_KEY: pull });
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await refusedRequests()).toEqual([]);
  });

  it("the operations commands run with theirs", async () => {
    const read = await keyWith(scopesOf(needsOf("runs")));
    for (const args of [
      ["status", "--project", "12345"],
      ["runs", "Events to S3", "--project", "12345"],
      ["logs", "Events to S3", "--project", "12345"],
    ]) {
      const out = await h.cli(args, { POSTHOG_API_KEY: read });
      expect(out.code, `${args.join(" ")}: ${out.stderr}`).toBe(0);
    }
    const write = await keyWith(scopesOf(needsOf("backfill")));
    const backfill = await h.cli(
      [
        "backfill",
        "Events to S3",
        "--start",
        "2026-11-01T00:00:00Z",
        "--end",
        "2026-11-01T03:00:00Z",
        "--project",
        "12345",
      ],
      { POSTHOG_API_KEY: write },
    );
    expect(backfill.code, backfill.stderr).toBe(0);
    const events = await h.cli(["events", "--project", "12345", "--limit", "3"], {
      POSTHOG_API_KEY: await keyWith(scopesOf(needsOf("events"))),
    });
    expect(events.code, events.stderr).toBe(0);
    const members = await h.cli(["members", "--project", "12345"], {
      POSTHOG_API_KEY: await keyWith(scopesOf(needsOf("members"))),
    });
    expect(members.code, members.stderr).toBe(0);
    expect(await refusedRequests()).toEqual([]);
  });

  it("a key lacking a scope apply needs always fails naming it, before or as the service refuses", async () => {
    const always = needsOf("apply").filter((n) => n.when === undefined);
    expect(always.map((n) => n.scope).sort()).toEqual([
      "action:write",
      "batch_export:write",
      "cohort:write",
      "dashboard:write",
      "feature_flag:write",
      "insight:write",
    ]);
    // One new object of each kind: each kind's write is needed.
    h.write(
      "new/objects.yaml",
      [
        "project: 12345",
        "dashboards:",
        "  - name: Scopes board",
        "insights:",
        "  - name: Scopes insight",
        "    query: {kind: InsightVizNode, source: {kind: TrendsQuery, series: [{kind: EventsNode, event: x}]}}",
        "feature_flags:",
        "  - key: scopes-flag",
        "    filters: {groups: [{rollout_percentage: 10}]}",
        "batch_exports:",
        "  - name: Scopes export",
        "    model: persons",
        "    interval: day",
        "    paused: true",
        "    destination: {type: NoOp}",
        "cohorts:",
        "  - name: Scopes cohort",
        "    filters: {properties: {type: AND, values: [{type: person, key: a, operator: exact, value: b}]}}",
        "actions:",
        "  - name: Scopes action",
        "    steps: [{event: x}]",
        "",
      ].join("\n"),
    );
    for (const { scope } of always) {
      // Each from the seed: the runs before created what their key allowed.
      await h.control("POST", "reset");
      const without = scopesOf(needsOf("apply")).filter((s) => s !== scope);
      // The read that the write granted stays.
      const key = await keyWith([...without, scope.replace(":write", ":read")]);
      const out = await h.cli(["apply", "--auto-approve", "new"], { POSTHOG_API_KEY: key });
      expect(out.code, scope).toBe(1);
      expect(out.stdout + out.stderr, scope).toContain(`missing required scope '${scope}'`);
    }
    const all = await keyWith(scopesOf(needsOf("apply")));
    const applied = await h.cli(["apply", "--auto-approve", "new"], { POSTHOG_API_KEY: all });
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  });

  it("a key lacking a scope plan needs always fails naming it", async () => {
    // The fixture's project, with a cohort and an action too: every kind is read.
    h.write(
      "more/cohorts.yaml",
      "project: 12345\ncohorts:\n  - name: Internal staff\nactions:\n  - name: Signed up\n",
    );
    for (const { scope } of needsOf("plan").filter((n) => n.when === undefined)) {
      const key = await keyWith(scopesOf(needsOf("plan")).filter((s) => s !== scope));
      const out = await h.cli(["plan", PRODUCTION, "more"], { ...SECRETS, POSTHOG_API_KEY: key });
      expect(out.code, scope).toBe(1);
      expect(out.stderr, scope).toContain(`missing required scope '${scope}'`);
    }
  });

  it("a scope plan needs in some case is needed in that case: examples/ hits each, and the output names it", async () => {
    const cases = needsOf("plan").filter((n) => n.when !== undefined);
    // (cohort:read, needed when a flag names a cohort by name, is needed always once cohorts are declared.)
    expect(scopesOf(cases).sort()).toEqual([
      "integration:read",
      "organization:read",
      "organization_member:read",
      "project:read",
      "sharing_configuration:read",
    ]);
    // (insight:read, needed with tiles, is needed always once insights are declared too.)
    const applied = await h.cli(["apply", "--auto-approve", PRODUCTION], SECRETS);
    expect(applied.code, applied.stderr).toBe(0);
    // In the UI since: a collaborator removed and the tags changed, so the plan adds a collaborator
    // who is not on the dashboard (members) and sets tags (paid features).
    const board = (await h.state()).dashboards.find((d: { name: string }) => d.name === "Weekly KPIs");
    const url = `/api/projects/12345/dashboards/${board.id}`;
    const [first] = (await h.api("GET", `${url}/collaborators/`)).body;
    expect((await h.api("DELETE", `${url}/collaborators/${first.user.uuid}/`)).status).toBe(204);
    expect((await h.api("PATCH", `${url}/`, { tags: ["other"] })).status).toBe(200);
    // And the board shared with the board no longer shared: the plan reads its sharing.
    const usage = (await h.state()).dashboards.find((d: { name: string }) => d.name === "Product usage");
    const unshared = await h.api("PATCH", `/api/projects/12345/dashboards/${usage.id}/sharing/`, {
      enabled: false,
    });
    expect(unshared.status).toBe(200);
    for (const { scope } of cases) {
      const key = await keyWith(scopesOf(needsOf("plan")).filter((s) => s !== scope));
      const out = await h.cli(["plan", PRODUCTION], { ...SECRETS, POSTHOG_API_KEY: key });
      expect(out.stdout + out.stderr, scope).toContain(scope);
    }
  });
});

describe("whoami", () => {
  it("says per command what the key lacks for the files' kinds, and which of their projects it cannot reach", async () => {
    const key = await keyWith(
      scopesOf(needsOf("plan")).filter((s: Scope) => s !== "feature_flag:read" && s !== "cohort:read"),
      { scoped_teams: [12345] },
    );
    h.write("posthog/a.yaml", "project: 12345\ndashboards: []\nfeature_flags: []\n");
    h.write("posthog/b.yaml", "project: 12346\ninsights: []\n");
    await h.clearRequests();
    const out = await h.cli(["whoami"], { POSTHOG_API_KEY: key });
    expect(out.code, out.stderr).toBe(0);
    expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/personal_api_keys/@current/",
    ]);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toMatch(/^Key phx_\.\.\.kkkk "Emulator key": scopes dashboard:read, /);
    expect(lines[1]).toBe(
      "Projects: only 12345 (a key limited to projects may not use the organization's endpoints)",
    );
    expect(lines[2]).toBe("Kinds your files declare: dashboards, insights, feature flags");
    expect(lines[3]).toBe("Your files name project 12346, which this key cannot reach");
    const row = (command: string) => lines.find((l) => l.startsWith(command)) ?? "";
    expect(row("validate")).toMatch(/ ok$/);
    const plan = row("plan, pull --refresh");
    expect(plan).toMatch(/ missing feature_flag:read; needs /);
    expect(plan).toContain("cohort:read when a condition names a cohort by name");
    // A key limited to projects may not use the organization's endpoints, whatever its scopes.
    expect(plan).toContain("organization_member:read when a collaborator is not on its dashboard yet");
    expect(row("apply")).toMatch(/missing dashboard:write, insight:write, feature_flag:write;/);
    expect(row("events")).toMatch(/missing query:read$/);
    // Batch exports are not declared: their scopes are not asked for plan.
    expect(row("plan, pull --refresh")).not.toContain("batch_export");

    const json = JSON.parse((await h.cli(["whoami", "--format", "json"], { POSTHOG_API_KEY: key })).stdout);
    expect(json.key.projects).toEqual([12345]);
    expect(json.projects).toEqual({ files: [12345, 12346], unreachable: [12346] });
    expect(json.commands.find((c: { commands: string[] }) => c.commands.includes("apply")).missing).toEqual([
      "dashboard:write",
      "insight:write",
      "feature_flag:write",
    ]);
  });

  it("with a key holding every scope, every command is ok", async () => {
    const out = await h.cli(["whoami"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("No files (posthog/ not found): every kind");
    expect(out.stdout).not.toMatch(/missing|needs/);
  });
});

describe("a project API key", () => {
  it("is refused before any request, naming what is needed and never the key", async () => {
    await h.clearRequests();
    h.write("posthog/a.yaml", "project: 12345\ndashboards: []\n");
    for (const command of [["plan"], ["whoami"], ["status", "--project", "12345"]]) {
      const out = await h.cli(command, { POSTHOG_API_KEY: "phc_TheProjectTokenOfAcme0123456789" });
      expect(out.code, command[0]).toBe(1);
      expect(out.stderr, command[0]).toContain(
        "error: POSTHOG_API_KEY is a project API key (it starts with phc_ and only sends events): a personal API key (phx_…) is needed",
      );
      expect(out.stderr).not.toContain("TheProjectToken");
    }
    expect(await h.requests()).toEqual([]);
  });
});
