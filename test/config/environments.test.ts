/**
 * One set of files for several projects (SPEC §9), offline: the declaration, the roles of files,
 * overlays merged by identity (maps key by key, keyed lists by identity, other lists replaced, `null`
 * unmanaged, `exclude`), typed variables, secrets per environment, no ids in shared files, and every
 * message at the file and line the value came from, overlay or shared.
 */
import { describe, expect, it } from "vitest";
import { promotionOrder } from "../../src/config/environments/declaration.js";
import { formatDiagnostic, type LoadResult, loadConfig } from "../../src/config/index.js";
import { substitute } from "../../src/config/interpolate.js";
import type { EnvironmentConfig } from "../../src/config/load-types.js";
import type { Declared } from "../../src/config/types.js";
import { KINDS } from "../../src/kinds/index.js";
import { audienceKind } from "../kinds/segment-kinds/audience.js";
import { segmentKind } from "../kinds/segment-kinds/segment.js";

const DECLARATION = `environments:
  staging:
    project: 12346
    variables: {ROLLOUT: 100, BUCKET: acme-staging, FLAG_ON: true}
  production:
    project: 12345
    promote_from: staging
    variables: {ROLLOUT: 20, BUCKET: acme-analytics, FLAG_ON: false}
    secrets: {PAYLOAD: PAYLOAD_PRODUCTION}
`;

async function load(files: Record<string, string>, env: Record<string, string> = {}): Promise<LoadResult> {
  const all = { "envs.yaml": DECLARATION, ...files };
  return loadConfig(
    { files: Object.entries(all).map(([path, text]) => ({ path, text })) },
    { env, cwd: "/", kinds: KINDS, mode: "plan" },
  );
}

const messages = (result: LoadResult) => result.diagnostics.map(formatDiagnostic);

function environment(result: LoadResult, name: string): EnvironmentConfig {
  const found = result.environments?.list.find((e) => e.name === name);
  if (found === undefined) throw new Error(`no environment ${name}`);
  return found;
}

function declared(result: LoadResult, name: string, kind: string): Declared[] {
  return environment(result, name).config.projects.flatMap((p) => p.objects[kind] ?? []);
}

const one = <T>(list: T[], i = 0): T => list[i] as T;

describe("the environments declaration", () => {
  it("names each environment's project, host, key variable, order and settings", async () => {
    const result = await load({
      "envs.yaml": `environments:
  staging: {project: 1, api_key_env: KEY_STAGING}
  production:
    project: 2
    host: https://eu.posthog.com/
    promote_from: staging
    protect: true
    limits: {changes: 10, deletes: 0}
`,
    });
    expect(messages(result)).toEqual([]);
    const entry = environment(result, "production").entry;
    expect(entry).toMatchObject({
      project: 2,
      host: "https://eu.posthog.com",
      promoteFrom: "staging",
      protect: true,
      limits: { changes: 10, deletes: 0 },
    });
    expect(environment(result, "staging").entry).toMatchObject({ apiKeyEnv: "KEY_STAGING", protect: false });
    expect(result.projects).toEqual([]);
  });

  it("refuses a promotion from nowhere, a loop, two environments of one project, credential-looking variables", async () => {
    const result = await load({
      "envs.yaml": `environments:
  a: {project: 1, promote_from: c}
  b: {project: 1, promote_from: stagin}
  c: {project: 3, promote_from: a, variables: {API_TOKEN: x}}
  d: {project: 4, secrets: {POSTHOG_API_KEY: X}}
`,
    });
    expect(messages(result)).toEqual([
      "envs.yaml:2:33: error: promote_from makes a loop through environment a: promotion needs a first environment",
      "envs.yaml:3:16: error: environments a and b are both project 1: an environment is one project",
      "envs.yaml:3:33: error: promote_from of environment b names stagin, which is not declared",
      "envs.yaml:4:33: error: promote_from makes a loop through environment c: promotion needs a first environment",
      "envs.yaml:4:48: error: variable API_TOKEN of environment c has a name that looks like a credential (or is this tool's own): such names never go into a non-secret value; rename it, or make it a secret (secrets:)",
      "envs.yaml:5:29: error: secrets of environment d: this tool's own variables (POSTHOG_*) never go into a field",
    ]);
  });

  it("orders apply --all by promote_from, else as declared", () => {
    const order = promotionOrder([
      { name: "eu", promoteFrom: "production" },
      { name: "production", promoteFrom: "staging" },
      { name: "staging" },
      { name: "sandbox" },
    ]);
    expect(order.map((e) => e.name)).toEqual(["staging", "production", "eu", "sandbox"]);
  });

  it("checks an entry's shape with the schema, at its line", async () => {
    const result = await load({
      "envs.yaml": "environments:\n  staging: {project: x, colour: red}\n",
    });
    expect(messages(result)).toEqual([
      'envs.yaml:2:22: error: environments.staging.project must be an integer; got "x"',
      'envs.yaml:2:25: error: unknown key "colour" in environments.staging',
    ]);
  });
});

describe("which file serves what", () => {
  it("refuses files that mix roles, name unknown environments, or hold their own variables", async () => {
    const result = await load({
      "a.yaml": "project: 1\nenvironments: all\n",
      "b.yaml": "overlay: produciton\n",
      "c.yaml": "environments: [staging, qa]\n",
      "d.yaml": "overlay: staging\nvariables: [X]\n",
      "e.yaml": "environments: {other: {project: 9}}\n",
    });
    expect(messages(result)).toEqual([
      "a.yaml:1:1: error: a file names project: (one project) or environments: (the environments it serves), never both",
      'b.yaml:1:10: error: overlay of produciton, which the declaration does not name (did you mean "production"?)',
      "c.yaml:1:25: error: environment qa is not declared",
      "d.yaml:2:1: error: a file serving environments reads each environment's own variables (environments.NAME.variables in the declaration): remove variables:",
      "e.yaml:1:1: error: the environments are declared once per set of files: also at envs.yaml:1:1",
    ]);
  });

  it("refuses a single-project file for an environment's project, naming both, or for no project", async () => {
    const result = await load({
      "shared.yaml": "environments: all\n",
      "prod.yaml": "project: 12345\ndashboards: [{name: A}]\n",
      "loose.yaml": "dashboards: [{name: B}]\n",
    });
    expect(messages(result)).toEqual([
      "loose.yaml:1:1: error: this file names no project, and the files beside it serve environments: make it a shared file (environments: all) or an overlay (overlay: NAME), or name the project it is for (project: N) if that project is no environment's",
      "prod.yaml:1:10: error: this file is for project 12345, which is environment production's project: put production's own objects in its overlay (overlay: production)",
    ]);
    // The files' own problems: they stop every section.
    expect(result.environments?.diagnostics.map(formatDiagnostic)).toEqual(messages(result));
    expect(result.environments?.standalone).toEqual([]);
  });

  it("loads the single-project files of a project that is no environment's as a section of their own", async () => {
    const result = await load(
      {
        "shared.yaml": "environments: all\ndashboards: [{name: Shared}]\n",
        "other/a.yaml":
          "project: 999\ndashboards: [{name: Own, description: '${WORDS}'}]\nvariables: [WORDS]\n",
        "other/b.yaml": "project: 999\ninsights: [{name: Broken, query: 5}]\n",
        "third.yaml": "project: 7\ndashboards: [{name: Third}]\n",
      },
      { WORDS: "its own words" },
    );
    const standalone = result.environments?.standalone ?? [];
    expect(standalone.map((s) => [s.name, s.project, s.config.files])).toEqual([
      ["project 7", 7, ["third.yaml"]],
      ["project 999", 999, ["other/a.yaml", "other/b.yaml"]],
    ]);
    const [third, other] = standalone;
    expect(third?.config.diagnostics).toEqual([]);
    expect(Object.keys(third?.config.digests ?? {})).toEqual(["third.yaml"]);
    expect(other?.config.projects[0]?.objects.dashboard?.[0]).toMatchObject({
      name: "Own",
      description: "its own words",
    });
    // Its errors are its own, like an environment's: not the files' (which would stop every section).
    const own = other?.config.diagnostics.map(formatDiagnostic) ?? [];
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/^other\/b\.yaml:2:\d+: error: /);
    expect(result.environments?.diagnostics).toEqual([]);
    expect(messages(result)).toEqual(own);
    expect(result.projects.map((p) => p.project)).toEqual([7, 999]);
    // The environments are not touched by them.
    expect(declared(result, "staging", "dashboard").map((d) => d.name)).toEqual(["Shared"]);
  });

  it("fills in no project from --project or POSTHOG_PROJECT_ID beside environments", async () => {
    const all = {
      "envs.yaml": DECLARATION,
      "shared.yaml": "environments: all\ndashboards: [{name: Shared}]\n",
      "other.yaml": "project: 999\ndashboards: [{name: Own}]\n",
    };
    const result = await loadConfig(
      { files: Object.entries(all).map(([path, text]) => ({ path, text })) },
      { env: {}, cwd: "/", kinds: KINDS, mode: "plan", defaultProject: 999, defaultProjectFrom: "--project" },
    );
    expect(result.diagnostics).toEqual([]);
    expect(environment(result, "production").config.projects.map((p) => p.project)).toEqual([12345]);
  });

  it("needs a declaration for shared files and overlays", async () => {
    const result = await loadConfig(
      { files: [{ path: "o.yaml", text: "overlay: staging\n" }] },
      { env: {}, cwd: "/", kinds: KINDS, mode: "plan" },
    );
    expect(messages(result)).toEqual([
      "o.yaml:1:10: error: no file declares the environments: add one with an environments: mapping",
    ]);
  });
});

describe("overlays merge by identity", () => {
  const SHARED = `environments: all
dashboards:
  - name: Weekly KPIs
    description: Shared words
    tags: [growth, kpi]
    pinned: true
    restriction_level: only_collaborators
    collaborators:
      - {email: bob@example.com, level: can_edit}
      - {user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000003, level: can_edit}
    sharing: {enabled: false}
  - name: Scratchpad
feature_flags:
  - key: checkout
    filters:
      groups: [{rollout_percentage: 50}]
      multivariate:
        variants:
          - {key: control, rollout_percentage: 50}
          - {key: test, rollout_percentage: 50}
`;

  it("maps key by key, other lists whole, keyed lists by identity, null unmanaged, exclude, new declarations", async () => {
    const result = await load({
      "shared.yaml": SHARED,
      "production.yaml": `overlay: production
dashboards:
  - name: Weekly KPIs
    tags: [board]
    pinned: null
    sharing: {enabled: true}
    collaborators:
      - {email: erin@example.com, level: can_edit}
      - user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000003
        exclude: true
  - name: Scratchpad
    exclude: true
  - name: Board review
feature_flags:
  - key: checkout
    filters:
      multivariate:
        variants:
          - {key: control, rollout_percentage: 30}
          - {key: test, rollout_percentage: 70}
`,
    });
    expect(messages(result)).toEqual([]);
    const production = environment(result, "production").document.data as Record<
      string,
      Array<Record<string, unknown>>
    >;
    expect(production.dashboards).toEqual([
      {
        name: "Weekly KPIs",
        description: "Shared words",
        tags: ["board"],
        restriction_level: "only_collaborators",
        collaborators: [
          { email: "bob@example.com", level: "can_edit" },
          { email: "erin@example.com", level: "can_edit" },
        ],
        sharing: { enabled: true },
      },
      { name: "Board review" },
    ]);
    expect(one(production.feature_flags ?? [])).toMatchObject({
      filters: {
        groups: [{ rollout_percentage: 50 }],
        multivariate: {
          variants: [
            { key: "control", rollout_percentage: 30 },
            { key: "test", rollout_percentage: 70 },
          ],
        },
      },
    });
    // Staging has no overlay: the shared declarations as they are.
    expect(declared(result, "staging", "dashboard").map((d) => d.name)).toEqual([
      "Weekly KPIs",
      "Scratchpad",
    ]);
    // What each overlay did, with where, for render and the plan.
    const marks = environment(result, "production").document.marks.map((m) => [
      m.pointer,
      m.how,
      m.source.line,
    ]);
    expect(marks).toEqual(
      expect.arrayContaining([
        ["/dashboards/0/tags", "replaced", 4],
        ["/dashboards/0/pinned", "unmanaged", 5],
        ["/dashboards/0/sharing/enabled", "set", 6],
        ["/dashboards/0/collaborators/1", "added", 8],
        ["/feature_flags/0/filters/multivariate/variants/1/rollout_percentage", "set", 20],
        ["/dashboards/0/collaborators", "excluded", 9],
        ["/dashboards", "excluded", 12],
        ["/dashboards/1", "added", 13],
        ["/feature_flags/0/filters/multivariate/variants/0/rollout_percentage", "set", 19],
      ]),
    );
  });

  it("keeps every origin: a merged value's error at the overlay's line, a shared one's at the shared line", async () => {
    const result = await load({
      "shared.yaml": SHARED.replace("description: Shared words", "description: [not, text]"),
      "production.yaml":
        "overlay: production\ndashboards:\n  - name: Weekly KPIs\n    sharing: {enabled: maybe}\n",
    });
    expect(messages(result)).toEqual(
      expect.arrayContaining([
        'production.yaml:4:24: error: sharing.enabled of dashboard "Weekly KPIs" must be true or false; got "maybe" (environment production)',
      ]),
    );
    // A shared value's problem is every environment's: said once, naming none.
    expect(messages(result).filter((m) => m.startsWith("shared.yaml:4:18"))).toEqual([
      'shared.yaml:4:18: error: description of dashboard "Weekly KPIs" must be a string; got a list',
    ]);
  });

  it("refuses an overlay entry that would change an identity, or names a declaration twice", async () => {
    const result = await load({
      "shared.yaml": SHARED,
      "production.yaml": `overlay: production
dashboards:
  - name: Weekly KPIs
    collaborators:
      - {email: bob@example.com, user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000003, level: can_edit}
  - name: Scratchpad
    exclude: true
    description: gone
feature_flags:
  - key: checkout
    active: true
`,
      "production-2.yaml":
        "overlay: production\nfeature_flags:\n  - key: checkout\n    active: false\n  - key: ghost\n    exclude: true\n",
    });
    // Problems of one environment's merge (here the only one with overlays) name it.
    expect(messages(result)).toEqual([
      'production-2.yaml:3:5: error: feature flag "checkout" is in the overlays of production twice: also at production.yaml:10:5 (environment production)',
      'production-2.yaml:6:14: error: feature flag "ghost" is excluded from production, but no shared file declares it there (environment production)',
      "production.yaml:5:9: error: an overlay's entry of collaborators of dashboard \"Weekly KPIs\" (email bob@example.com and user_uuid 0190f1d2-7b4e-7c3a-9d1f-000000000003) names two different entries of the shared files: an overlay cannot change an entry's identity (environment production)",
      'production.yaml:8:5: error: dashboard "Scratchpad" is excluded from production: an excluding entry says nothing else (remove description) (environment production)',
    ]);
  });
});

describe("variables and secrets per environment", () => {
  it("a whole ${NAME} takes the variable's type; text takes its text; each environment its own", async () => {
    const result = await load({
      "shared.yaml": `environments: all
feature_flags:
  - key: checkout
    name: Checkout in \${BUCKET}, literally $\${BUCKET}
    active: \${FLAG_ON}
    filters:
      groups:
        - rollout_percentage: \${ROLLOUT}
`,
    });
    expect(messages(result)).toEqual([]);
    const flag = (name: string) =>
      one(declared(result, name, "feature_flag")) as Declared & Record<string, unknown>;
    expect(flag("staging")).toMatchObject({
      description: "Checkout in acme-staging, literally ${BUCKET}",
      active: true,
      filters: { groups: [{ rollout_percentage: 100 }] },
    });
    expect(flag("production")).toMatchObject({
      active: false,
      filters: { groups: [{ rollout_percentage: 20 }] },
    });
  });

  it("a typed value is validated after substitution, at the reference, naming the variable", async () => {
    const result = await load({
      "envs.yaml": DECLARATION.replace("ROLLOUT: 20", "ROLLOUT: 150").replace("ROLLOUT: 100", "ROLLOUT: ten"),
      "shared.yaml":
        "environments: all\nfeature_flags:\n  - key: checkout\n    filters:\n      groups:\n        - rollout_percentage: ${ROLLOUT}\n",
    });
    expect(messages(result)).toEqual([
      'shared.yaml:6:31: error: filters.groups[0].rollout_percentage of feature flag "checkout" must be a number or null; got "ten" (from ${ROLLOUT} = "ten" of environment staging, envs.yaml:4:26) (environment staging)',
      'shared.yaml:6:31: error: filters.groups[0].rollout_percentage of feature flag "checkout" must be at most 100; got 150 (from ${ROLLOUT} = 150 of environment production, envs.yaml:8:26) (environment production)',
    ]);
  });

  it("a variable one environment lacks is an error for that environment at the reference", async () => {
    const result = await load({
      "envs.yaml": DECLARATION.replace("BUCKET: acme-analytics, ", ""),
      "shared.yaml": "environments: all\ndashboards:\n  - name: KPIs\n    description: Bucket ${BUCKET}\n",
    });
    expect(messages(result)).toEqual([
      'shared.yaml:4:18: error: ${BUCKET} in description of dashboard "KPIs": environment production has no variable BUCKET; add it to environments.production.variables in envs.yaml (a file serving environments reads only their variables) (environment production)',
    ]);
    expect(environment(result, "staging").config.diagnostics).toEqual([]);
    expect(environment(result, "production").config.diagnostics).toHaveLength(1);
  });

  it("a secret reference reads the variable the environment maps it to, else its own name", async () => {
    const result = await load(
      {
        "shared.yaml": `environments: all
feature_flags:
  - key: pricing
    has_encrypted_payloads: true
    filters:
      groups: [{rollout_percentage: 100}]
      payloads: {"true": "\${PAYLOAD}"}
`,
      },
      { PAYLOAD: "staging-secret", PAYLOAD_PRODUCTION: "production-secret" },
    );
    expect(messages(result)).toEqual([]);
    const payload = (name: string) =>
      (
        one(declared(result, name, "feature_flag")) as unknown as {
          filters: { payloads: Record<string, { reveal(): string; describe(): string }> };
        }
      ).filters.payloads.true;
    expect(payload("staging")?.reveal()).toBe("staging-secret");
    expect(payload("production")?.reveal()).toBe("production-secret");
    expect(payload("production")?.describe()).toBe("(secret from $PAYLOAD_PRODUCTION)");
  });

  it("writes a variable's text so that it is read back literally", () => {
    const lookup = (name: string) => ({ A: "x${y}", D: "cost $", E: "{b}" })[name];
    expect(substitute("${A}/${D}{z}", lookup)).toEqual({
      ok: true,
      value: "x$${y}/cost $${z}",
      missing: [],
      used: ["A", "D"],
    });
    expect(substitute("$${A} ${B}", lookup, true)).toEqual({
      ok: true,
      value: "$${A} $${B}",
      missing: ["B"],
      used: [],
    });
  });
});

describe("no ids in shared files", () => {
  it("refuses the raw ids a kind's references allow at any depth (a test-only kind naming others like a cohort)", async () => {
    const result = await loadConfig(
      {
        files: Object.entries({
          "envs.yaml": DECLARATION,
          "shared.yaml": `environments: all
segments:
  - name: Deep
    rules:
      type: all
      values:
        - {type: audience, audience: Beta}
        - {type: any, values: [{type: segment, value: 3}]}
`,
        }).map(([path, text]) => ({ path, text })),
      },
      { env: {}, cwd: "/", kinds: [...KINDS, audienceKind, segmentKind], mode: "plan" },
    );
    const ids = messages(result).filter((m) => m.includes("an id is right for one project only"));
    expect(ids.map((m) => m.split(": error: ")[0])).toEqual(["shared.yaml:8:55"]);
  });

  it("refuses every id a kind declares as one project's, at its line, in a file serving several environments", async () => {
    const result = await load({
      "shared.yaml": `environments: all
dashboards:
  - name: KPIs
    id: 4
    tiles: [{insight_id: 7}]
feature_flags:
  - key: f
    filters:
      groups: [{properties: [{type: cohort, value: 12}, {type: person, key: id, value: 12}]}]
batch_exports:
  - name: e
    model: events
    interval: day
    destination: {type: AwsS3, integration: 3, config: {bucket_name: b, region: r, prefix: p}}
  - name: by-name
    model: events
    interval: day
    destination: {type: AwsS3, integration: {kind: aws-s3, name: acme}, config: {bucket_name: b, region: r, prefix: p}}
`,
      "production.yaml": "overlay: production\ndashboards:\n  - name: KPIs\n    id: 5\n",
      "only-staging.yaml": "environments: [staging]\ndashboards:\n  - name: Staging only\n    id: 6\n",
    });
    const ids = messages(result).filter((m) => m.includes("an id is right for one project only"));
    expect(ids.map((m) => m.split(": error: ")[0])).toEqual([
      "shared.yaml:4:9",
      "shared.yaml:5:26",
      "shared.yaml:9:52",
      "shared.yaml:14:45",
    ]);
    expect(ids[0]).toBe(
      "shared.yaml:4:9: error: id: an id is right for one project only, and this file serves staging, production: pin it in that environment's overlay (or refer by name)",
    );
  });
});

describe("configurations without environments", () => {
  it("load exactly as before: no environments, their projects as declared", async () => {
    const result = await loadConfig(
      { files: [{ path: "p.yaml", text: "project: 1\ndashboards: [{name: A}]\n" }] },
      { env: {}, cwd: "/", kinds: KINDS, mode: "plan" },
    );
    expect(result.environments).toBeUndefined();
    expect(result.projects.map((p) => [p.project, p.files])).toEqual([[1, ["p.yaml"]]]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe("the library", () => {
  it("loads one environment's merged configuration, ready for makePlan", async () => {
    const { loadConfig: libraryLoad } = await import("../../src/index.js");
    const files = [
      { path: "envs.yaml", text: DECLARATION },
      {
        path: "shared.yaml",
        text: "environments: all\ndashboards:\n  - name: KPIs\n    description: ${BUCKET}\n",
      },
    ];
    const config = await libraryLoad({ files }, { environment: "production" });
    expect(config.ok).toBe(true);
    expect(config.environment?.entry.project).toBe(12345);
    expect(config.projects.map((p) => p.project)).toEqual([12345]);
    expect(config.projects[0]?.objects.dashboard?.[0]).toMatchObject({
      name: "KPIs",
      description: "acme-analytics",
    });
    await expect(libraryLoad({ files }, { environment: "qa" })).rejects.toThrow(
      "no environment qa: the files declare staging, production",
    );
  });
});
