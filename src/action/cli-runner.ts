/**
 * How the action runs posthog-gitops: the CLI bundled with it, in this process (`main()` with an `Io`
 * whose stdout is captured when asked), or a release installed from the registry, as a child process.
 * Either way the CLI prints its own annotations, errors and job summary, exactly as on a terminal.
 */
import { spawn } from "node:child_process";
import { main } from "../cli.js";
import type { Io } from "../io.js";
import { processIo } from "../process-io.js";

export interface CliResult {
  /** The CLI's exit code (with --detailed-exitcode, 2 means changes). */
  code: number;
  /** What it printed on stdout, when captured; else "" (it went to the log). */
  stdout: string;
}

export interface Cli {
  /** e.g. "posthog-gitops 0.1.0, bundled with the action". */
  readonly label: string;
  run(args: readonly string[], options?: { captureStdout?: boolean }): Promise<CliResult>;
}

/** The CLI built into the action's bundle, run in this process with `env` and working folder `cwd`. */
export function bundledCli(version: string, env: Record<string, string | undefined>, cwd: string): Cli {
  return {
    label: `posthog-gitops ${version}, bundled with the action`,
    async run(args, options = {}) {
      let stdout = "";
      const io: Io = { ...processIo(env), cwd };
      // Never a prompt in a workflow: apply runs with --auto-approve.
      delete io.confirm;
      if (options.captureStdout) {
        io.stdout = {
          write: (text) => {
            stdout += text;
          },
          isTTY: false,
        };
      }
      const code = await main(["node", "posthog-gitops", ...args], env, io);
      return { code, stdout };
    },
  };
}

/**
 * A release's `bin/posthog-gitops.js`, run with this Node.js as a child process. SIGINT / SIGTERM sent
 * to the action (a cancelled job) are passed on, so an apply stops the way it does on a terminal.
 */
export function installedCli(
  label: string,
  bin: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Cli {
  return {
    label,
    run(args, options = {}) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [bin, ...args], {
          cwd,
          env,
          stdio: ["ignore", options.captureStdout ? "pipe" : "inherit", "inherit"],
        });
        let stdout = "";
        child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
          stdout += chunk;
        });
        const pass = (signal: NodeJS.Signals) => child.kill(signal);
        process.on("SIGINT", pass).on("SIGTERM", pass);
        child.once("error", (error) => {
          process.off("SIGINT", pass).off("SIGTERM", pass);
          reject(error);
        });
        child.once("close", (code, signal) => {
          process.off("SIGINT", pass).off("SIGTERM", pass);
          resolve({ code: code ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 1), stdout });
        });
      });
    },
  };
}
