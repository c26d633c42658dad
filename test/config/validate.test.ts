import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/commands/validate.js";
import { memoryIo } from "../support/io.js";
import { tree } from "./helpers.js";

const repo = join(import.meta.dirname, "../..");

const bad = `project: 12345
dashboards:
  - name: Weekly KPIs
    pinnned: true
batch_exports:
  - name: pg
    destination:
      type: Postgres
      config:
        host: db.example.com
        database: analytics
        password: \${PG_PASSWORD}
`;

describe("validate", () => {
  it("accepts both example environments, offline and without secrets (they are notes)", async () => {
    const out = memoryIo({}, repo);
    const code = await run({ args: ["examples/production", "examples/staging"] }, out.io);
    expect(out.stdout).not.toMatch(/: (error|warning): /);
    // The unset secrets are one note, whatever their number.
    expect(out.stdout).toBe(
      "note: 4 secret variables are not set in this environment: $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY, $PRICING_PAYLOAD, $PRODUCTION_PROJECT_TOKEN (used by 4 secret fields); apply will need them\n",
    );
    expect(out.stderr).toBe("6 files, 20 objects: 1 note\n");
    expect(code).toBe(0);
  });

  it.each([
    ["examples/production", "3 files, 13 objects: valid\n"],
    ["examples/staging", "3 files, 7 objects: valid\n"],
  ])("%s validates without any diagnostic when its secrets are set", async (folder, summary) => {
    const names = [
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "PRODUCTION_PROJECT_TOKEN",
      "PRICING_PAYLOAD",
    ];
    const env = Object.fromEntries(names.map((n) => [n, "set"]));
    const out = memoryIo(env, repo);
    expect(await run({ args: [folder] }, out.io)).toBe(0);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe(summary);
  });

  it("prints diagnostics relative to cwd on stdout and a summary on stderr, exit 1 on errors", async () => {
    const root = tree({ "posthog/main.yaml": bad });
    const out = memoryIo({}, root);
    expect(await run({ args: [] }, out.io)).toBe(1);
    expect(out.stdout).toBe(
      'posthog/main.yaml:4:5: error: unknown key "pinnned" in dashboard "Weekly KPIs" (did you mean "pinned"?)\n' +
        "note: secret variable $PG_PASSWORD is not set in this environment (used by 1 secret field); apply will need it\n",
    );
    expect(out.stderr).toBe("1 file, 2 objects: 1 error, 1 note\n");
  });

  it("prints one JSON document with --format json", async () => {
    const root = tree({ "posthog/main.yaml": bad });
    const out = memoryIo({}, root);
    expect(await run({ args: ["posthog"], format: "json" }, out.io)).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(doc).toEqual({
      valid: false,
      files: ["posthog/main.yaml"],
      objects: 2,
      diagnostics: [
        expect.objectContaining({ severity: "error", file: "posthog/main.yaml", line: 4, column: 5 }),
        expect.objectContaining({ severity: "note", file: "", line: 0, column: 0 }),
      ],
    });
  });

  it("adds GitHub annotations under GITHUB_ACTIONS=true", async () => {
    const root = tree({ "posthog/main.yaml": bad });
    const out = memoryIo({ GITHUB_ACTIONS: "true" }, root);
    await run({ args: [] }, out.io);
    expect(out.stdout).not.toContain("::");
    expect(out.stderr).toContain(
      '::error file=posthog/main.yaml,line=4,col=5::unknown key "pinnned" in dashboard "Weekly KPIs" (did you mean "pinned"?)\n',
    );
    expect(out.stderr).toContain("::notice::secret variable $PG_PASSWORD is not set in this environment");
    const plain = memoryIo({}, root);
    await run({ args: [] }, plain.io);
    expect(plain.stdout + plain.stderr).not.toContain("::");
  });

  it("points annotations at repository-relative paths when run from a sub-folder of GITHUB_WORKSPACE", async () => {
    const root = tree({ "infra/posthog/main.yaml": bad });
    const out = memoryIo({ GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: root }, join(root, "infra"));
    await run({ args: [] }, out.io);
    expect(out.stdout).toContain("posthog/main.yaml:4:5: error:");
    expect(out.stderr).toContain("::error file=infra/posthog/main.yaml,line=4,col=5::");
  });

  it("accepts the configuration example in the README", async () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const example = /## Configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain("batch_exports:");
    const root = tree({ "posthog/readme.yaml": example ?? "" });
    const out = memoryIo({ PARTNER_PROJECT_TOKEN: "set" }, root);
    expect(await run({ args: [] }, out.io)).toBe(0);
    expect(out.stderr).toBe("1 file, 5 objects: valid\n");
  });

  it("never prints a literal secret", async () => {
    const root = tree({
      "s.yaml":
        "project: 1\nbatch_exports:\n  - name: s\n    destination:\n      type: S3\n      config: {bucket_name: b, region: r, prefix: p, aws_secret_access_key: wJalrXUtnFEMI, aws_access_key_id: [AKIA123]}\n",
    });
    for (const format of ["text", "json"] as const) {
      const out = memoryIo({ GITHUB_ACTIONS: "true" }, root);
      expect(await run({ args: ["s.yaml"], format }, out.io)).toBe(1);
      expect(out.stdout + out.stderr).not.toMatch(/wJalrXUtnFEMI|AKIA123/);
    }
  });
});
