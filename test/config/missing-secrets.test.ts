/**
 * Unset secret variables: for validate and plan one note listing them all, after the positioned
 * diagnostics; for apply one error per variable at its first use, naming how many fields use it.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/index.js";
import type { LoadMode } from "../../src/config/load.js";
import { loadConfig } from "../../src/index.js";
import { exportsOf } from "../builders.js";
import { tree } from "./helpers.js";

function exportsFile(from: number, count: number): string {
  const lines = ["project: 1", "batch_exports:"];
  for (let i = from; i < from + count; i++) {
    lines.push(
      `  - name: export-${i}`,
      "    destination:",
      "      type: S3",
      "      config:",
      "        bucket_name: b",
      "        region: us-east-1",
      "        prefix: p/",
      "        aws_access_key_id: ${AWS_ACCESS_KEY_ID}",
      "        aws_secret_access_key: ${AWS_SECRET_ACCESS_KEY}",
    );
  }
  return `${lines.join("\n")}\n`;
}

async function run(mode: LoadMode, env: Record<string, string> = {}) {
  const root = tree({ "a.yaml": exportsFile(0, 3), "b.yaml": exportsFile(3, 2) });
  const result = await loadConfig(["a.yaml", "b.yaml"], { env, cwd: root, mode });
  return { result, lines: result.diagnostics.map(formatDiagnostic) };
}

describe("missing secret variables", () => {
  it("gives one note for every variable in plan mode, with the number of fields", async () => {
    const { result, lines } = await run("plan");
    expect(lines).toEqual([
      "note: 2 secret variables are not set in this environment: $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY (used by 10 secret fields); apply will need them",
    ]);
    expect(result.diagnostics[0]).toMatchObject({ severity: "note", file: "", line: 0, column: 0 });
    expect(result.missingSecretVariables).toEqual(["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
    expect(exportsOf(result.projects[0])).toHaveLength(5);
  });

  it("gives one error per variable in apply mode", async () => {
    const { lines } = await run("apply", { AWS_ACCESS_KEY_ID: "AKIA" });
    expect(lines).toEqual([
      'a.yaml:11:32: error: environment variable AWS_SECRET_ACCESS_KEY is not set (used by 5 secret fields, first here: destination.config.aws_secret_access_key of batch export "export-0")',
    ]);
  });

  it("puts the note after the errors, whatever the files' names", async () => {
    const root = tree({
      "a.yaml": exportsFile(0, 1),
      "z.yaml": "project: 1\ndashboards:\n  - name: d\n    pinned: maybe\n",
    });
    const result = await loadConfig(["a.yaml", "z.yaml"], { env: {}, cwd: root, mode: "validate" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'z.yaml:4:13: error: pinned of dashboard "d" must be true or false; got "maybe"',
      "note: 2 secret variables are not set in this environment: $AWS_ACCESS_KEY_ID, $AWS_SECRET_ACCESS_KEY (used by 2 secret fields); apply will need them",
    ]);
  });

  it("says it, not them, for one variable in one field", async () => {
    const root = tree({ "a.yaml": exportsFile(0, 1) });
    const result = await loadConfig(["a.yaml"], {
      env: { AWS_ACCESS_KEY_ID: "x" },
      cwd: root,
      mode: "validate",
    });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "note: secret variable $AWS_SECRET_ACCESS_KEY is not set in this environment (used by 1 secret field); apply will need it",
    ]);
  });

  it("says nothing when the variables are set", async () => {
    const { lines, result } = await run("apply", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" });
    expect(lines).toEqual([]);
    expect(result.missingSecretVariables).toEqual([]);
  });
});
