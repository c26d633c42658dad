/**
 * A small stand-in for the GitHub runner executing a JavaScript action (`runs.using: node24`): it runs
 * `node <action folder>/<runs.main>` in the workspace with the runner's environment: every declared
 * input as `INPUT_<NAME>` (name upper-cased, spaces to `_`, dashes kept; action.yml's defaults filled in,
 * `${{ github.token }}` the only expression), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH and
 * GITHUB_EVENT_NAME, GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_ACTIONS=true. It reads GITHUB_OUTPUT (both
 * `name=value` and heredoc forms) and the workflow commands in the log as the runner does, honouring
 * `::stop-commands::`. GitHub's API defaults to a closed loopback port, so a test never reaches GitHub.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";

export interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string;
}

/** A workflow or composite step, as written in YAML. */
export interface ActionStep {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface ActionFile {
  name: string;
  description: string;
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { description?: string; value?: string }>;
  runs: { using: string; main: string; steps?: ActionStep[] };
}

export interface RunnerSetup {
  /** The action's folder (`github.action_path`): action.yml and the bundle. */
  actionDir: string;
  /** `with:` of the calling step. */
  inputs: Record<string, string>;
  /** Job and step `env:` of the calling workflow. */
  env?: Record<string, string>;
  workspace: string;
  /** Holds RUNNER_TEMP, the event payload and the GITHUB_OUTPUT file. */
  runnerDir: string;
  /** Shared by the steps, as a job's summary is. */
  summaryFile: string;
  /** `github.token`. */
  token?: string;
  /** The triggering event; default a push. */
  event?: { name: string; payload: unknown };
}

export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  value: string;
  stream: "stdout" | "stderr";
}

export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  /** GITHUB_OUTPUT, as written. */
  outputFile: string;
  outputs: Record<string, string>;
  /** The workflow commands the runner acted on, in order (stdout's, then stderr's). */
  commands: WorkflowCommand[];
  /** Values the action asked the runner to mask (`::add-mask::`). */
  masks: string[];
  runnerTemp: string;
}

export const GITHUB_TOKEN = "ghs_runner_token_Zr81Qm";

export function loadAction(file: string): ActionFile {
  return parse(readFileSync(file, "utf8")) as ActionFile;
}

/** The runner's name for an input's variable. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block?.[1] && block[2]) {
      const end = lines.indexOf(block[2], i + 1);
      if (end < 0) throw new Error(`unterminated ${block[1]}<<${block[2]} in GITHUB_OUTPUT`);
      out[block[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      const at = line.indexOf("=");
      out[line.slice(0, at)] = line.slice(at + 1);
    } else if (line.trim() !== "") {
      throw new Error(`unreadable GITHUB_OUTPUT line: ${line}`);
    }
  }
  return out;
}

const unescapeData = (s: string) => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
const unescapeProperty = (s: string) => unescapeData(s.replace(/%3A/g, ":").replace(/%2C/g, ","));

/** The workflow commands in one stream, as the runner reads them: none between stop-commands and its token. */
export function workflowCommands(text: string, stream: "stdout" | "stderr"): WorkflowCommand[] {
  const commands: WorkflowCommand[] = [];
  let stoppedUntil: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (stoppedUntil !== undefined) {
      if (line === `::${stoppedUntil}::`) stoppedUntil = undefined;
      continue;
    }
    const match = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!match?.[1]) continue;
    const properties: Record<string, string> = {};
    for (const pair of (match[2] ?? "").split(",").filter(Boolean)) {
      const at = pair.indexOf("=");
      if (at > 0) properties[pair.slice(0, at)] = unescapeProperty(pair.slice(at + 1));
    }
    const command = { command: match[1], properties, value: unescapeData(match[3] ?? ""), stream };
    if (command.command === "stop-commands") stoppedUntil = command.value;
    commands.push(command);
  }
  return commands;
}

/** Every file under `dir`, read as text (what a run leaves behind). */
export function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

let runs = 0;

export async function runAction(action: ActionFile, setup: RunnerSetup): Promise<ActionRun> {
  if (!["node20", "node24"].includes(action.runs.using)) {
    throw new Error(`the test runner runs JavaScript actions only, not ${action.runs.using}`);
  }
  for (const name of Object.keys(setup.inputs)) {
    if (!(name in action.inputs)) throw new Error(`unexpected input ${name}`);
  }
  const token = setup.token ?? GITHUB_TOKEN;
  const inputEnv: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const given = setup.inputs[name] ?? expandDefault(spec.default ?? "", token);
    if (spec.required && given === "") throw new Error(`input ${name} is required`);
    inputEnv[inputVariable(name)] = given;
  }
  const id = ++runs;
  const runnerTemp = mkdtempSync(join(setup.runnerDir, "temp-"));
  const outputFile = join(setup.runnerDir, `output-${id}`);
  writeFileSync(outputFile, "");
  const event = setup.event ?? { name: "push", payload: { ref: "refs/heads/main" } };
  const eventFile = join(setup.runnerDir, `event-${id}.json`);
  writeFileSync(eventFile, JSON.stringify(event.payload));

  const main = resolve(setup.actionDir, action.runs.main);
  const run = await node(main, setup.workspace, {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? setup.runnerDir,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: setup.workspace,
    GITHUB_ACTION_PATH: setup.actionDir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: setup.summaryFile,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: "http://127.0.0.1:9",
    GITHUB_GRAPHQL_URL: "http://127.0.0.1:9/graphql",
    GITHUB_REPOSITORY: "acme/analytics-config",
    GITHUB_RUN_ID: "4242",
    RUNNER_TEMP: runnerTemp,
    ...setup.env,
    ...inputEnv,
  });
  const written = readFileSync(outputFile, "utf8");
  const commands = [...workflowCommands(run.stdout, "stdout"), ...workflowCommands(run.stderr, "stderr")];
  return {
    ...run,
    outputFile: written,
    outputs: parseOutputFile(written),
    commands,
    masks: commands.filter((c) => c.command === "add-mask").map((c) => c.value),
    runnerTemp,
  };
}

function expandDefault(text: string, token: string): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, name: string) => {
    if (name === "github.token") return token;
    throw new Error(`the test runner cannot evaluate \${{ ${name} }}`);
  });
}

/**
 * Runs the action's entry with this Node.js, or the one ACTION_TEST_NODE names (to try the bundle on
 * each runtime it must run on: 20, 22, 24); asynchronous, so an in-process emulator or fake API answers.
 */
function node(
  main: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.env.ACTION_TEST_NODE || process.execPath, [main], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? 1, stdout, stderr });
    });
  });
}
