/**
 * The action's inputs (action.yml), read and checked before anything runs, and the environment the CLI
 * gets from them. Pure: the entry point hands in how to read an input and the runner's environment.
 */

export type ActionCommand = "validate" | "plan" | "apply" | "promote";

export interface ActionInputs {
  command: ActionCommand;
  /** Configuration files or folders, relative to `workingDirectory`; none means the CLI's default. */
  paths: string[];
  /** Connection settings: empty means "keep the job's own POSTHOG_* variable". */
  host: string;
  project: string;
  apiKey: string;
  /**
   * With environments declared (SPEC §9): which to plan or apply (`--env`); empty for every one
   * (`plan`) or the only one; `["all"]` for every one, in `promote_from` order.
   */
  environments: string[];
  /** Each environment's key by the variable its entry names (`api_key_env`), handed to the CLI. */
  apiKeys: Record<string, string>;
  /**
   * `promote`: the environment whose live edits are carried into the shared files; `environments`
   * then names at most one, the environment to plan (default: the one promoted from it).
   */
  promoteFrom: string;
  prune: boolean;
  /** `--undeclared` for plan: also list, read-only, the live objects no file declares. */
  undeclared: boolean;
  /** `--base` for plan: the git revision drift is named against; empty for none. */
  base: string;
  /**
   * `--changed-only` (needs `base`): plan (and apply) only the change since `base`; every other
   * object is left as it is live.
   */
  changedOnly: boolean;
  comment: boolean;
  commentHeader: string;
  githubToken: string;
  workingDirectory: string;
  /** Empty: the CLI bundled with the action; else an npm version, range or dist-tag of posthog-gitops. */
  version: string;
}

/** Every input action.yml declares, in its order (a test holds the two together). */
export const INPUT_NAMES = [
  "command",
  "paths",
  "environments",
  "promote-from",
  "host",
  "project",
  "api-key",
  "api-keys",
  "prune",
  "undeclared",
  "base",
  "changed-only",
  "comment",
  "comment-header",
  "github-token",
  "working-directory",
  "version",
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

/** An input the action cannot run with; the message names the input and stands alone. */
export class InputError extends Error {
  override name = "InputError";
}

/**
 * Reads the inputs. `read(name, trim)` returns the raw value ("" when not given), trimmed unless
 * `trim` is false. Throws InputError for the first input that is not usable.
 */
export function readInputs(read: (name: InputName, trim: boolean) => string): ActionInputs {
  const get = (name: InputName) => read(name, true);
  const command = get("command");
  if (command !== "validate" && command !== "plan" && command !== "apply" && command !== "promote") {
    throw new InputError("input command must be validate, plan, apply or promote");
  }
  const prune = get("prune");
  if (prune !== "true" && prune !== "false" && prune !== "") {
    throw new InputError("input prune must be true or false");
  }
  const undeclared = get("undeclared");
  if (undeclared !== "true" && undeclared !== "false" && undeclared !== "") {
    throw new InputError("input undeclared must be true or false");
  }
  // Untrimmed: one path followed by a newline still means "one path per line" (it may hold spaces).
  const paths = splitPaths(read("paths", false));
  const base = get("base");
  if (base.startsWith("-") || /[\r\n\0]/.test(base)) {
    throw new InputError("input base must be a git revision such as HEAD^1 or origin/main, or empty");
  }
  const changedOnly = get("changed-only");
  if (changedOnly !== "true" && changedOnly !== "false" && changedOnly !== "") {
    throw new InputError("input changed-only must be true or false");
  }
  if (changedOnly === "true" && base === "") {
    throw new InputError("input changed-only needs input base: the revision the change is measured from");
  }
  const environments = get("environments")
    .split(/\s+/)
    .filter((name) => name !== "");
  for (const name of environments) {
    if (!ENVIRONMENT_NAME.test(name)) {
      throw new InputError(
        "input environments must be environment names (letters, digits, - and _) separated by spaces or lines, or all",
      );
    }
  }
  if (environments.includes("all") && environments.length > 1) {
    throw new InputError("input environments: all means every environment; name no other with it");
  }
  const promoteFrom = get("promote-from");
  if (command === "promote") {
    if (!ENVIRONMENT_NAME.test(promoteFrom)) {
      throw new InputError("input promote-from must name the environment to promote from (command promote)");
    }
    if (environments.length > 1 || environments.includes("all")) {
      throw new InputError(
        "input environments: promote plans one environment (default: the one promoted from promote-from)",
      );
    }
  } else if (promoteFrom !== "") {
    throw new InputError("input promote-from is for command promote");
  }
  const apiKeys = readApiKeys(read("api-keys", false));
  const version = get("version");
  if (version !== "" && !VERSION_SPEC.test(version)) {
    throw new InputError(
      'input version must be an npm version, range or tag of posthog-gitops (e.g. "0.1.0" or "^0.1"), or empty',
    );
  }
  return {
    command,
    paths,
    host: get("host"),
    project: get("project"),
    apiKey: get("api-key"),
    environments,
    apiKeys,
    promoteFrom,
    prune: prune === "true",
    undeclared: undeclared === "true",
    base,
    changedOnly: changedOnly === "true",
    // As the composite action's `inputs.comment == 'true'`: GitHub compares strings ignoring case.
    comment: get("comment").toLowerCase() === "true",
    commentHeader: get("comment-header"),
    githubToken: get("github-token"),
    workingDirectory: get("working-directory") || ".",
    version,
  };
}

/** An environment's name as an input may give it. */
const ENVIRONMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

/**
 * `api-keys`: one `VARIABLE=key` a line (blank lines skipped), the variable an environment's entry names
 * as its `api_key_env`. A message never shows a value: it may be a key.
 */
export function readApiKeys(text: string): Record<string, string> {
  const keys: Record<string, string> = {};
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const at = line.indexOf("=");
    const name = at < 0 ? "" : line.slice(0, at).trim();
    const value = at < 0 ? "" : line.slice(at + 1).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || value === "") {
      throw new InputError(
        `input api-keys, line ${i + 1}: write VARIABLE=key, one a line (the variable an environment's api_key_env names)`,
      );
    }
    if (/^(POSTHOG_HOST|POSTHOG_PROJECT_ID|GITHUB_.*|INPUT_.*|RUNNER_.*|PATH|NODE_OPTIONS)$/i.test(name)) {
      throw new InputError(`input api-keys, line ${i + 1}: ${name} is not a variable for a key`);
    }
    keys[name] = value;
  });
  return keys;
}

/** Every value `api-keys` holds, however its lines are written: what the entry point masks first. */
export function apiKeyValues(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.slice(line.indexOf("=") + 1).trim())
    .filter((value) => value !== "");
}

/**
 * A version, a range (`^0.1`, `>=0.1.0 <0.2`, `0.1.x || 0.2.x`) or a dist-tag: never a URL, a path or a
 * git spec (no `:`, `/`, `@` or quotes), so `posthog-gitops@VERSION` can only name a registry release.
 */
const VERSION_SPEC = /^[0-9A-Za-z^~<>=*][0-9A-Za-z.^~<>=|*+ -]{0,99}$/;

/**
 * Paths as the composite action split them: one per line when the value has several lines (blank lines
 * skipped, each line trimmed, so paths may hold spaces), else separated by blanks.
 */
export function splitPaths(text: string): string[] {
  const parts = text.includes("\n") ? text.split("\n").map((line) => line.trim()) : text.split(/[ \t]+/);
  return parts.filter((part) => part !== "");
}

/**
 * The CLI's environment: the runner's, without the action's own INPUT_* variables (the CLI is not the
 * action), and with each connection setting only when given, so the job's own POSTHOG_* values stay in
 * force otherwise. The API key goes to the CLI here and nowhere else.
 */
export function cliEnv(
  runner: Readonly<Record<string, string | undefined>>,
  inputs: Pick<ActionInputs, "host" | "project" | "apiKey"> & Partial<Pick<ActionInputs, "apiKeys">>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = withoutInputs(runner);
  if (inputs.host !== "") env.POSTHOG_HOST = inputs.host;
  if (inputs.project !== "") env.POSTHOG_PROJECT_ID = inputs.project;
  if (inputs.apiKey !== "") env.POSTHOG_API_KEY = inputs.apiKey;
  for (const [name, value] of Object.entries(inputs.apiKeys ?? {})) env[name] = value;
  return env;
}

/** The runner's environment without INPUT_* (where the runner hands the action its inputs, the key too). */
export function withoutInputs(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith("INPUT_")));
}
