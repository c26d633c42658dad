import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/index.js";
import { SecretValue } from "../../src/config/secret.js";
import type { LoadConfigOptions as LoadOptions } from "../../src/index.js";
import { loadConfig } from "../../src/index.js";
import { dashboardsOf, exportsOf } from "../builders.js";
import { tree } from "./helpers.js";

const load = (cwd: string, paths: string[] = [], extra: Partial<LoadOptions> = {}) =>
  loadConfig(paths, { env: {}, cwd, mode: "validate", ...extra });
const messages = (r: { diagnostics: Parameters<typeof formatDiagnostic>[0][] }) =>
  r.diagnostics.map(formatDiagnostic);

const dashboards = `project: 12345
dashboards:
  - name: Weekly KPIs
    id: 42
    description: Owned by \${TEAM}, costs $\${budget}
    pinned: true
    tags: [Growth, kpi, growth, " KPI "]
    restriction_level: only_collaborators
    collaborators:
      - user_uuid: 0190F1D2-7B4E-7C3A-9D1F-000000000003
      - user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000002
        level: can_edit
    sharing: {enabled: true}
  - name: Old funnel
    deleted: true
variables: [TEAM]
`;

const exports = `project: 12345
batch_exports:
  - name: events-to-s3
    id: 0190F1D2-7B4E-7C3A-9D1F-00000000AAAA
    model: events
    interval: every 5 minutes
    paused: true
    backfill_on_unpause: true
    start_at: 2026-01-01T02:00:00+02:00
    end_at: null
    hogql_query: SELECT event FROM events
    filters: [{key: $browser, operator: exact, type: event, value: [Firefox]}]
    destination:
      type: Redshift
      config:
        host: \${DB_HOST}
        database: analytics
        user: \${RS_USER}
        password: \${RS_PASSWORD}
        copy_inputs:
          s3_bucket: staging
          authorization:
            aws_access_key_id: \${RS_KEY}
variables: [DB_HOST]
`;

describe("loadConfig", () => {
  it("reads the default folder posthog/ recursively, skipping dot-folders and other extensions", async () => {
    const root = tree({
      "posthog/b.yml": "project: 1\ndashboards: [{name: B}]\n",
      "posthog/sub/a.yaml": "project: 1\ndashboards: [{name: A}]\n",
      "posthog/.hidden/c.yaml": "project: 1\ndashboards: [{name: C}]\n",
      "posthog/notes.txt": "not yaml",
    });
    const result = await load(root);
    expect(result.diagnostics).toEqual([]);
    expect(result.files).toEqual(["posthog/b.yml", "posthog/sub/a.yaml"]);
    expect(dashboardsOf(result.projects[0]).map((d) => d.name)).toEqual(["B", "A"]);
  });

  it("normalises dashboards: levels, tags, collaborators, interpolation and sources", async () => {
    const root = tree({ "d.yaml": dashboards });
    const result = await load(root, ["d.yaml"], { env: { TEAM: "growth" } });
    expect(messages(result)).toEqual([]);
    const [weekly, old] = dashboardsOf(result.projects[0]);
    expect(weekly).toEqual({
      kind: "dashboard",
      name: "Weekly KPIs",
      id: 42,
      deleted: false,
      description: "Owned by growth, costs ${budget}",
      pinned: true,
      tags: ["growth", "kpi"],
      restriction_level: 37,
      collaborators: [
        {
          user_uuid: "0190f1d2-7b4e-7c3a-9d1f-000000000003",
          level: 37,
          source: { file: "d.yaml", line: 10, column: 9 },
        },
        {
          user_uuid: "0190f1d2-7b4e-7c3a-9d1f-000000000002",
          level: 37,
          source: { file: "d.yaml", line: 11, column: 9 },
        },
      ],
      sharing: { enabled: true },
      source: { file: "d.yaml", line: 3, column: 5 },
    });
    expect(old).toEqual({
      kind: "dashboard",
      name: "Old funnel",
      deleted: true,
      source: { file: "d.yaml", line: 14, column: 5 },
    });
  });

  it("names a collaborator by email or by user_uuid, exactly one, each person once", async () => {
    const root = tree({
      "c.yaml": [
        "project: 1",
        "dashboards:",
        "  - name: Team",
        "    restriction_level: only_collaborators",
        "    collaborators:",
        "      - email: Ana@Acme.com",
        "      - user_uuid: 0190F1D2-7B4E-7C3A-9D1F-000000000002",
        "      - level: can_edit",
        "      - email: ana@acme.com",
        "        user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000003",
        "      - email: ana@ACME.com",
        "",
      ].join("\n"),
      "bad.yaml":
        "project: 1\ndashboards:\n  - name: Bad\n    collaborators:\n      - email: not-an-address\n",
    });
    const result = await load(root, ["c.yaml"]);
    expect(messages(result)).toEqual([
      'c.yaml:8:9: error: collaborator 3 of dashboard "Team" names nobody: give exactly one of email: or user_uuid:',
      'c.yaml:9:9: error: collaborator 4 of dashboard "Team" has both email and user_uuid: give exactly one of email: or user_uuid:',
      'c.yaml:11:16: error: collaborator ana@ACME.com is listed twice in dashboard "Team" (first at c.yaml:6:9)',
    ]);
    expect(dashboardsOf(result.projects[0])[0]?.collaborators?.map((c) => c.email ?? c.user_uuid)).toEqual([
      "Ana@Acme.com",
      "0190f1d2-7b4e-7c3a-9d1f-000000000002",
    ]);
    expect(messages(await load(root, ["bad.yaml"]))).toEqual([
      'bad.yaml:5:16: error: collaborators[0].email of dashboard "Bad" must be an email address; got "not-an-address"',
    ]);
  });

  it("normalises batch exports and keeps secrets out of config", async () => {
    const root = tree({ "e.yaml": exports });
    const env = { DB_HOST: "db.example.com", RS_USER: "loader", RS_PASSWORD: "", RS_KEY: "AKIA" };
    const result = await load(root, ["e.yaml"], { env, mode: "plan" });
    expect(messages(result)).toEqual([
      "note: secret variable $RS_PASSWORD is not set in this environment (used by 1 secret field); apply will need it",
    ]);
    expect(result.missingSecretVariables).toEqual(["RS_PASSWORD"]);
    const exp = exportsOf(result.projects[0])[0]!;
    expect(exp.id).toBe("0190f1d2-7b4e-7c3a-9d1f-00000000aaaa");
    expect(exp.start_at).toBe("2026-01-01T00:00:00.000Z");
    expect(exp.end_at).toBeNull();
    expect(exp.filters).toEqual([{ key: "$browser", operator: "exact", type: "event", value: ["Firefox"] }]);
    expect(exp.destination!.config).toEqual({
      host: "db.example.com",
      database: "analytics",
      copy_inputs: { s3_bucket: "staging", authorization: {} },
    });
    const secrets = exp.destination!.secrets;
    expect(Object.keys(secrets).sort()).toEqual([
      "copy_inputs.authorization.aws_access_key_id",
      "password",
      "user",
    ]);
    expect(secrets.user).toBeInstanceOf(SecretValue);
    expect(secrets.user!.reveal()).toBe("loader");
    expect(secrets.password!.available).toBe(false);
    expect(JSON.stringify(exp)).not.toContain("loader");
    expect(JSON.stringify(exp)).toContain("(secret from $RS_USER)");
  });

  it("keeps a destination's integration (or its alias integration_id) apart from its config", async () => {
    const root = tree({
      "e.yaml": `project: 1
batch_exports:
  - name: to-databricks
    destination:
      type: Databricks
      integration_id: 7
      config: {http_path: /sql/1.0/w, catalog: main, schema: ph, table_name: events}
  - name: to-s3
    destination: {type: S3, config: {bucket_name: b, region: r, prefix: p}}
`,
    });
    const result = await load(root, ["e.yaml"]);
    expect(messages(result)).toEqual([]);
    const [databricks, s3] = exportsOf(result.projects[0]);
    expect(databricks!.destination!.integration).toBe(7);
    expect(databricks!.destination!.config).not.toHaveProperty("integration_id");
    expect(s3!.destination).not.toHaveProperty("integration");
  });

  it("makes a missing secret variable an error in apply mode", async () => {
    const root = tree({ "e.yaml": exports });
    const result = await load(root, ["e.yaml"], { env: { DB_HOST: "h" }, mode: "apply" });
    expect(result.diagnostics.map((d) => d.severity)).toEqual(["error", "error", "error"]);
    expect(result.missingSecretVariables).toEqual(["RS_KEY", "RS_PASSWORD", "RS_USER"]);
  });

  it("groups files by project, uses defaultProject for files without one, and records managed kinds", async () => {
    const root = tree({
      "a.yaml": "project: 2\nbatch_exports: []\nignore: {batch_exports: ['tmp-*']}\n",
      "b.yaml": "dashboards:\n",
      "c.yaml": "project: 1\ndashboards: [{name: X}]\nignore: {dashboards: ['Generated *']}\n",
    });
    const result = await load(root, ["."], { defaultProject: 1 });
    expect(result.diagnostics).toEqual([]);
    expect(result.projects.map((p) => [p.project, p.files, p.manages, p.ignore])).toEqual([
      [
        1,
        ["b.yaml", "c.yaml"],
        ["dashboard"],
        {
          dashboard: ["Generated *"],
          insight: [],
          feature_flag: [],
          cohort: [],
          action: [],
          batch_export: [],
        },
      ],
      [
        2,
        ["a.yaml"],
        ["batch_export"],
        { dashboard: [], insight: [], feature_flag: [], cohort: [], action: [], batch_export: ["tmp-*"] },
      ],
    ]);
  });

  it("allows the same name in two projects but not twice in one project across files", async () => {
    const root = tree({
      "prod/a.yaml": "project: 1\ndashboards: [{name: KPIs}]\n",
      "prod/b.yaml": "project: 1\ndashboards:\n  - name: KPIs\n",
      "staging/a.yaml": "project: 2\ndashboards: [{name: KPIs}]\n",
    });
    const result = await load(root, ["prod", "staging"]);
    expect(messages(result)).toEqual([
      'prod/b.yaml:3:5: error: duplicate dashboard name "KPIs" in project 1: also declared at prod/a.yaml:2:14',
    ]);
  });

  it("requires a project for plan and apply; validate warns", async () => {
    const root = tree({ "a.yaml": "dashboards: []\n" });
    expect(messages(await load(root, ["a.yaml"]))).toEqual([
      "a.yaml:1:1: warning: no project: add `project: <id>` to the file or pass --project / set POSTHOG_PROJECT_ID (plan needs one)",
    ]);
    expect(messages(await load(root, ["a.yaml"], { mode: "plan" }))).toEqual([
      "a.yaml:1:1: error: no project: add `project: <id>` to the file or pass --project / set POSTHOG_PROJECT_ID",
    ]);
  });

  it("reports a missing path and a folder without YAML, without a position", async () => {
    const root = tree({ "empty/readme.md": "# nothing" });
    const result = await load(root, ["nope", "empty"]);
    expect(messages(result)).toEqual([
      "empty: error: folder contains no .yaml or .yml files",
      'nope: error: no such file or folder "nope"',
    ]);
  });

  it("collects problems from every file at once, sorted by file and position", async () => {
    const root = tree({
      "b.yaml": "project: 1\ndashboards: [{name: B, pinned: 3}]\n",
      "a.yaml": "project: x\n",
    });
    expect(messages(await load(root))).toEqual([
      'posthog: error: no such file or folder "posthog" (the default): give the files or folders to read, or write posthog/ from a live project with `posthog-gitops pull --project ID`',
    ]);
    const all = await load(root, ["."]);
    expect(messages(all)).toEqual([
      'a.yaml:1:10: error: project must be an integer; got "x"',
      'b.yaml:2:32: error: pinned of dashboard "B" must be true or false; got 3',
    ]);
  });

  it("is deterministic", async () => {
    const root = tree({ "d.yaml": dashboards, "e.yaml": exports });
    const a = await load(root, ["."]);
    const b = await load(root, ["e.yaml", "d.yaml"]);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
