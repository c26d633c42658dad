/**
 * Runs action.yml's steps as a runner would (see runner.ts) against the emulator, with the built CLI
 * (`npm test` builds first): outputs, job summary, annotations, the comment hand-off, failures, and no
 * API key or secret anywhere a runner would show or keep.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.js";
import { type ActionRun, loadAction, runAction } from "./runner.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KEY = "phx_action_test_key_7Hq2Zr9W";
const SECRETS: Record<string, string> = {
  AWS_ACCESS_KEY_ID: "AKIAACTIONTEST0000042",
  AWS_SECRET_ACCESS_KEY: "action-test-aws-secret-Vb81",
  PG_USER: "exporter",
  PG_PASSWORD: "action-test-pg-password-Kx55",
  STAGING_AWS_ACCESS_KEY_ID: "AKIAACTIONTEST0000043",
  STAGING_AWS_SECRET_ACCESS_KEY: "action-test-staging-secret-Qp07",
  STAGING_PG_USER: "exporter",
  STAGING_PG_PASSWORD: "action-test-staging-password-Mm31",
};
const BOTH = "examples/production examples/staging";
const MARKER = "<!-- posthog-gitops plan: 12345,12346 -->";
const action = loadAction(join(ROOT, "action.yml"));

let emulator: RunningEmulator;
let dir: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, "dist/cli.js"))) throw new Error("run `npm run build` first (npm test does)");
  emulator = await startEmulator({ apiKey: KEY, rateLimit: "none" });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  dir = mkdtempSync(join(tmpdir(), "posthog-gitops-action-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Run extends ActionRun {
  summary: string;
  markdown: string;
  planJson: string;
}

/** One invocation of the action, as `uses: ...` with these inputs; every artefact is checked for leaks. */
async function act(inputs: Record<string, string>, workspace = ROOT): Promise<Run> {
  const summaryFile = join(dir, `summary-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(summaryFile, "");
  const run = await runAction(action, {
    actionPath: ROOT,
    workspace,
    runnerDir: dir,
    summaryFile,
    inputs: { host: emulator.url, "api-key": KEY, ...inputs },
    // The client paces itself to the service's limits; the emulator here has none, so neither need it.
    env: { ...SECRETS, POSTHOG_RATE_LIMIT: "100000/minute" },
  });
  const read = (file: string | undefined) => (file ? readFileSync(file, "utf8") : "");
  const result = {
    ...run,
    summary: read(summaryFile),
    markdown: read(run.outputs["markdown-file"]),
    planJson: read(run.outputs["plan-file"]),
  };
  const everything = [result.stdout, result.stderr, result.outputFiles, result.summary, result.markdown]
    .concat(result.planJson)
    .join("\n");
  expect(everything).not.toContain(KEY);
  for (const [name, value] of Object.entries(SECRETS)) {
    if (!name.endsWith("_USER")) expect(everything).not.toContain(value);
  }
  return result;
}

async function requests(): Promise<{ method: string }[]> {
  const response = await fetch(`${emulator.url}/_emulator/requests`);
  return ((await response.json()) as { requests: { method: string }[] }).requests;
}

describe("the action against the emulator", () => {
  it("validate: checks the files offline and reports no changes", async () => {
    const run = await act({ command: "validate", paths: BOTH });
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs).toEqual({
      "has-changes": "false",
      destructive: "false",
      "plan-file": "",
      "markdown-file": "",
    });
    expect(await requests()).toEqual([]);
  });

  it("plan: sets the outputs, fills the job summary, annotates the files and hands the comment over", async () => {
    const run = await act({ command: "plan", paths: BOTH, comment: "true" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs["has-changes"]).toBe("true");
    expect(run.outputs.destructive).toBe("false");
    expect(JSON.parse(run.planJson).plan.summary).toMatchObject({ total: 12, destructive: false });
    expect(run.markdown.split("\n")[0]).toBe(MARKER);
    expect(run.summary.split(`${MARKER}\n`).length, "one plan in the job summary").toBe(2);
    expect(run.summary).toContain("**Plan: 8 to create");
    expect(run.stderr).toMatch(/^::notice file=examples\/production\/dashboards\.yaml,line=\d+,col=\d+::/m);
    expect(run.stdout).toMatch(/::stop-commands::(\S+)\n[\s\S]*\n::\1::\n/);
    expect(run.usesCalls).toEqual([
      expect.objectContaining({
        uses: "marocchino/sticky-pull-request-comment@v2",
        with: {
          header: "posthog-gitops",
          path: run.outputs["markdown-file"],
          GITHUB_TOKEN: "ghs_runner_token",
        },
      }),
    ]);
    expect(new Set((await requests()).map((r) => r.method))).toEqual(new Set(["GET"]));
  });

  it("apply: applies the plan it showed; then nothing is left, until a change pauses an export", async () => {
    const workspace = join(dir, "repo");
    cpSync(join(ROOT, "examples/production"), join(workspace, "posthog"), { recursive: true });
    const applied = await act({ command: "apply" }, workspace);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.outputs["has-changes"]).toBe("true");
    expect(applied.summary).toContain("<!-- posthog-gitops plan: 12345 -->");
    expect((await requests()).some((r) => r.method === "POST")).toBe(true);

    const again = await act({ command: "apply" }, workspace);
    expect(again.code, again.stderr).toBe(0);
    expect(again.outputs).toMatchObject({ "has-changes": "false", destructive: "false" });
    expect(again.stdout).toContain("No changes: nothing to apply.");

    const file = join(workspace, "posthog/batch-exports.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("paused: false", "paused: true"));
    const paused = await act({ command: "plan" }, workspace);
    expect(paused.outputs).toMatchObject({ "has-changes": "true", destructive: "true" });
    expect(paused.stderr).toMatch(/^::warning file=posthog\/batch-exports\.yaml,line=\d+,col=\d+::.*pause/m);
  });

  it("prune: deleting undeclared objects makes the plan destructive", async () => {
    const run = await act({ command: "plan", paths: "examples/production", prune: "true" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ "has-changes": "true", destructive: "true" });
    expect(run.markdown).toContain("soft delete");
    expect(JSON.parse(run.planJson).plan.summary.destructive).toBe(true);
  });

  it("reads paths one per line, relative to working-directory", async () => {
    const run = await act({
      command: "plan",
      "working-directory": "examples",
      paths: "production\n  staging\n",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs["has-changes"]).toBe("true");
    expect(run.markdown.split("\n")[0]).toBe(MARKER);
  });

  it("a failed plan fails the step and leaves a markdown note for the comment, never the key", async () => {
    const run = await act({ command: "plan", paths: BOTH, "api-key": `${KEY}x` });
    expect(run.code).toBe(1);
    expect(run.outputs["plan-file"]).toBe("");
    expect(run.markdown).toContain("posthog-gitops plan failed");
    expect(run.markdown).toContain("https://github.com/acme/analytics-config/actions/runs/4242");
    expect(run.stderr).toContain("error:");
  });

  it("refuses unknown commands and prune values before running anything", async () => {
    const bad = await act({ command: "destroy", paths: BOTH });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("::error title=posthog-gitops::input command must be");
    const prune = await act({ command: "plan", paths: BOTH, prune: "yes" });
    expect(prune.code).toBe(1);
    expect(prune.stderr).toContain("input prune must be true or false");
    expect(await requests()).toEqual([]);
  });
});
