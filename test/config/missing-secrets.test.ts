/** Unset secret variables: one diagnostic per variable at its first use, naming how many fields use it. */
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
  it("gives one note per variable in plan mode, at its first use, with the number of fields", async () => {
    const { result, lines } = await run("plan");
    expect(lines).toEqual([
      'a.yaml:10:28: note: environment variable AWS_ACCESS_KEY_ID is not set (used by 5 secret fields, first here: destination.config.aws_access_key_id of batch export "export-0"); apply will need it',
      'a.yaml:11:32: note: environment variable AWS_SECRET_ACCESS_KEY is not set (used by 5 secret fields, first here: destination.config.aws_secret_access_key of batch export "export-0"); apply will need it',
    ]);
    expect(result.missingSecretVariables).toEqual(["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
    expect(exportsOf(result.projects[0])).toHaveLength(5);
  });

  it("gives one error per variable in apply mode", async () => {
    const { lines } = await run("apply", { AWS_ACCESS_KEY_ID: "AKIA" });
    expect(lines).toEqual([
      'a.yaml:11:32: error: environment variable AWS_SECRET_ACCESS_KEY is not set (used by 5 secret fields, first here: destination.config.aws_secret_access_key of batch export "export-0")',
    ]);
  });

  it("keeps the single-use wording when one field uses the variable", async () => {
    const root = tree({ "a.yaml": exportsFile(0, 1) });
    const result = await loadConfig(["a.yaml"], {
      env: { AWS_ACCESS_KEY_ID: "x" },
      cwd: root,
      mode: "validate",
    });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'a.yaml:11:32: note: environment variable AWS_SECRET_ACCESS_KEY is not set (secret destination.config.aws_secret_access_key of batch export "export-0"); apply will need it',
    ]);
  });

  it("says nothing when the variables are set", async () => {
    const { lines, result } = await run("apply", { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" });
    expect(lines).toEqual([]);
    expect(result.missingSecretVariables).toEqual([]);
  });
});
