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
  it("accepts both example environments, offline and without secrets (plan and apply mention those)", async () => {
    const out = memoryIo({}, repo);
    const code = await run(
      { args: ["test/fixtures/single-project/production", "test/fixtures/single-project/staging"] },
      out.io,
    );
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe("8 files, 26 objects: valid\n");
    expect(code).toBe(0);
  });

  it.each([
    ["test/fixtures/single-project/production", "4 files, 16 objects: valid\n"],
    ["test/fixtures/single-project/staging", "4 files, 10 objects: valid\n"],
  ])("%s validates without any diagnostic when its secrets are set", async (folder, summary) => {
    const names = ["PRODUCTION_PROJECT_TOKEN", "PRICING_PAYLOAD"];
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
      'posthog/main.yaml:4:5: error: unknown key "pinnned" in dashboard "Weekly KPIs" (did you mean "pinned"?)\n',
    );
    expect(out.stderr).toBe("1 file, 2 objects: 1 error\n");
  });

  it("warns at the file about a missing project: that plan would refuse, unless --project or POSTHOG_PROJECT_ID fills in", async () => {
    const root = tree({
      "posthog/no-project.yaml": "# dashboards of the growth team\ndashboards:\n  - name: A\n",
    });
    const out = memoryIo({}, root);
    expect(await run({ args: [] }, out.io)).toBe(0);
    expect(out.stdout).toBe(
      "posthog/no-project.yaml:1:1: warning: no project: add `project: <id>` to the file or pass --project / set POSTHOG_PROJECT_ID (plan needs one)\n",
    );
    expect(out.stderr).toBe("1 file, 1 object: 1 warning\n");
    for (const [env, options] of [
      [{ POSTHOG_PROJECT_ID: "12345" }, {}],
      [{}, { project: "12345" }],
    ] as const) {
      const filled = memoryIo(env, root);
      expect(await run({ args: [], ...options }, filled.io)).toBe(0);
      expect(filled.stdout).toBe("");
    }
  });

  it("without paths and without a posthog/ folder, says how to get one: pull", async () => {
    const out = memoryIo({}, tree({ "README.md": "nothing here" }));
    expect(await run({ args: [] }, out.io)).toBe(1);
    expect(out.stdout).toBe(
      'posthog: error: no such file or folder "posthog" (the default): give the files or folders to read, or write posthog/ from a live project with `posthog-gitops pull --project ID`\n',
    );
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
    expect(out.stderr).not.toContain("::notice::");
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
    expect(out.stderr).toBe("1 file, 6 objects: valid\n");
  });

  it("accepts the cohorts and actions example in the README", async () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const example = /### Cohorts and actions[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain("cohorts:");
    const root = tree({ "posthog/readme.yaml": `project: 1\n${example ?? ""}` });
    const out = memoryIo({}, root);
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
