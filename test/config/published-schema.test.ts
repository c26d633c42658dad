/**
 * schemas/config.schema.json accepts what the tool accepts (SPEC §9): every file of the examples (a
 * declaration, shared files with whole-value `${NAME}` numbers, overlays with partial entries,
 * `exclude` and `null`), and refuses what the tool refuses at a file's level. Each document here is
 * also given to the tool itself, so the schema and `validate` are held to the same answer.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/index.js";
import { AJV_OPTIONS, addKeywords } from "../../src/config/schema.js";
import { KINDS } from "../../src/kinds/index.js";

const ROOT = join(import.meta.dirname, "../..");
const schema = JSON.parse(readFileSync(join(ROOT, "schemas/config.schema.json"), "utf8"));
// The tool's own options (strict: every keyword known, every type stated), but for `required` in
// conditions, which names keys the condition does not describe.
const ajv = new Ajv2020({ ...AJV_OPTIONS, strictRequired: false });
addKeywords(ajv);
const validate = ajv.compile(schema);

function check(text: string): string[] {
  return validate(parse(text))
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

const DECLARATION = `environments:
  staging: {project: 2, variables: {ROLLOUT: 50, ON: true, INTERVAL: day, BUCKET: b-staging}}
  production: {project: 1, variables: {ROLLOUT: 20, ON: false, INTERVAL: hour, BUCKET: b-prod}}
`;
const SHARED = `environments: all
dashboards:
  - name: Weekly KPIs
    pinned: \${ON}
    restriction_level: only_collaborators
    collaborators:
      - email: bob@example.com
        level: can_edit
feature_flags:
  - key: checkout
    name: Checkout
    active: \${ON}
    filters:
      groups:
        - rollout_percentage: \${ROLLOUT}
batch_exports:
  - name: to-s3
    model: events
    interval: \${INTERVAL}
    destination:
      type: AwsS3
      integration: {kind: aws-s3, name: "S3 \${BUCKET}"}
      config:
        bucket_name: \${BUCKET}
        region: us-east-1
        prefix: events/
`;
const OVERLAY = `overlay: production
dashboards:
  - name: Weekly KPIs
    description: null
    collaborators:
      - email: bob@example.com
        exclude: true
  - name: Board review
    tags: [board]
feature_flags:
  - key: checkout
    filters:
      groups:
        - rollout_percentage: 10
batch_exports:
  - name: to-s3
    exclude: true
`;

/** What the tool says of the set with files replaced: its errors, as `validate` reports them. */
async function toolErrors(files: Record<string, string>): Promise<string[]> {
  const set = { "environments.yaml": DECLARATION, "shared.yaml": SHARED, "overlay.yaml": OVERLAY, ...files };
  const loaded = await loadConfig(
    { files: Object.entries(set).map(([path, text]) => ({ path, text })) },
    {
      env: {},
      cwd: ROOT,
      kinds: KINDS,
      mode: "validate",
    },
  );
  const all = [
    ...loaded.diagnostics,
    ...(loaded.environments?.list ?? []).flatMap((e) => e.config.diagnostics),
  ];
  return all.filter((d) => d.severity === "error").map((d) => `${d.file}:${d.line}: ${d.message}`);
}

describe("config.schema.json and files serving environments", () => {
  it("accepts every file of the examples", () => {
    const files = yamlFiles(join(ROOT, "examples/posthog"));
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) expect(check(readFileSync(file, "utf8")), relative(ROOT, file)).toEqual([]);
  });

  it("accepts a declaration, a shared file with typed variables and an overlay, as the tool does", async () => {
    expect(await toolErrors({})).toEqual([]);
    expect(check(DECLARATION)).toEqual([]);
    expect(check(SHARED)).toEqual([]);
    expect(check(OVERLAY)).toEqual([]);
  });

  const refused: [string, string, Record<string, string>][] = [
    [
      "an overlay naming a project",
      "/ must NOT be valid",
      { "overlay.yaml": OVERLAY.replace("overlay: production\n", "overlay: production\nproject: 1\n") },
    ],
    [
      "a shared file naming a project",
      "/ must NOT be valid",
      { "shared.yaml": SHARED.replace("environments: all\n", "environments: all\nproject: 1\n") },
    ],
    [
      "a shared file listing variables",
      "/ must NOT be valid",
      { "shared.yaml": SHARED.replace("environments: all\n", "environments: all\nvariables: [ROLLOUT]\n") },
    ],
    [
      "the declaration holding anything else",
      "/ must NOT have more than 1 properties",
      { "environments.yaml": `${DECLARATION}dashboards: [{name: Extra}]\n` },
    ],
    [
      "a number that is text around a reference",
      "/feature_flags/0/filters/groups/0/rollout_percentage must be number,null",
      {
        "shared.yaml": SHARED.replace(
          "- rollout_percentage: ${ROLLOUT}",
          '- rollout_percentage: "5${ROLLOUT}"',
        ),
      },
    ],
    [
      "a null in a shared file",
      "/dashboards/0/pinned must be boolean",
      { "shared.yaml": SHARED.replace("pinned: ${ON}", "pinned: null") },
    ],
    [
      "exclude in a shared file",
      "/dashboards/0 must NOT have additional properties",
      { "shared.yaml": SHARED.replace("pinned: ${ON}", "exclude: true") },
    ],
    [
      "an excluding entry that says more",
      "/batch_exports/0/exclude must be equal to constant",
      {
        "overlay.yaml": OVERLAY.replace(
          "to-s3\n    exclude: true\n",
          "to-s3\n    exclude: true\n    paused: true\n",
        ),
      },
    ],
    [
      "a key no kind has, in an overlay",
      "/dashboards/1 must NOT have additional properties",
      { "overlay.yaml": OVERLAY.replace("tags: [board]", "tagz: [board]") },
    ],
    [
      "a wrong type in an overlay",
      "/feature_flags/0/filters/groups/0/rollout_percentage must be number,null",
      { "overlay.yaml": OVERLAY.replace("rollout_percentage: 10", "rollout_percentage: ten") },
    ],
  ];
  for (const [what, error, files] of refused) {
    it(`refuses ${what}, as the tool does`, async () => {
      const [name, text] = Object.entries(files)[0] as [string, string];
      expect(check(text), JSON.stringify(check(text))).toContain(error);
      expect(await toolErrors(files)).not.toEqual([]);
      expect(name).toMatch(/\.yaml$/);
    });
  }

  it("a single-project file is checked as the tool checks it: a variable there is text", () => {
    const single =
      "project: 1\nvariables: [ROLLOUT]\nfeature_flags:\n  - key: k\n    name: K\n    filters:\n      groups:\n        - rollout_percentage: ${ROLLOUT}\n";
    expect(check(single)).toContain(
      "/feature_flags/0/filters/groups/0/rollout_percentage must be number,null",
    );
    expect(check(single.replace("${ROLLOUT}", "30"))).toEqual([]);
    expect(check("project: 1\ndashboards:\n  - description: no name\n")).toContain(
      "/dashboards/0 must have required property 'name'",
    );
  });
});
