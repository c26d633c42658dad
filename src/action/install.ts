/**
 * The `version` input: installs that release of posthog-gitops from the npm registry into RUNNER_TEMP
 * (as the composite action did), so a workflow can pin the CLI apart from the action's own ref.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withoutInputs } from "./inputs.js";

export interface InstalledRelease {
  /** The version npm chose for the requested version or range. */
  version: string;
  bin: string;
}

/**
 * `npm install --prefix PREFIX posthog-gitops@VERSION`, its output on stderr. `version` has been checked
 * to name a registry release (inputs.ts). Install scripts are off: the CLI and its dependencies are
 * plain JavaScript, and no package's script should run with the job's secrets in reach. npm gets the
 * runner's environment (its registry and proxy settings) without the API key and the action's inputs.
 */
export async function installRelease(
  version: string,
  prefix: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<InstalledRelease> {
  const spec = `posthog-gitops@${version}`;
  const args = ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--ignore-scripts"];
  const npmEnv = installEnv(env);
  const windows = process.platform === "win32";
  // npm is a .cmd script on Windows, which only a shell runs; the spec is quoted for cmd.exe there.
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(windows ? "npm.cmd" : "npm", [...args, windows ? `"${spec}"` : spec], {
      env: npmEnv,
      shell: windows,
      stdio: ["ignore", process.stderr, process.stderr],
    });
    child.once("error", reject);
    child.once("close", (status) => resolve(status ?? 1));
  });
  if (code !== 0) throw new Error(`npm could not install ${spec} (exit ${code}); see npm's messages above`);
  const root = join(prefix, "node_modules", "posthog-gitops");
  const bin = join(root, "bin", "posthog-gitops.js");
  if (!existsSync(bin)) throw new Error(`${spec} has no bin/posthog-gitops.js`);
  const installed = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown };
  return { version: String(installed.version), bin };
}

/** npm's environment: the runner's, without POSTHOG_API_KEY and the action's INPUT_* variables. */
export function installEnv(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const { POSTHOG_API_KEY: _key, ...rest } = withoutInputs(env);
  return rest;
}
