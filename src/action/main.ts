/**
 * The GitHub Action's entry point (action.yml `runs.main`, bundled by scripts/build-action.mjs into
 * dist-action/main.mjs): the only file of the action that touches `process` and @actions/core. It masks
 * the API key before anything runs, checks the inputs, picks the CLI (bundled, or a release from npm
 * when `version` is set), runs the command (run.ts) and keeps the sticky comment (comment.ts).
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as core from "@actions/core";
import { VERSION } from "../version.js";
import { bundledCli, type Cli, installedCli } from "./cli-runner.js";
import { upsertComment } from "./comment.js";
import { type ActionInputs, apiKeyValues, cliEnv, InputError, readInputs, withoutInputs } from "./inputs.js";
import { installRelease } from "./install.js";
import { type Reporter, runAction } from "./run.js";

const TITLE = "posthog-gitops";

const report: Reporter = {
  info: (text) => core.info(text),
  error: (text) => core.error(text, { title: TITLE }),
  setOutput: (name, value) => core.setOutput(name, value),
  startGroup: (name) => core.startGroup(name),
  endGroup: () => core.endGroup(),
};

async function start(): Promise<number> {
  // Masked before anything is printed, whatever the other inputs hold.
  const keys = apiKeyValues(core.getInput("api-keys"));
  for (const secret of [core.getInput("api-key"), core.getInput("github-token"), ...keys]) {
    if (secret !== "") core.setSecret(secret);
  }
  let inputs: ActionInputs;
  try {
    inputs = readInputs((name, trim) => core.getInput(name, { trimWhitespace: trim }));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    report.error(error.message);
    return 1;
  }
  // A plain copy without the inputs, as bin/ does: the CLI reads it often, and it is not the action.
  const runnerEnv = withoutInputs(process.env);
  process.env = runnerEnv as NodeJS.ProcessEnv;

  const workspace = runnerEnv.GITHUB_WORKSPACE || process.cwd();
  const cwd = resolve(workspace, inputs.workingDirectory);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    report.error(`input working-directory: ${inputs.workingDirectory} is not a folder of the workspace`);
    return 1;
  }
  process.chdir(cwd);
  const temp = runnerEnv.RUNNER_TEMP || tmpdir();
  const cli = await chooseCli(inputs, runnerEnv, cwd, temp);
  core.info(`Running ${cli.label}, on Node.js ${process.version}.`);

  const runUrl = `${runnerEnv.GITHUB_SERVER_URL || "https://github.com"}/${runnerEnv.GITHUB_REPOSITORY || ""}/actions/runs/${runnerEnv.GITHUB_RUN_ID || ""}`;
  const comment = commentOn(inputs, runnerEnv);
  return runAction({
    inputs,
    cli,
    outDir: inputs.command === "validate" ? "" : mkdtempSync(join(temp, "posthog-gitops-")),
    runUrl,
    report,
    ...(comment ? { comment } : {}),
  });
}

async function chooseCli(
  inputs: ActionInputs,
  runnerEnv: Record<string, string | undefined>,
  cwd: string,
  temp: string,
): Promise<Cli> {
  const env = cliEnv(runnerEnv, inputs);
  if (inputs.version === "") return bundledCli(VERSION, env, cwd);
  core.startGroup(`Install posthog-gitops@${inputs.version} from the npm registry`);
  try {
    const release = await installRelease(inputs.version, join(temp, "posthog-gitops-cli"), runnerEnv);
    return installedCli(`posthog-gitops ${release.version}, installed from npm`, release.bin, env, cwd);
  } finally {
    core.endGroup();
  }
}

/** The sticky comment, when asked for, for plan and apply, on pull-request events only. */
function commentOn(
  inputs: ActionInputs,
  env: Record<string, string | undefined>,
): ((markdown: string) => Promise<void>) | undefined {
  if (!inputs.comment || inputs.command === "validate") return undefined;
  const pullNumber = pullRequestNumber(env.GITHUB_EVENT_PATH);
  if (pullNumber === undefined) {
    core.info("Not a pull-request event: no comment to keep.");
    return undefined;
  }
  const apiUrl = env.GITHUB_API_URL || "https://api.github.com";
  const target = {
    apiUrl,
    graphqlUrl: env.GITHUB_GRAPHQL_URL || `${apiUrl.replace(/\/+$/, "")}/graphql`,
    token: inputs.githubToken,
    repository: env.GITHUB_REPOSITORY ?? "",
    pullNumber,
    header: inputs.commentHeader,
  };
  return async (markdown) => {
    if (target.token === "") throw new Error("input github-token is empty");
    const done = await upsertComment(target, markdown);
    core.info(`${done.action === "created" ? "Created" : "Updated"} the pull-request comment ${done.url}`);
  };
}

/** The pull request's number from the event payload (pull_request and pull_request_target events). */
function pullRequestNumber(eventPath: string | undefined): number | undefined {
  if (!eventPath || !existsSync(eventPath)) return undefined;
  const event = JSON.parse(readFileSync(eventPath, "utf8")) as { pull_request?: { number?: unknown } };
  const number = event.pull_request?.number;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

try {
  process.exitCode = await start();
} catch (error) {
  report.error((error as Error).message ?? String(error));
  process.exitCode = 1;
}
