/**
 * Environments (SPEC §9), end to end: the real CLI against the emulator, with two projects (staging
 * 12346, production 12345) and a key for each, one set of files (a declaration, shared files, an
 * overlay per environment). Both plan in parallel, each applies with its own key and plans empty; an
 * overlay change plans in its environment only, a shared change in both (also change-scoped, with
 * `--base`); `render --env` plans exactly like `plan --env`; a missing key fails its environment while
 * the other plans; `protect` refuses a destructive plan without --allow-destructive, whatever else is
 * given; a key that cannot read the environment's project is refused before anything is sent; an id in
 * a shared file is a validate error at its line; a whole-value `${ROLLOUT}` is sent as a number.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeEach, describe, expect, it } from "vitest";
import { type Json, ROOT, recordingProxy, useEmulator } from "../support/emulator.js";
import { GIT_ENV, gitRepo } from "../support/git-repo.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });

/** Made of no ordinary word, so the leak scan can look for any piece of them. */
const STAGING_KEY = "phx_stg_Jq4Wn8Lc2Vx6Rb";
const PRODUCTION_KEY = "phx_prd_Tz5Mh1Ky7Pq3Gd";
const GLOBEX_KEY = "phx_glx_Fs9Rd2Nw6Bx4Hm";
const KEYS = { POSTHOG_API_KEY: undefined, K_STAGING: STAGING_KEY, K_PRODUCTION: PRODUCTION_KEY };

beforeEach(async () => {
  await h.reseed((state) => {
    state.api_keys.push(
      { key: STAGING_KEY, user: 1, scopes: ["*"] },
      { key: PRODUCTION_KEY, user: 1, scopes: ["*"] },
      // dave's: of Globex, another organization, which reads neither of Acme's projects.
      { key: GLOBEX_KEY, user: 4, scopes: ["*"] },
    );
  });
});

const ENVIRONMENTS = `environments:
  staging:
    project: 12346
    api_key_env: K_STAGING
    variables: {ROLLOUT: 100, SUFFIX: staging}
  production:
    project: 12345
    api_key_env: K_PRODUCTION
    promote_from: staging
    protect: true
    variables: {ROLLOUT: 20, SUFFIX: production}
`;

const SHARED = `environments: all
feature_flags:
  - key: env-checkout
    name: Checkout (\${SUFFIX})
    filters:
      groups:
        - rollout_percentage: \${ROLLOUT}
dashboards:
  - name: Env KPIs
    description: The numbers
    tags: [kpi]
  - name: Scratchpad
`;

const PRODUCTION = `overlay: production
dashboards:
  - name: Scratchpad
    exclude: true
  - name: Env KPIs
    pinned: true
`;

function writeFiles(files: Record<string, string> = {}): void {
  const all = {
    "posthog/environments.yaml": ENVIRONMENTS,
    "posthog/shared/main.yaml": SHARED,
    "posthog/overlays/production.yaml": PRODUCTION,
    ...files,
  };
  for (const [path, text] of Object.entries(all)) h.write(path, text);
}

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  h.cli(args, { ...KEYS, ...env });

/** The JSON plan of each environment, by name. */
async function plans(args: string[] = []): Promise<Record<string, Json>> {
  const r = await cli(["plan", "--format", "json", ...args, "posthog"]);
  const doc = JSON.parse(r.stdout) as { environments: Array<{ name: string; plan?: Json; error?: string }> };
  return Object.fromEntries(doc.environments.map((e) => [e.name, e.plan ?? { error: e.error }]));
}

const live = (state: Json, list: string, team: number, name: string, key = "name") =>
  state[list].find((o: Json) => o[key] === name && o.team_id === team && !o.deleted);

describe("environments against the emulator", () => {
  it("plans both in parallel, applies each with its own key, then plans nothing in both", async () => {
    writeFiles();
    const plan = await cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain("══ Environment staging · project 12346");
    expect(plan.stdout).toContain("══ Environment production · project 12345");
    // The overlay's value and the variables cite where they came from.
    expect(plan.stdout).toMatch(/pinned: true · from posthog\/overlays\/production\.yaml:6/);
    expect(plan.stdout).toMatch(/rollout 20%|20% of everyone/);
    expect(plan.stdout).toMatch(/· from \$\{ROLLOUT\} \(posthog\/environments\.yaml:11\)/);
    await h.clearRequests();
    const staging = await cli(["apply", "--env", "staging", "--auto-approve", "posthog"]);
    expect(staging.code, staging.stderr).toBe(0);
    const production = await cli(["apply", "--env", "production", "--auto-approve", "posthog"]);
    expect(production.code, production.stderr).toBe(0);
    // Each key was used for its own project only.
    const state = await h.state();
    const ids = (team: number) => live(state, "dashboards", team, "Env KPIs").id;
    expect(ids(12345)).not.toBe(ids(12346));
    expect(live(state, "dashboards", 12346, "Scratchpad")).toBeDefined();
    expect(live(state, "dashboards", 12345, "Scratchpad")).toBeUndefined();
    expect(live(state, "dashboards", 12345, "Env KPIs").pinned).toBe(true);
    expect(live(state, "dashboards", 12346, "Env KPIs").pinned).toBe(false);
    const again = await cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(again.stdout).toContain("2 environments: staging no changes; production no changes.");
    expect(again.code).toBe(0);
  });

  it("sends a whole-value ${ROLLOUT} as a number, and each environment's own", async () => {
    writeFiles();
    const proxy = await recordingProxy(() => h.url);
    try {
      const r = await cli(["apply", "--all", "--auto-approve", "posthog"], { POSTHOG_HOST: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      const creates = proxy.recorded.filter((q) => q.method === "POST" && /feature_flags\/?$/.test(q.path));
      const rollouts = creates.map((q) => ({
        project: q.path.split("/")[3],
        rollout: JSON.parse(q.body).filters.groups[0].rollout_percentage,
        name: JSON.parse(q.body).name,
      }));
      expect(rollouts).toEqual([
        { project: "12346", rollout: 100, name: "Checkout (staging)" },
        { project: "12345", rollout: 20, name: "Checkout (production)" },
      ]);
      // The text of the request: a JSON number, never the string "20".
      expect(creates[1]?.body).toMatch(/"rollout_percentage":20[,}]/);
    } finally {
      await proxy.close();
    }
  });

  it("an overlay change plans its environment only; a shared change plans both", async () => {
    writeFiles();
    expect((await cli(["apply", "--all", "--auto-approve", "posthog"])).code).toBe(0);
    writeFiles({ "posthog/overlays/production.yaml": PRODUCTION.replace("pinned: true", "pinned: false") });
    let planned = await plans();
    expect(planned.staging.actions).toEqual([]);
    expect(planned.production.actions.map((a: Json) => [a.action, a.object.name])).toEqual([
      ["update", "Env KPIs"],
    ]);
    expect(planned.production.actions[0].origins.pinned[0]).toMatchObject({
      file: "posthog/overlays/production.yaml",
      line: 6,
      how: "overlay",
    });
    writeFiles({ "posthog/shared/main.yaml": SHARED.replace("The numbers", "The new numbers") });
    planned = await plans();
    for (const name of ["staging", "production"]) {
      expect(planned[name].actions.map((a: Json) => [a.action, a.object.name, a.changes[0].path])).toEqual([
        ["update", "Env KPIs", "description"],
      ]);
    }
  });

  it("--base --changed-only: an overlay change reads in its environment only, a shared change in both", async () => {
    const repo = gitRepo(h.dir);
    writeFiles();
    repo.commit("environments");
    expect((await cli(["apply", "--all", "--auto-approve", "posthog"], GIT_ENV)).code).toBe(0);
    h.write("posthog/overlays/production.yaml", `${PRODUCTION}    description: Production's numbers\n`);
    const r = await cli(["plan", "--format", "json", "--base", "main", "--changed-only", "posthog"], GIT_ENV);
    expect(r.code, r.stderr).toBe(0);
    const envs = JSON.parse(r.stdout).environments as Json[];
    const scope = (name: string) => envs.find((e) => e.name === name).plan.scope;
    expect(scope("staging")).toMatchObject({ read: "changes", planned: 0 });
    expect(scope("production")).toMatchObject({ read: "changes", planned: 1 });
    repo.commit("overlay");
    h.write("posthog/shared/main.yaml", SHARED.replace("tags: [kpi]", "tags: [kpi, growth]"));
    const both = await cli(
      ["plan", "--format", "json", "--base", "main", "--changed-only", "posthog"],
      GIT_ENV,
    );
    const changed = JSON.parse(both.stdout).environments as Json[];
    for (const e of changed) {
      expect(e.plan.scope, e.name).toMatchObject({ read: "changes", planned: 1 });
      expect(e.plan.actions.map((a: Json) => a.object.name)).toEqual(["Env KPIs"]);
    }
    // A changed entry reads its environment whole, saying why.
    repo.commit("shared");
    h.write("posthog/environments.yaml", ENVIRONMENTS.replace("ROLLOUT: 20", "ROLLOUT: 25"));
    const entry = await cli(
      ["plan", "--format", "json", "--base", "main", "--changed-only", "posthog"],
      GIT_ENV,
    );
    const full = JSON.parse(entry.stdout).environments as Json[];
    expect(full.find((e) => e.name === "production").plan.scope).toMatchObject({
      read: "full",
      reason: "the entry of environment production changed since main",
    });
    expect(full.find((e) => e.name === "staging").plan.scope).toMatchObject({ read: "changes", planned: 0 });
  });

  it("render --env production plans exactly like plan --env production", async () => {
    writeFiles();
    const rendered = await cli(["render", "--env", "production", "posthog"]);
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stdout).toContain("project: 12345\n");
    expect(rendered.stdout).toMatch(/pinned: true # from posthog\/overlays\/production\.yaml:6/);
    expect(rendered.stdout).toContain(
      'Left out here by posthog/overlays/production.yaml:4: dashboard "Scratchpad"',
    );
    h.write("rendered/production.yaml", rendered.stdout);
    const single = await h.cli(["plan", "--format", "json", "rendered"], { POSTHOG_API_KEY: PRODUCTION_KEY });
    expect(single.code, single.stderr).toBe(0);
    const fromRender = JSON.parse(single.stdout);
    const fromEnv = (await plans(["--env", "production"])).production;
    const comparable = (plan: Json) =>
      plan.actions.map((a: Json) => {
        const { origins: _origins, object, ...rest } = a;
        const { source: _source, ...identity } = object;
        return { ...rest, object: identity };
      });
    expect(comparable(fromRender)).toEqual(comparable(fromEnv));
    expect(fromRender.actions.length).toBeGreaterThan(0);
  });

  it("a missing key fails its environment while the other plans; the exit code is the worst", async () => {
    writeFiles();
    const r = await cli(["plan", "posthog"], { K_PRODUCTION: undefined });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "error: environment production: K_PRODUCTION is not set: it holds the key of environment production",
    );
    expect(r.stdout).toContain("✗ not planned: K_PRODUCTION is not set");
    expect(r.stdout).toMatch(/Project 12346 · feature flags/);
    expect(r.stdout).toContain("2 environments: staging 3 to create; production not planned.");
    // Never another key: POSTHOG_API_KEY set does not stand in for production's.
    const other = await cli(["plan", "--env", "production", "posthog"], {
      K_PRODUCTION: undefined,
      POSTHOG_API_KEY: STAGING_KEY,
    });
    expect(other.code).toBe(1);
    const markdown = await cli(["plan", "--format", "markdown", "posthog"], { K_PRODUCTION: undefined });
    expect(markdown.stdout.split("\n")[0]).toBe(
      "<!-- posthog-gitops plan: environments staging,production -->",
    );
    expect(markdown.stdout).toContain("| production | 12345 | **not planned** ⚠️ | - |");
    expect(markdown.stdout).toContain("### posthog-gitops plan for staging (project 12346)");
  });

  it("a variable an environment lacks is an error for it, at the reference, while the other plans", async () => {
    writeFiles({ "posthog/environments.yaml": ENVIRONMENTS.replace("ROLLOUT: 20, ", "") });
    const r = await cli(["plan", "posthog"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'posthog/shared/main.yaml:7:31: error: ${ROLLOUT} in filters.groups.0.rollout_percentage of feature flag "env-checkout": environment production has no variable ROLLOUT',
    );
    expect(r.stdout).toContain("staging 3 to create; production not planned.");
  });

  it("protect refuses a destructive plan without --allow-destructive, even with --auto-approve and --force", async () => {
    writeFiles();
    expect((await cli(["apply", "--all", "--auto-approve", "posthog"])).code).toBe(0);
    writeFiles({
      "posthog/overlays/production.yaml": `${PRODUCTION}  - name: Env KPIs\n    deleted: true\n`.replace(
        "  - name: Env KPIs\n    pinned: true\n",
        "",
      ),
    });
    const shown = await cli(["plan", "--env", "production", "posthog"]);
    expect(shown.stdout).toContain("! apply will refuse: environment production is protected");
    await h.clearRequests();
    const refused = await cli(["apply", "--env", "production", "--auto-approve", "--force", "posthog"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "environment production is protected: the plan has 1 destructive action, which needs --allow-destructive",
    );
    expect((await h.requests()).filter((q) => q.method !== "GET")).toEqual([]);
    const allowed = await cli([
      "apply",
      "--env",
      "production",
      "--auto-approve",
      "--allow-destructive",
      "posthog",
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(live(await h.state(), "dashboards", 12345, "Env KPIs")).toBeUndefined();
  });

  it("apply --all goes in promote_from order and stops at the first environment that fails", async () => {
    writeFiles();
    const r = await cli(["apply", "--all", "--auto-approve", "posthog"], { K_STAGING: undefined });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Stopped after environment staging: production was not applied.");
    expect(live(await h.state(), "dashboards", 12345, "Env KPIs")).toBeUndefined();
    const several = await cli(["apply", "--auto-approve", "posthog"]);
    expect(several.stderr).toContain("apply needs --env NAME (repeatable) or --all");
    expect(several.code).toBe(1);
  });

  it("a key that cannot read the environment's project is refused before anything is sent", async () => {
    writeFiles();
    await h.clearRequests();
    const r = await cli(["apply", "--env", "production", "--auto-approve", "posthog"], {
      K_PRODUCTION: GLOBEX_KEY,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /environment production: the key in \$K_PRODUCTION cannot read project 12345 on http:\/\/127\.0\.0\.1:\d+ \([^)]+\); nothing was sent/,
    );
    const sent = await h.requests();
    expect(sent.map((q) => `${q.method} ${q.path}`)).toEqual(["GET /api/projects/12345/"]);
  });

  it("a saved plan is bound to its environment", async () => {
    writeFiles();
    const saved = await cli(["plan", "--env", "production", "--out", "prod.json", "posthog"]);
    expect(saved.code, saved.stderr).toBe(0);
    const other = await cli(["apply", "--plan", "prod.json", "--env", "staging", "--auto-approve"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("the saved plan is for production, not staging");
    const applied = await cli(["apply", "--plan", "prod.json", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    const state = await h.state();
    expect(live(state, "dashboards", 12345, "Env KPIs")).toBeDefined();
    expect(live(state, "dashboards", 12346, "Env KPIs")).toBeUndefined();
    // Both environments saved together apply in promote_from order.
    const both = await cli(["plan", "--out", "both.json", "posthog"]);
    expect(both.code, both.stderr).toBe(0);
    const all = await cli(["apply", "--plan", "both.json", "--auto-approve"]);
    expect(all.code, all.stderr).toBe(0);
    expect(live(await h.state(), "dashboards", 12346, "Env KPIs")).toBeDefined();
  });

  it("an id in a shared file is a validate error at its line; in an overlay it is a pin", async () => {
    writeFiles({
      "posthog/shared/main.yaml": SHARED.replace(
        "  - name: Scratchpad\n",
        "  - name: Scratchpad\n    id: 5\n",
      ),
    });
    const r = await cli(["validate", "posthog"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      "posthog/shared/main.yaml:13:9: error: id: an id is right for one project only, and this file serves staging, production: pin it in that environment's overlay (or refer by name)\n",
    );
    writeFiles({
      "posthog/overlays/staging.yaml": "overlay: staging\ndashboards:\n  - name: Scratchpad\n    id: 5\n",
    });
    const pinned = await cli(["plan", "--env", "staging", "--format", "json", "posthog"]);
    const plan = JSON.parse(pinned.stdout).environments[0].plan;
    expect(plan.actions.find((a: Json) => a.object.name === "Scratchpad")).toMatchObject({
      action: "update",
      object: { id: 5 },
    });
  });

  it("limits refuse a plan with more changes than allowed unless --force", async () => {
    writeFiles({
      "posthog/environments.yaml": ENVIRONMENTS.replace("protect: true", "limits: {changes: 1}"),
    });
    const refused = await cli(["apply", "--env", "production", "--auto-approve", "posthog"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "environment production allows at most 1 change per apply (limits.changes), and the plan has 2: split the change, or pass --force",
    );
    const forced = await cli(["apply", "--env", "production", "--auto-approve", "--force", "posthog"]);
    expect(forced.code, forced.stderr).toBe(0);
  });

  it("an integration by {kind, name} is each project's own; a name the project lacks is a plan error at its line", async () => {
    const exports = (name: string) => `environments: all
batch_exports:
  - name: env-s3
    model: events
    interval: day
    destination:
      type: AwsS3
      integration: {kind: aws-s3, name: "${name}"}
      config: {bucket_name: acme, region: us-east-1, prefix: p/}
`;
    writeFiles({
      "posthog/environments.yaml": ENVIRONMENTS.replace(
        "SUFFIX: staging}",
        'SUFFIX: staging, S3: "staging (access key)"}',
      ).replace("SUFFIX: production}", 'SUFFIX: production, S3: "no such integration"}'),
      "posthog/shared/exports.yaml": exports("${S3}"),
    });
    const r = await cli(["plan", "--format", "json", "posthog"]);
    expect(r.code).toBe(1);
    const envs = JSON.parse(r.stdout).environments as Json[];
    const staging = envs.find((e) => e.name === "staging").plan;
    const create = staging.actions.find((a: Json) => a.object.name === "env-s3");
    expect(create.after.destination.integration_id ?? create.after.destination.integration).toBe(10);
    expect(r.stderr).toMatch(
      /posthog\/shared\/exports\.yaml:8:20: error: batch export "env-s3": no aws-s3 integration named "no such integration" in project 12345; its aws-s3 integration: 1 "acme-prod \(AWS role '[^']+'\)" \(environment production\)/,
    );
  });

  it("pull --env adopts an environment: pins of shared declarations, its own objects whole, then nothing to plan", async () => {
    writeFiles();
    expect((await cli(["apply", "--env", "staging", "--auto-approve", "posthog"])).code).toBe(0);
    // Staging's objects made by hand in production, as a team would have: same names, other ids.
    const created = await h.api("POST", "/api/projects/12345/dashboards/", {
      name: "Env KPIs",
      description: "The numbers",
      tags: ["kpi"],
      pinned: true,
    });
    expect(created.status).toBe(201);
    h.write(
      "posthog/overlays/production.yaml",
      "overlay: production\ndashboards:\n  - name: Scratchpad\n    exclude: true\n",
    );
    const pulled = await cli([
      "pull",
      "--env",
      "production",
      "--kind",
      "dashboards",
      "--out",
      "posthog/adopted",
    ]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toMatch(
      /^wrote posthog\/adopted\/production\.yaml: 1 pins of shared declarations, \d+ objects only production has\n/,
    );
    const text = readFileSync(join(h.dir, "posthog/adopted/production.yaml"), "utf8");
    expect(text).toContain(`overlay: production\ndashboards:\n`);
    expect(text).toContain(`  - name: Env KPIs\n    id: ${created.body.id}\n`);
    expect(text).toMatch(/- name: Product KPIs\n {4}id: 1\n {4}description: Weekly product health\n/);
    const again = await cli(["pull", "--env", "production", "--out", "posthog/adopted"]);
    expect(again.stderr).toContain("posthog/adopted/production.yaml already exists; pull never overwrites");
    const plan = await cli(["plan", "--env", "production", "--format", "json", "posthog"]);
    expect(plan.code, plan.stderr).toBe(0);
    const actions = JSON.parse(plan.stdout).environments[0].plan.actions as Json[];
    // The adopted dashboard is matched by its pin; only the flag, which production lacks, is created.
    expect(actions.map((a) => [a.action, a.object.kind, a.object.name])).toEqual([
      ["create", "feature_flag", "env-checkout"],
    ]);
  });
});

/** `plan --format json`'s envelope, checked against schemas/plan-environments.schema.json. */
function envelope(stdout: string, schema = "plan-environments"): Json {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, `schemas/${schema}.schema.json`), "utf8")));
  const value = JSON.parse(stdout);
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  return value;
}

describe("single-project files beside the environments (a project that is no environment's)", () => {
  /** Globex's project, read with the default key: no environment's. */
  const BOARD = "project: 22222\ndashboards:\n  - name: Globex board\n    description: Globex's own\n";
  const DEFAULT = { POSTHOG_API_KEY: GLOBEX_KEY };
  const standalone = (files: Record<string, string> = {}) =>
    writeFiles({ "posthog/globex/board.yaml": BOARD, ...files });
  const board = async () => live(await h.state(), "dashboards", 22222, "Globex board");

  it("is planned as a section of its own, in text, markdown and the JSON envelope", async () => {
    standalone();
    const text = await cli(["plan", "posthog"], DEFAULT);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/══ Single-project files · project 22222 · http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text.stdout).toContain(
      "2 environments and project 22222: staging 3 to create; production 2 to create; project 22222 1 to create.",
    );
    const markdown = await cli(["plan", "--format", "markdown", "posthog"], DEFAULT);
    expect(markdown.stdout.split("\n")[0]).toBe(
      "<!-- posthog-gitops plan: environments staging,production; single-project files 22222 -->",
    );
    expect(markdown.stdout).toContain("| single-project files | 22222 | 1 to create | 1 |");
    expect(markdown.stdout).toContain("### posthog-gitops plan for single-project files (project 22222)");
    const json = envelope((await cli(["plan", "--format", "json", "posthog"], DEFAULT)).stdout);
    expect(json.format_version).toBe("2");
    expect(json.environments.map((e: Json) => [e.name, e.project, e.single_project])).toEqual([
      ["staging", 12346, undefined],
      ["production", 12345, undefined],
      ["project 22222", 22222, true],
    ]);
    const own = json.environments[2].plan;
    expect(own.format_version).toBe("2");
    expect(own.projects).toEqual([22222]);
    expect(own.actions.map((a: Json) => [a.action, a.object.name, a.object.source.file])).toEqual([
      ["create", "Globex board", "posthog/globex/board.yaml"],
    ]);
    // --project N plans it alone; --env the environments alone.
    const alone = envelope(
      (await cli(["plan", "--format", "json", "--project", "22222", "posthog"], DEFAULT)).stdout,
    );
    expect(alone.environments.map((e: Json) => e.name)).toEqual(["project 22222"]);
    const envs = envelope(
      (await cli(["plan", "--format", "json", "--env", "staging", "posthog"], DEFAULT)).stdout,
    );
    expect(envs.environments.map((e: Json) => e.name)).toEqual(["staging"]);
  });

  it("apply --env leaves it alone; apply --all applies it after the environments; --project N alone", async () => {
    standalone();
    const staging = await cli(["apply", "--env", "staging", "--auto-approve", "posthog"], DEFAULT);
    expect(staging.code, staging.stderr).toBe(0);
    expect(await board()).toBeUndefined();
    await h.clearRequests();
    const all = await cli(["apply", "--all", "--auto-approve", "--format", "json", "posthog"], DEFAULT);
    expect(all.code, all.stderr).toBe(0);
    const result = envelope(all.stdout, "apply-environments");
    expect(result.environments.map((e: Json) => [e.name, e.single_project, e.result.ok])).toEqual([
      ["staging", undefined, true],
      ["production", undefined, true],
      ["project 22222", true, true],
    ]);
    expect(all.stderr.indexOf("Environment production")).toBeLessThan(
      all.stderr.indexOf("Single-project files · project 22222"),
    );
    expect(await board()).toMatchObject({ description: "Globex's own" });
    // Its own connection: the default key, never an environment's, and no environment's project read.
    const writes = (await h.requests()).filter((q) => q.method === "POST" && q.path.includes("/22222/"));
    expect(writes.map((q) => q.path)).toEqual(["/api/projects/22222/dashboards/"]);
    expect((await cli(["plan", "--detailed-exitcode", "posthog"], DEFAULT)).code).toBe(0);
    // Applied alone: only its project is read or written.
    standalone({ "posthog/globex/board.yaml": BOARD.replace("Globex's own", "Globex's, edited") });
    await h.clearRequests();
    const alone = await cli(["apply", "--project", "22222", "--auto-approve", "posthog"], DEFAULT);
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toContain("Single-project files · project 22222");
    expect(alone.stdout).not.toContain("Environment staging");
    const paths = (await h.requests()).map((q) => q.path).filter((p) => p.startsWith("/api/projects/"));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !p.startsWith("/api/projects/22222/"))).toEqual([]);
    expect(await board()).toMatchObject({ description: "Globex's, edited" });
  });

  it("--project names no environment's project; apply without a choice says what to choose", async () => {
    standalone();
    const env = await cli(["plan", "--project", "12345", "posthog"], DEFAULT);
    expect(env.code).toBe(1);
    expect(env.stderr).toContain(
      "--project 12345 is environment production's project: choose it with --env production",
    );
    const none = await cli(["plan", "--project", "99", "posthog"], DEFAULT);
    expect(none.stderr).toContain(
      "--project 99: no file names it; the files declare environments staging, production and single-project files of project 22222",
    );
    const host = await cli(["plan", "--host", "http://127.0.0.1:1", "posthog"], DEFAULT);
    expect(host.stderr).toContain("--host does not apply to environments (staging, production)");
    const apply = await cli(["apply", "--auto-approve", "posthog"], DEFAULT);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      "the files declare environments staging, production and single-project files of project 22222: apply needs --env NAME (repeatable), --project N or --all",
    );
  });

  it("its errors are its own: a broken file or a missing key fails its section while the environments plan", async () => {
    standalone({ "posthog/globex/board.yaml": `${BOARD}    pinned: maybe\n` });
    const broken = await cli(["plan", "posthog"], DEFAULT);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/posthog\/globex\/board\.yaml:5:\d+: error: /);
    expect(broken.stderr).toContain(
      "error: project 22222: the single-project files of project 22222 have 1 error; they were not planned",
    );
    expect(broken.stdout).toContain(
      "2 environments and project 22222: staging 3 to create; production 2 to create; project 22222 not planned.",
    );
    standalone();
    const keyless = await cli(["plan", "--format", "json", "posthog"]);
    expect(keyless.code).toBe(1);
    const sections = envelope(keyless.stdout).environments as Json[];
    expect(sections.map((s) => [s.name, s.error === undefined])).toEqual([
      ["staging", true],
      ["production", true],
      ["project 22222", false],
    ]);
    expect(sections[2].error).toContain("POSTHOG_API_KEY is not set");
  });

  it("a file for an environment's project stays an error naming both", async () => {
    standalone({ "posthog/mine.yaml": "project: 12345\ndashboards:\n  - name: Mine\n" });
    const r = await cli(["validate", "posthog"], DEFAULT);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "posthog/mine.yaml:1:10: error: this file is for project 12345, which is environment production's project: put production's own objects in its overlay (overlay: production)",
    );
    const plan = await cli(["plan", "posthog"], DEFAULT);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("nothing was sent");
  });

  it("saved with the environments, or alone, a plan applies it where it was made", async () => {
    standalone();
    const both = await cli(["plan", "--out", "all.json", "posthog"], DEFAULT);
    expect(both.code, both.stderr).toBe(0);
    const file = envelope(readFileSync(join(h.dir, "all.json"), "utf8"), "saved-plan");
    expect(file.environments.map((s: Json) => s.environment ?? s.plan.projects)).toEqual([
      "staging",
      "production",
      [22222],
    ]);
    const wrong = await cli(["apply", "--plan", "all.json", "--project", "12345", "--auto-approve"], DEFAULT);
    expect(wrong.stderr).toContain("--project 12345 is environment production's project");
    const applied = await cli(["apply", "--plan", "all.json", "--auto-approve"], DEFAULT);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await board()).toBeDefined();
    standalone({ "posthog/globex/board.yaml": BOARD.replace("Globex's own", "Saved alone") });
    const alone = await cli(["plan", "--project", "22222", "--out", "alone.json", "posthog"], DEFAULT);
    expect(alone.code, alone.stderr).toBe(0);
    const again = await cli(["apply", "--plan", "alone.json", "--auto-approve"], DEFAULT);
    expect(again.code, again.stderr).toBe(0);
    expect(await board()).toMatchObject({ description: "Saved alone" });
  });

  it("--base --changed-only: a change to its files is read in its section only", async () => {
    const repo = gitRepo(h.dir);
    standalone();
    repo.commit("with single-project files");
    expect(
      (await cli(["apply", "--all", "--auto-approve", "posthog"], { ...GIT_ENV, ...DEFAULT })).code,
    ).toBe(0);
    h.write("posthog/globex/board.yaml", BOARD.replace("Globex's own", "Changed"));
    const r = await cli(["plan", "--format", "json", "--base", "main", "--changed-only", "posthog"], {
      ...GIT_ENV,
      ...DEFAULT,
    });
    expect(r.code, r.stderr).toBe(0);
    const sections = envelope(r.stdout).environments as Json[];
    expect(sections.map((s) => [s.name, s.plan.scope.read, s.plan.scope.planned])).toEqual([
      ["staging", "changes", 0],
      ["production", "changes", 0],
      ["project 22222", "changes", 1],
    ]);
    expect(sections[2].plan.actions.map((a: Json) => [a.action, a.object.name])).toEqual([
      ["update", "Globex board"],
    ]);
  });
});
