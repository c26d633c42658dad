/**
 * Promotion (SPEC §9 "Promotion", issue 35), end to end: the real CLI against the emulator with two
 * projects (staging 12346, production 12345), each with its own key, and the example files
 * (examples/posthog: environments.yaml, shared/, overlays/) applied to both. An edit made in staging's
 * UI becomes one line of a shared file; a field staging's overlay sets stays there; `--adopt` brings a
 * staging-only dashboard with its insights and tiles, by name; `promote` sends only GETs; a group type
 * mismatch is warned; and no secret reaches a shared file or an output.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeEach, describe, expect, it } from "vitest";
import { type Json, ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const EXAMPLES = join(ROOT, "examples/posthog");

/** Each environment's key in the variable its entry names; made of no ordinary word (leak scan). */
const KEYS = {
  POSTHOG_API_KEY: undefined,
  POSTHOG_API_KEY_STAGING: "phx_stg_Wd4Kp8Nx2Lq6Zt",
  POSTHOG_API_KEY_PRODUCTION: "phx_prd_Ry7Fm3Jc9Vb1Hs",
};
const SECRETS = {
  PRODUCTION_PROJECT_TOKEN: "phc_Pm4Xz8Qw2Ls6Kd",
  PRICING_PAYLOAD_PRODUCTION: '{"plan":"Gz7Rk2Wq9Tn4"}',
};
const ENV = { ...KEYS, ...SECRETS };

const read = (name: string) => readFileSync(join(h.dir, name), "utf8");

/** `promote --format json`'s output, checked against schemas/promote.schema.json. */
function document(stdout: string): Json {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, "schemas/promote.schema.json"), "utf8")));
  const value = JSON.parse(stdout);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  return value;
}
const STAGING = "/api/projects/12346";

beforeEach(async () => {
  await h.reseed((state) => {
    state.api_keys.push(
      { key: KEYS.POSTHOG_API_KEY_STAGING, user: 1, scopes: ["*"] },
      { key: KEYS.POSTHOG_API_KEY_PRODUCTION, user: 1, scopes: ["*"] },
    );
  });
  cpSync(EXAMPLES, join(h.dir, "posthog"), { recursive: true });
  const applied = await h.cli(["apply", "--all", "--auto-approve"], ENV);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
});

/** Staging's cohort "Beta testers" (which the shared flag new-checkout targets) made a static list. */
async function makeStagingCohortStatic(): Promise<void> {
  await h.reseed((state) => {
    const cohort = state.cohorts.find((c: Json) => c.team_id === 12346 && c.name === "Beta testers") as Json;
    cohort.is_static = true;
  });
}

/** Staging's live flag with this key. */
async function stagingFlag(key: string): Promise<Json> {
  const state = await h.state();
  return state.feature_flags.find((f: Json) => f.key === key && f.team_id === 12346 && !f.deleted);
}

describe("promote staging", () => {
  it("a rollout changed in staging's UI is one line of the shared flag file; staging then plans empty, production exactly that change", async () => {
    const flag = await stagingFlag("new-checkout");
    const groups = structuredClone(flag.filters.groups);
    groups[0].rollout_percentage = 80;
    const edit = await h.api("PATCH", `${STAGING}/feature_flags/${flag.id}/`, {
      filters: { ...flag.filters, groups },
    });
    expect(edit.status, edit.text).toBe(200);
    const before = read("posthog/shared/feature-flags.yaml");
    await h.clearRequests();
    const shown = await h.cli(["promote", "staging", "--detailed-exitcode"], ENV);
    expect(shown.code, shown.stderr).toBe(2);
    expect(read("posthog/shared/feature-flags.yaml")).toBe(before);
    const methods = new Set((await h.requests()).map((r) => r.method));
    expect([...methods]).toEqual(["GET"]);
    const written = await h.cli(["promote", "staging", "--write"], ENV);
    expect(written.code, written.stderr).toBe(0);
    const after = read("posthog/shared/feature-flags.yaml");
    const changed = after.split("\n").filter((line, i) => line !== before.split("\n")[i]);
    expect(after.split("\n").length).toBe(before.split("\n").length);
    expect(changed).toEqual(["          rollout_percentage: 80"]);
    expect(after).toBe(before.replace(/rollout_percentage: 100\n/, "rollout_percentage: 80\n"));
    const staging = await h.cli(["plan", "--env", "staging", "--detailed-exitcode"], ENV);
    expect(staging.code, staging.stdout).toBe(0);
    const production = await h.cli(["plan", "--env", "production", "--format", "json"], ENV);
    const plan = JSON.parse(production.stdout).environments[0].plan;
    expect(
      plan.actions.map((a: Json) => [a.action, a.object.name, a.changes.map((c: Json) => c.path)]),
    ).toEqual([["update", "new-checkout", ["filters.groups"]]]);
    expect(existsSync(join(h.dir, "posthog"))).toBe(true);
  });

  it("what staging's overlay or variables set stays there, listed as kept; the rest is promoted", async () => {
    const state = await h.state();
    const board = (name: string) =>
      state.dashboards.find((d: Json) => d.name === name && d.team_id === 12346 && !d.deleted);
    const kpis = board("Weekly KPIs");
    const usage = board("Product usage");
    // Set by staging's overlay: its description and its tags (a list the overlay replaces).
    const a = await h.api("PATCH", `${STAGING}/dashboards/${kpis.id}/`, {
      description: "Edited in staging",
      tags: ["growth", "kpi", "staging", "q4"],
    });
    expect(a.status, a.text).toBe(200);
    // Declared in the shared file only.
    const b = await h.api("PATCH", `${STAGING}/dashboards/${usage.id}/`, { tags: ["product", "web"] });
    expect(b.status, b.text).toBe(200);
    // A value staging's variable gives (${CHECKOUT_ROLLOUT} = 50).
    const flag = await stagingFlag("new-checkout");
    const groups = structuredClone(flag.filters.groups);
    groups[1].rollout_percentage = 65;
    const c = await h.api("PATCH", `${STAGING}/feature_flags/${flag.id}/`, {
      filters: { ...flag.filters, groups },
    });
    expect(c.status, c.text).toBe(200);
    const overlay = read("posthog/overlays/staging.yaml");
    const flags = read("posthog/shared/feature-flags.yaml");
    const dashboards = read("posthog/shared/dashboards.yaml");
    const result = await h.cli(["promote", "staging", "production", "--write", "--format", "json"], ENV);
    expect(result.code, result.stderr).toBe(0);
    const out = document(result.stdout);
    expect(out.kept.map((k: Json) => [k.owner, k.field])).toEqual([
      ['dashboard "Weekly KPIs"', "description"],
      ['dashboard "Weekly KPIs"', "tags"],
      ['feature flag "new-checkout"', "filters.groups.1.rollout_percentage"],
    ]);
    expect(out.kept[0].why).toMatch(
      /^set in posthog\/overlays\/staging\.yaml:\d+ for staging only: kept there$/,
    );
    expect(out.kept[1].why).toMatch(/replaces the shared list in staging: kept there$/);
    expect(out.kept[2].why).toMatch(
      /^from staging's variable CHECKOUT_ROLLOUT \(posthog\/environments\.yaml:\d+\)/,
    );
    expect(out.promoted).toEqual([
      { owner: 'dashboard "Product usage"', field: "tags", file: "posthog/shared/dashboards.yaml" },
    ]);
    expect(read("posthog/overlays/staging.yaml")).toBe(overlay);
    expect(read("posthog/shared/feature-flags.yaml")).toBe(flags);
    expect(read("posthog/shared/dashboards.yaml")).toBe(
      dashboards.replace("    tags: [product]\n", "    tags: [product, web]\n"),
    );
    const text = await h.cli(["promote", "staging"], ENV);
    expect(text.stdout).toContain("Kept in staging (not promoted):");
    expect(text.stdout).toContain(
      '= description of dashboard "Weekly KPIs": set in posthog/overlays/staging.yaml:',
    );
    expect(text.stderr).toContain("Nothing to promote from staging.");
  });

  it("--adopt brings a staging-only dashboard with its insights and tiles into the shared files, by name, never an id", async () => {
    // Made in staging alone (as in its UI): two insights and a dashboard showing them and a text card.
    h.write(
      "made-in-staging/board.yaml",
      [
        "project: 12346",
        "insights:",
        "  - name: Signup sources",
        "    query: {kind: InsightVizNode, source: {kind: TrendsQuery, series: [{kind: EventsNode, event: user signed up}], breakdownFilter: {breakdown: $initial_referring_domain}}}",
        "  - name: Churned accounts",
        "    query: {kind: InsightVizNode, source: {kind: TrendsQuery, series: [{kind: EventsNode, event: account closed}]}}",
        "dashboards:",
        "  - name: Staging growth",
        "    description: Tried in staging first.",
        "    tiles:",
        "      - insight: Signup sources",
        "        layout: {x: 0, y: 0, w: 6, h: 5}",
        "      - insight: Churned accounts",
        "        layout: {x: 6, y: 0, w: 6, h: 5}",
        "      - text: Read me first",
        "        layout: {x: 0, y: 5, w: 12, h: 2}",
        "",
      ].join("\n"),
    );
    const made = await h.cli(["apply", "--auto-approve", "made-in-staging"], {
      POSTHOG_API_KEY: KEYS.POSTHOG_API_KEY_STAGING,
    });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const dashboards = read("posthog/shared/dashboards.yaml");
    const insights = read("posthog/shared/insights.yaml");
    await h.clearRequests();
    const result = await h.cli(["promote", "staging", "--adopt", "--write", "--format", "json"], ENV);
    expect(result.code, result.stderr).toBe(0);
    expect([...new Set((await h.requests()).map((r) => r.method))]).toEqual(["GET"]);
    const out = document(result.stdout);
    // The seed's own staging-only dashboard comes along.
    expect(out.adopted).toEqual([
      { kind: "dashboard", name: "Staging Smoke Tests", file: "posthog/shared/dashboards.yaml" },
      { kind: "dashboard", name: "Staging growth", file: "posthog/shared/dashboards.yaml" },
      { kind: "insight", name: "Churned accounts", file: "posthog/shared/insights.yaml" },
      { kind: "insight", name: "Signup sources", file: "posthog/shared/insights.yaml" },
      // The cohort the shared flag names, which no file declares (the files declare cohorts now).
      { kind: "cohort", name: "Beta testers", file: "posthog/shared/cohorts.yaml" },
    ]);
    const newDashboards = read("posthog/shared/dashboards.yaml");
    const newInsights = read("posthog/shared/insights.yaml");
    // Appended: every line before stays as it was.
    expect(newDashboards.startsWith(dashboards)).toBe(true);
    expect(newInsights.startsWith(insights)).toBe(true);
    const added = newDashboards.slice(dashboards.length) + newInsights.slice(insights.length);
    expect(added).not.toMatch(/\bid:|insight_id/);
    expect(added).toContain("name: Staging growth");
    expect(added).toContain("insight: Signup sources");
    expect(added).toContain("insight: Churned accounts");
    expect(added).toContain("text: Read me first");
    // Staging has them all (found by name); production is to create them, the tiles by name.
    const staging = await h.cli(["plan", "--env", "staging", "--detailed-exitcode"], ENV);
    expect(staging.code, staging.stdout).toBe(0);
    const production = await h.cli(["plan", "--env", "production", "--format", "json"], ENV);
    const plan = JSON.parse(production.stdout).environments[0].plan;
    expect(plan.actions.map((a: Json) => `${a.action} ${a.object.kind} ${a.object.name}`).sort()).toEqual([
      "add_tile dashboard Staging growth",
      "add_tile dashboard Staging growth",
      "add_tile dashboard Staging growth",
      "create dashboard Staging Smoke Tests",
      "create dashboard Staging growth",
      "create insight Churned accounts",
      "create insight Signup sources",
      // Staging's criteria of the adopted cohort, which production's differ from.
      "update cohort Beta testers",
    ]);
    expect(out.plan.actions.length).toBe(plan.actions.length);
  });

  it("--adopt never writes files that would not validate: a dashboard showing an ignored insight", async () => {
    const file = "posthog/shared/insights.yaml";
    h.write(
      file,
      read(file).replace("environments: all\n", 'environments: all\n\nignore:\n  insights: ["Scratch *"]\n'),
    );
    h.write(
      "made-in-staging/board.yaml",
      [
        "project: 12346",
        "insights:",
        "  - name: Scratch chart",
        "    query: {kind: InsightVizNode, source: {kind: TrendsQuery, series: [{kind: EventsNode, event: x}]}}",
        "dashboards:",
        "  - name: Growth board",
        "    tiles: [{insight: Scratch chart}]",
        "",
      ].join("\n"),
    );
    const made = await h.cli(["apply", "--auto-approve", "made-in-staging"], {
      POSTHOG_API_KEY: KEYS.POSTHOG_API_KEY_STAGING,
    });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const before = read("posthog/shared/dashboards.yaml");
    const result = await h.cli(["promote", "staging", "--adopt", "--write"], ENV);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/posthog\/shared\/dashboards\.yaml:\d+:\d+: error: .*Scratch chart/);
    expect(result.stderr).toMatch(
      /error: environment production: the edited files have \d+ errors? the files did not have \(above\); nothing was written/,
    );
    expect(result.stdout).toContain("Edits to the shared files");
    expect(read("posthog/shared/dashboards.yaml")).toBe(before);
  });

  it("warns when a group type index names different group types in the two projects, in promote and in the plan of both", async () => {
    const file = "posthog/shared/feature-flags.yaml";
    h.write(
      file,
      `${read(file)}
  - key: company-beta
    name: Company beta, by company
    filters:
      aggregation_group_type_index: 0
      groups:
        - rollout_percentage: 25
`,
    );
    const applied = await h.cli(["apply", "--all", "--auto-approve"], ENV);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    // Production's project made its group types in another order: index 0 is its workspaces.
    await h.reseed((state) => {
      const production = state.projects.find((p: Json) => p.id === 12345) as Json;
      production.group_types = [
        { group_type: "workspace", group_type_index: 0, created_at: "2025-02-01T00:00:00.000Z" },
        { group_type: "company", group_type_index: 1, created_at: "2025-02-01T00:00:00.000Z" },
      ];
    });
    await h.clearRequests();
    const promoted = await h.cli(["promote", "staging", "--format", "json"], ENV);
    expect(promoted.code, promoted.stderr).toBe(0);
    const warnings = document(promoted.stdout).warnings;
    expect(warnings).toContainEqual({
      code: "group_type",
      message:
        'feature flag "company-beta" aggregates by group type index 0 (filters.aggregation_group_type_index), which is "company" in staging but "workspace" in production: the same index counts other groups there (group types are made per project)',
    });
    const requests = await h.requests();
    expect([...new Set(requests.map((r) => r.method))]).toEqual(["GET"]);
    expect(
      requests
        .filter((r) => r.path.endsWith("/groups_types/"))
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/api/projects/12345/groups_types/", "/api/projects/12346/groups_types/"]);
    const text = await h.cli(["promote", "staging"], ENV);
    expect(text.stdout).toContain('! feature flag "company-beta" aggregates by group type index 0');
    // Every plan of several environments says so too, in the section of the environment promoted to.
    const plan = await h.cli(["plan", "--format", "json"], ENV);
    const sections = JSON.parse(plan.stdout).environments;
    expect(sections.map((s: Json) => s.name)).toEqual(["staging", "production"]);
    expect(sections[0].warnings).toBeUndefined();
    expect(sections[1].warnings).toContain(warnings.find((w: Json) => w.code === "group_type").message);
    const markdown = await h.cli(["plan", "--format", "markdown"], ENV);
    expect(markdown.stdout).toContain("aggregates by group type index 0");
  });

  it("a flag with encrypted payloads keeps its ${NAME} reference; the live payload is never written or shown", async () => {
    const file = "posthog/shared/feature-flags.yaml";
    h.write(
      file,
      `${read(file)}
  - key: remote-prices
    name: Remote prices
    is_remote_configuration: true
    has_encrypted_payloads: true
    filters:
      groups: [{rollout_percentage: 100}]
      payloads:
        "true": \${REMOTE_PRICES}
`,
    );
    const env = { ...ENV, REMOTE_PRICES: '{"tier":"Qx8Lm2Vr5Tz"}' };
    const applied = await h.cli(["apply", "--all", "--auto-approve"], env);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const flag = await stagingFlag("remote-prices");
    // Edited in staging's UI: its description, and its encrypted payload (a new secret value).
    const LIVE_PAYLOAD = '{"tier":"Nw3Hd7Kp1Yc"}';
    const edit = await h.api("PATCH", `${STAGING}/feature_flags/${flag.id}/`, {
      name: "Remote prices, tiered",
      filters: { ...flag.filters, payloads: { true: LIVE_PAYLOAD } },
    });
    expect(edit.status, edit.text).toBe(200);
    const before = read(file);
    // LIVE_PAYLOAD is given to the run only so that the leak scan looks for it everywhere.
    for (const format of ["text", "markdown", "json"]) {
      const shown = await h.cli(["promote", "staging", "--format", format], { ...env, LIVE_PAYLOAD });
      expect(shown.code, shown.stderr).toBe(0);
    }
    const written = await h.cli(["promote", "staging", "--write"], { ...env, LIVE_PAYLOAD });
    expect(written.code, written.stderr).toBe(0);
    expect(read(file)).toBe(before.replace("    name: Remote prices\n", "    name: Remote prices, tiered\n"));
    expect(read(file)).toContain('        "true": ${REMOTE_PRICES}\n');
  });
});

describe("promote's outputs and refusals", () => {
  it("markdown is a pull request's body: a marker, the warnings, the diff in a fenced block, then production's plan", async () => {
    // Staging's "Beta testers", which the shared flag new-checkout targets, is a static list there.
    await makeStagingCohortStatic();
    const flag = await stagingFlag("search-v2");
    const edit = await h.api("PATCH", `${STAGING}/feature_flags/${flag.id}/`, {
      name: "Search rewrite, for everyone behind checkout v1",
    });
    expect(edit.status, edit.text).toBe(200);
    const result = await h.cli(["promote", "staging", "--format", "markdown", "--detailed-exitcode"], ENV);
    expect(result.code, result.stderr).toBe(2);
    const body = result.stdout;
    expect(body.split("\n")[0]).toBe("<!-- posthog-gitops promote: staging -> production -->");
    expect(body).toContain(
      "### posthog-gitops promote: staging (project 12346) → production (project 12345)",
    );
    expect(body).toContain(
      "```diff\n--- a/posthog/shared/feature-flags.yaml\n+++ b/posthog/shared/feature-flags.yaml\n",
    );
    expect(body).toContain(
      "-    name: Search rewrite, behind checkout v1 while it settles\n+    name: Search rewrite, for everyone behind checkout v1\n",
    );
    expect(body).toContain("### posthog-gitops plan for production (project 12345) from the edited files");
    expect(body.indexOf("```diff")).toBeLessThan(body.indexOf("plan for production"));
    const warning =
      'feature flag "new-checkout" targets cohort "Beta testers", which is static in staging: a static cohort\'s members are a list kept in each project, never copied from staging to production';
    expect(body).toContain(`> [!WARNING]\n> ${warning}\n`);
    // The plan of both environments says so too, in production's section.
    const plan = await h.cli(["plan", "--format", "json"], ENV);
    expect(JSON.parse(plan.stdout).environments.map((s: Json) => s.warnings)).toEqual([undefined, [warning]]);
    expect(result.stderr).toBe(
      "Not written: run again with --write to edit posthog/shared/feature-flags.yaml.\n",
    );
  });

  it("refuses, before any request, what it cannot promote: unknown environments, no destination, itself, --host", async () => {
    await h.clearRequests();
    const cases: Array<[string[], string]> = [
      [["promote", "qa"], "error: qa: no such environment; the files declare staging, production\n"],
      [
        ["promote", "production"],
        "error: no environment is promoted from production (promote_from: production): name the one to plan, promote production DST\n",
      ],
      [
        ["promote", "staging", "staging"],
        "error: promote staging staging: an environment is not promoted to itself\n",
      ],
      [
        ["promote", "staging", "--host", "https://eu.posthog.com"],
        "error: --host does not apply when the files declare environments (staging, production): each is its own host, project and key, changed in its entry in posthog/environments.yaml\n",
      ],
    ];
    for (const [args, stderr] of cases) {
      const out = await h.cli(args, ENV);
      expect(out.code, args.join(" ")).toBe(1);
      expect(out.stderr, args.join(" ")).toBe(stderr);
      expect(out.stdout).toBe("");
    }
    h.write("single/d.yaml", "project: 12345\ndashboards: []\n");
    const single = await h.cli(["promote", "staging", "production", "single"], ENV);
    expect(single.code).toBe(1);
    expect(single.stderr).toContain("the files declare no environments");
    expect(await h.requests()).toEqual([]);
  });

  it("without the scope to read group types, the check is skipped with a note; nothing else changes", async () => {
    const limited = "phx_stg_nogroups_Hq3Lz8Wm";
    await h.reseed((state) => {
      const scopes = [
        "dashboard:read",
        "insight:read",
        "feature_flag:read",
        "cohort:read",
        "action:read",
        "batch_export:read",
      ];
      state.api_keys.push({
        key: limited,
        user: 1,
        scopes: [
          ...scopes,
          "project:read",
          "organization:read",
          "organization_member:read",
          "integration:read",
          "sharing_configuration:read",
        ],
      });
    });
    const file = "posthog/shared/feature-flags.yaml";
    h.write(
      file,
      `${read(file)}\n  - key: by-company\n    filters:\n      aggregation_group_type_index: 0\n      groups: [{rollout_percentage: 5}]\n`,
    );
    const applied = await h.cli(["apply", "--all", "--auto-approve"], ENV);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const out = await h.cli(["promote", "staging", "--format", "json"], {
      ...ENV,
      POSTHOG_API_KEY_STAGING: limited,
    });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(
      /note: environment staging: the group types of project 12346 were not read \(API key missing required scope 'group:read'\), so they were not compared/,
    );
    expect(document(out.stdout).warnings).toEqual([]);
  });

  it("never writes through a symbolic link", async () => {
    const flag = await stagingFlag("search-v2");
    await h.api("PATCH", `${STAGING}/feature_flags/${flag.id}/`, { name: "Renamed in staging" });
    const { renameSync, symlinkSync } = await import("node:fs");
    // A link to a file inside the configuration (not a .yaml file itself, so read once, as the link).
    renameSync(join(h.dir, "posthog/shared/feature-flags.yaml"), join(h.dir, "posthog/flags.txt"));
    symlinkSync(join(h.dir, "posthog/flags.txt"), join(h.dir, "posthog/shared/feature-flags.yaml"));
    const before = read("posthog/flags.txt");
    const out = await h.cli(["promote", "staging", "--write"], ENV);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      "error: cannot write posthog/shared/feature-flags.yaml: it is a symbolic link, and posthog-gitops never writes through one; nothing was written\n",
    );
    expect(read("posthog/flags.txt")).toBe(before);
  });
});
