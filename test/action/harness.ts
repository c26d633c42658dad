/**
 * One invocation of the action as a workflow step would make it (runner.ts), with the checks every run
 * gets: the API key, the GitHub token and the batch exports' secrets appear nowhere a runner shows or
 * keeps (stdout apart from the `::add-mask::` commands the runner swallows, stderr, GITHUB_OUTPUT, the
 * job summary, and every file the run leaves in RUNNER_TEMP or a scratch workspace).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import {
  type ActionRun,
  filesUnder,
  GITHUB_TOKEN,
  loadAction,
  type RunnerSetup,
  runAction,
} from "./runner.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const KEY = "phx_action_test_key_7Hq2Zr9W";
/** Secret values every run gets: the one the examples name (the rest of their credentials live in the emulator's integrations) and the legacy S3 form's keys. */
export const SECRETS: Record<string, string> = {
  AWS_ACCESS_KEY_ID: "AKIAACTIONTEST0000042",
  AWS_SECRET_ACCESS_KEY: "action-test-aws-secret-Vb81",
  PRODUCTION_PROJECT_TOKEN: "phc_action_test_token_Kx55",
};

export interface Run extends ActionRun {
  summary: string;
  markdown: string;
  planJson: string;
}

export interface Step {
  /** Scratch folder of the test: holds the runner's files. */
  dir: string;
  inputs: Record<string, string>;
  /** The repository checkout; default the project itself. */
  workspace?: string;
  /** Folder with action.yml and the bundle; default the project itself. */
  actionDir?: string;
  env?: Record<string, string>;
  event?: RunnerSetup["event"];
}

/** Runs the action once and checks that nothing secret leaked anywhere. */
export async function act(step: Step): Promise<Run> {
  const actionDir = step.actionDir ?? ROOT;
  const workspace = step.workspace ?? ROOT;
  const summaryFile = join(step.dir, `summary-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(summaryFile, "");
  const run = await runAction(loadAction(join(actionDir, "action.yml")), {
    actionDir,
    workspace,
    runnerDir: step.dir,
    summaryFile,
    inputs: step.inputs,
    // The client paces itself to the service's limits; the emulator here has none, so neither need it.
    env: { ...SECRETS, POSTHOG_RATE_LIMIT: "100000/minute", ...step.env },
    ...(step.event ? { event: step.event } : {}),
  });
  const read = (file: string | undefined) => (file ? readFileSync(file, "utf8") : "");
  const result: Run = {
    ...run,
    summary: read(summaryFile),
    markdown: read(run.outputs["markdown-file"]),
    planJson: read(run.outputs["plan-file"]),
  };
  const left = [...filesUnder(run.runnerTemp), ...(workspace === ROOT ? [] : filesUnder(workspace))];
  const shown = run.stdout
    .split("\n")
    .filter((line) => !line.startsWith("::add-mask::"))
    .join("\n");
  const everything = [shown, run.stderr, run.outputFile, result.summary, ...left.map((f) => f.text)].join(
    "\n",
  );
  expect(everything).not.toContain(KEY);
  expect(everything).not.toContain(GITHUB_TOKEN);
  for (const [name, value] of Object.entries(SECRETS)) {
    if (!name.endsWith("_USER")) expect(everything).not.toContain(value);
  }
  return result;
}
