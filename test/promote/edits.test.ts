/**
 * Promotion's edits (SPEC §9 "Promotion"), offline: live values laid over an environment's merged
 * declarations go back to the shared file that wrote each node, and to nowhere else. What the
 * environment's overlay set (keys, keyed-list entries, replaced lists), what its variables gave and what
 * secrets hold stay, listed as kept; lists are aligned, so a new entry is inserted where it stands and
 * an entry an overlay excluded keeps its place in the shared list; the file's text changes only there.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import type { EnvironmentConfig } from "../../src/config/load-types.js";
import { KINDS } from "../../src/kinds/index.js";
import { type FieldPromotion, promotionEdits } from "../../src/promote/edits.js";
import { Placeholder } from "../../src/pull/kinds.js";
import { editYaml } from "../../src/yaml-edit/index.js";

const DECLARATION = `environments:
  staging:
    project: 12346
    variables: {ROLLOUT: 50, TEAM: growth}
  production:
    project: 12345
    promote_from: staging
    variables: {ROLLOUT: 20, TEAM: revenue}
`;

async function staging(files: Record<string, string>): Promise<EnvironmentConfig> {
  const all = { "envs.yaml": DECLARATION, ...files };
  const result = await loadConfig(
    { files: Object.entries(all).map(([path, text]) => ({ path, text })) },
    { env: {}, cwd: "/", kinds: KINDS, mode: "plan" },
  );
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  expect(errors).toEqual([]);
  const found = result.environments?.list.find((e) => e.name === "staging");
  if (found === undefined) throw new Error("no staging");
  return found;
}

/** The promotion's edits made to each file's text. */
function promote(env: EnvironmentConfig, files: Record<string, string>, promotions: FieldPromotion[]) {
  const out = promotionEdits(env.document, promotions, new Set(env.shared));
  const texts: Record<string, string> = {};
  for (const [path, edits] of out.files) {
    const result = editYaml(
      files[path] as string,
      edits.map((e) => ({ set: e.set, value: e.value })),
    );
    expect(result.outcomes.map((o) => o.status)).toEqual(edits.map(() => "changed"));
    texts[path] = result.text;
  }
  return { texts, kept: out.kept.map((k) => `${k.field} of ${k.owner}: ${k.why}`) };
}

const FLAGS = `environments: all
feature_flags:
  - key: checkout   # the new checkout
    filters:
      groups:
        - rollout_percentage: 100   # staff first
          properties: [{key: email, type: person, operator: icontains, value: "@acme.com"}]
        - rollout_percentage: \${ROLLOUT}
      multivariate:
        variants:
          - {key: control, name: Control, rollout_percentage: 50}
          - {key: test, name: Test, rollout_percentage: 50}
`;

const OVERLAY = `overlay: staging
feature_flags:
  - key: checkout
    filters:
      multivariate:
        variants:
          - {key: test, name: Test in staging}
`;

describe("promotion edits", () => {
  it("a new group before one written with a variable is inserted; the variable's group stays as written", async () => {
    const files = { "shared/flags.yaml": FLAGS };
    const env = await staging(files);
    const live = [
      {
        rollout_percentage: 100,
        properties: [{ key: "email", type: "person", operator: "icontains", value: "@acme.com" }],
      },
      {
        rollout_percentage: 10,
        properties: [{ key: "country", type: "person", operator: "exact", value: ["NL"] }],
      },
      { rollout_percentage: 50 },
    ];
    const { texts, kept } = promote(env, files, [
      { item: "/feature_flags/0", path: ["filters", "groups"], live, owner: 'feature flag "checkout"' },
    ]);
    expect(kept).toEqual([]);
    expect(texts["shared/flags.yaml"]).toBe(
      FLAGS.replace(
        "        - rollout_percentage: ${ROLLOUT}\n",
        "        - rollout_percentage: 10\n          properties: [{key: country, type: person, operator: exact, value: [NL]}]\n        - rollout_percentage: ${ROLLOUT}\n",
      ),
    );
  });

  it("a value a variable gave, and a variant's key an overlay set, stay; the other variant is promoted", async () => {
    const files = { "shared/flags.yaml": FLAGS, "overlays/staging.yaml": OVERLAY };
    const env = await staging(files);
    const { texts, kept } = promote(env, files, [
      {
        item: "/feature_flags/0",
        path: ["filters", "groups"],
        live: [
          {
            rollout_percentage: 100,
            properties: [{ key: "email", type: "person", operator: "icontains", value: "@acme.com" }],
          },
          { rollout_percentage: 65 },
        ],
        owner: 'feature flag "checkout"',
      },
      {
        item: "/feature_flags/0",
        path: ["filters", "multivariate"],
        live: {
          variants: [
            { key: "control", name: "Control group", rollout_percentage: 50 },
            { key: "test", name: "Test in staging, v2", rollout_percentage: 50 },
          ],
        },
        owner: 'feature flag "checkout"',
      },
    ]);
    expect(kept).toEqual([
      "filters.groups.1.rollout_percentage of feature flag \"checkout\": from staging's variable ROLLOUT (envs.yaml:4): a value of staging's own; change the variable or the shared file by hand",
      'filters.multivariate.variants.1.name of feature flag "checkout": set in overlays/staging.yaml:7 for staging only: kept there',
    ]);
    expect(texts["shared/flags.yaml"]).toBe(FLAGS.replace("name: Control,", "name: Control group,"));
  });

  it("an entry an overlay excludes keeps its place; a collaborator added live goes after the one before it", async () => {
    const shared = `environments: all
dashboards:
  - name: KPIs
    restriction_level: only_collaborators
    collaborators:
      - {email: ana@acme.com, level: can_edit}
      - {email: bob@acme.com, level: can_edit}   # not in staging
      - {email: dan@acme.com, level: can_edit}
`;
    const overlay = `overlay: staging
dashboards:
  - name: KPIs
    collaborators:
      - {email: bob@acme.com, exclude: true}
`;
    const files = { "shared/d.yaml": shared, "overlays/staging.yaml": overlay };
    const env = await staging(files);
    const { texts, kept } = promote(env, files, [
      {
        item: "/dashboards/0",
        path: ["collaborators"],
        live: [
          { email: "ana@acme.com", level: "can_edit" },
          { email: "carol@acme.com", level: "can_edit" },
          { email: "dan@acme.com", level: "can_edit" },
        ],
        owner: 'dashboard "KPIs"',
      },
    ]);
    expect(kept).toEqual([]);
    expect(texts["shared/d.yaml"]).toBe(
      shared.replace(
        "      - {email: bob@acme.com",
        "      - {email: carol@acme.com, level: can_edit}\n      - {email: bob@acme.com",
      ),
    );
  });

  it("a list an overlay replaces, and a whole declaration an overlay adds, are kept; a key removed live goes", async () => {
    const shared = `environments: all
dashboards:
  - name: KPIs
    description: Weekly numbers.
    pinned: true
    tags: [kpi]
`;
    const overlay = `overlay: staging
dashboards:
  - name: KPIs
    tags: [kpi, staging]
  - name: Scratch
    description: staging only
`;
    const files = { "shared/d.yaml": shared, "overlays/staging.yaml": overlay };
    const env = await staging(files);
    const { texts, kept } = promote(env, files, [
      { item: "/dashboards/0", path: ["tags"], live: ["kpi"], owner: 'dashboard "KPIs"' },
      {
        item: "/dashboards/0",
        path: ["description"],
        live: "Weekly numbers, by team.",
        owner: 'dashboard "KPIs"',
      },
      { item: "/dashboards/1", path: ["description"], live: "changed", owner: 'dashboard "Scratch"' },
    ]);
    expect(kept).toEqual([
      'tags of dashboard "KPIs": overlays/staging.yaml:4 replaces the shared list in staging: kept there',
      'description of dashboard "Scratch": set in overlays/staging.yaml:5 for staging only: kept there',
    ]);
    expect(texts["shared/d.yaml"]).toBe(shared.replace("Weekly numbers.", "Weekly numbers, by team."));
  });

  it("a secret's placeholder never replaces what the file says; live `${` is written as `$${`", async () => {
    const shared = `environments: all
feature_flags:
  - key: prices
    name: Prices
    is_remote_configuration: true
    has_encrypted_payloads: true
    filters:
      groups: [{rollout_percentage: 100}]
      payloads:
        "true": \${PRICES_PAYLOAD}
`;
    const files = { "shared/f.yaml": shared };
    const env = await staging(files);
    const { texts, kept } = promote(env, files, [
      {
        item: "/feature_flags/0",
        path: ["name"],
        live: "Prices for ${REGION}",
        owner: 'feature flag "prices"',
      },
      {
        item: "/feature_flags/0",
        path: ["filters", "payloads"],
        live: {
          true: new Placeholder("PRICES_PAYLOAD_TRUE"),
          false: new Placeholder("PRICES_PAYLOAD_FALSE"),
        },
        owner: 'feature flag "prices"',
      },
    ]);
    expect(kept).toEqual([
      'filters.payloads.false of feature flag "prices": holds a secret, which is never written to a file: change it by hand',
    ]);
    expect(texts["shared/f.yaml"]).toBe(
      shared.replace("    name: Prices\n", () => "    name: Prices for $${REGION}\n"),
    );
  });

  it("nothing to edit when the live value is what the files give", async () => {
    const files = { "shared/flags.yaml": FLAGS };
    const env = await staging(files);
    const out = promotionEdits(
      env.document,
      [
        {
          item: "/feature_flags/0",
          path: ["filters", "groups"],
          live: [
            {
              rollout_percentage: 100,
              properties: [{ key: "email", type: "person", operator: "icontains", value: "@acme.com" }],
            },
            { rollout_percentage: 50 },
          ],
          owner: 'feature flag "checkout"',
        },
      ],
      new Set(env.shared),
    );
    expect([...out.files.keys()]).toEqual([]);
    expect(out.kept).toEqual([]);
  });

  it("a field written in a file the destination does not read stays, saying so", async () => {
    const files = { "shared/flags.yaml": FLAGS };
    const env = await staging(files);
    const out = promotionEdits(
      env.document,
      [
        {
          item: "/feature_flags/0",
          path: ["filters", "multivariate"],
          live: { variants: [] },
          owner: 'feature flag "checkout"',
        },
      ],
      new Set(),
      (file) => `declared in ${file}, which production does not read`,
    );
    expect([...out.files.keys()]).toEqual([]);
    expect(out.kept.map((k) => k.why)).toEqual([
      "declared in shared/flags.yaml, which production does not read",
    ]);
  });
});
