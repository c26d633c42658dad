/**
 * A small stand-in for the GitHub runner executing a composite action: it fills `${{ }}` expressions in
 * each step's `run` and `env` from the inputs (with action.yml's defaults), `github.*` and earlier
 * steps' outputs, runs the `run` steps in order with `bash --noprofile --norc -eo pipefail` (as the
 * runner's `shell: bash` does) in a runner-like environment, reads each step's own GITHUB_OUTPUT file,
 * and stops at the first failing step. `uses:` steps are not run: they are returned with their `with`
 * filled in, so tests can check what would be handed to them. An expression outside that small language
 * is an error, never silently empty.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string;
}

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
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface RunnerSetup {
  /** The action's folder (`github.action_path`). */
  actionPath: string;
  /** `with:` of the calling step. */
  inputs: Record<string, string>;
  /** Job and step `env:` of the calling workflow. */
  env: Record<string, string>;
  workspace: string;
  /** Holds RUNNER_TEMP and the per-step GITHUB_OUTPUT files. */
  runnerDir: string;
  /** Shared by the steps, as a job's summary is. */
  summaryFile: string;
  token?: string;
}

export interface UsesCall {
  uses: string;
  if?: string;
  with: Record<string, string>;
}

export interface ActionRun {
  /** Exit code of the first failing step, else 0. */
  code: number;
  stdout: string;
  stderr: string;
  /** Every GITHUB_OUTPUT file, as written. */
  outputFiles: string;
  outputs: Record<string, string>;
  steps: Record<string, Record<string, string>>;
  usesCalls: UsesCall[];
}

export function loadAction(file: string): ActionFile {
  return parse(readFileSync(file, "utf8")) as ActionFile;
}

const EXPRESSION = /\$\{\{\s*(.*?)\s*\}\}/g;

/** Fills every `${{ name }}`; `lookup` returns undefined for a name it does not know, which throws. */
export function expand(text: string, lookup: (name: string) => string | undefined): string {
  return text.replace(EXPRESSION, (_, name: string) => {
    const value = lookup(name);
    if (value === undefined) throw new Error(`the test runner cannot evaluate \${{ ${name} }}`);
    return value;
  });
}

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
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

export async function runAction(action: ActionFile, setup: RunnerSetup): Promise<ActionRun> {
  for (const name of Object.keys(setup.inputs)) {
    if (!(name in action.inputs)) throw new Error(`unexpected input ${name}`);
  }
  const github: Record<string, string> = {
    action_path: setup.actionPath,
    token: setup.token ?? "ghs_runner_token",
  };
  const githubLookup = (name: string) => (name.startsWith("github.") ? github[name.slice(7)] : undefined);
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const given = setup.inputs[name] ?? expand(spec.default ?? "", githubLookup);
    if (spec.required && given === "") throw new Error(`input ${name} is required`);
    inputs[name] = given;
  }
  const steps: Record<string, Record<string, string>> = {};
  const lookup = (name: string): string | undefined => {
    if (name.startsWith("inputs.")) return inputs[name.slice(7)];
    const step = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(name);
    if (step?.[1] && step[2]) return steps[step[1]]?.[step[2]] ?? "";
    return githubLookup(name);
  };

  const result: ActionRun = {
    code: 0,
    stdout: "",
    stderr: "",
    outputFiles: "",
    outputs: {},
    steps,
    usesCalls: [],
  };
  const runnerTemp = mkdtempSync(join(setup.runnerDir, "temp-"));
  for (const [index, step] of action.runs.steps.entries()) {
    if (result.code !== 0) break;
    if (step.uses) {
      const withValues = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), lookup)]),
      );
      result.usesCalls.push({ uses: step.uses, ...(step.if ? { if: step.if } : {}), with: withValues });
      continue;
    }
    if (step.if) throw new Error(`the test runner does not evaluate if: on run steps (${step.name})`);
    if (step.shell !== "bash") throw new Error(`step ${step.name ?? index} must use shell: bash`);
    const outputFile = join(setup.runnerDir, `output-${index}`);
    writeFileSync(outputFile, "");
    const script = join(setup.runnerDir, `step-${index}.sh`);
    writeFileSync(script, expand(step.run ?? "", lookup));
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), lookup)]),
    );
    const run = await bash(script, setup.workspace, {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? setup.runnerDir,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_WORKSPACE: setup.workspace,
      GITHUB_ACTION_PATH: setup.actionPath,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: setup.summaryFile,
      GITHUB_SERVER_URL: "https://github.com",
      GITHUB_REPOSITORY: "acme/analytics-config",
      GITHUB_RUN_ID: "4242",
      RUNNER_TEMP: runnerTemp,
      ...setup.env,
      ...stepEnv,
    });
    result.stdout += run.stdout;
    result.stderr += run.stderr;
    const written = readFileSync(outputFile, "utf8");
    result.outputFiles += written;
    if (step.id) steps[step.id] = parseOutputFile(written);
    result.code = run.code;
  }
  for (const [name, spec] of Object.entries(action.outputs)) {
    result.outputs[name] = expand(spec.value, lookup);
  }
  return result;
}

/** Runs a script file with bash as `shell: bash` does; asynchronous, so an in-process emulator answers. */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd, env });
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
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}
