/**
 * The few git commands drift detection needs, through one injectable runner: tests hand in a fake, the
 * CLI runs the `git` on PATH in the command's folder. Local reads only (rev-parse, show, ls-tree): no
 * fetch, nothing that reaches a network or writes to the repository.
 */
import { execFile } from "node:child_process";
import { UserError } from "../errors.js";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git ARGS` in the working folder; never throws for a non-zero exit (the code says it). */
export type GitRunner = (args: readonly string[]) => Promise<GitResult>;

/** The largest file or listing read from git (a configuration file is far smaller). */
const MAX_OUTPUT = 64 * 1_048_576;

/**
 * The system's git, run in `cwd` with the command's environment (less POSTHOG_*), never prompting, never taking
 * optional locks, with messages in the C locale (so an absent path is recognised by its wording).
 */
export function systemGit(cwd: string, env: Readonly<Record<string, string | undefined>>): GitRunner {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    // git needs none of the tool's own settings, and the key goes nowhere it is not needed.
    if (value !== undefined && !name.startsWith("POSTHOG_")) childEnv[name] = value;
  }
  Object.assign(childEnv, { GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", LANGUAGE: "C" });
  return (args) =>
    new Promise((resolve, reject) => {
      execFile(
        "git",
        [...args],
        { cwd, env: childEnv, maxBuffer: MAX_OUTPUT, encoding: "utf8", windowsHide: true },
        (error, stdout, stderr) => {
          if (error && typeof (error as NodeJS.ErrnoException).code === "string") {
            const code = (error as NodeJS.ErrnoException).code;
            reject(
              new UserError(
                code === "ENOENT"
                  ? "--base needs git, which is not installed or not on PATH"
                  : `--base: git could not be run (${code})`,
              ),
            );
            return;
          }
          const exit = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
          resolve({ code: Number.isInteger(exit) ? exit : 1, stdout, stderr });
        },
      );
    });
}
