/**
 * Drift, named. There is no state file: git is the memory. With `--base REF`, an action is drift when
 * its object's declaration is the same at REF and in the working tree, so what the plan changes was
 * changed on the service, not in the files (an edit in the UI, a deleted export, a dashboard created
 * by hand and now pruned). The reviewer of a pull request needs to tell those from the pull request's
 * own changes: applying reverts them.
 *
 * "The same declaration" compares parsed YAML, not text: the object's item in its file (found by the
 * position the loader recorded; at REF, the item of the same kind with the same pinned `id`, else the
 * same `name`, in the same file), and the file's own settings outside the kinds' lists (`project:`,
 * `variables:`, …). Comments and formatting do not count. A file or item absent at REF is a change of
 * the pull request, never drift. An object no file declares (a prune) is drift when no YAML file under
 * the configuration paths declared it at REF either (same kind, same name or id).
 *
 * Refused, as one clear error before anything is labelled: a folder outside a git repository, a REF
 * git does not know (in a shallow clone, fetch it first), a REF that looks like an option, a file
 * outside the repository. Everything is read locally with `git rev-parse`, `git ls-tree` and
 * `git show`; nothing is fetched.
 */

import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import pLimit from "p-limit";
import { Diagnostics } from "../config/diagnostics.js";
import { parseYaml } from "../config/parse.js";
import { UserError } from "../errors.js";
import { lastModified } from "../plan/modified.js";
import type { Action, LiveProject, Plan } from "../plan/types.js";
import { deepEqual } from "../plan/values.js";
import type { GitRunner } from "./git.js";
import { filesAt, type RevisionFiles, showAt } from "./tree.js";

export { type GitResult, type GitRunner, systemGit } from "./git.js";

/** What drift detection needs of a kind: its name in plans and its list key in the files. */
export interface DriftKind {
  readonly name: string;
  readonly key: string;
}

export interface DriftOptions {
  kinds: readonly DriftKind[];
  /** The revision to compare with, as the user gave it (`origin/main`, `HEAD`, a sha). */
  base: string;
  git: GitRunner;
  /** The command's folder: declaration files are relative to it. */
  cwd: string;
  /** The configuration paths given to the command (default `posthog`), for what REF declared. */
  paths: readonly string[];
  /** The live state the plan was made from, for when the service last modified an object. */
  live: readonly LiveProject[];
  /** Reads a working-tree file (default: from disk). */
  readText?: (absolute: string) => Promise<string>;
}

/** One YAML file, parsed: its data and where each list item starts. */
interface Parsed {
  data: Record<string, unknown>;
  /** The 1-based line and column where the item at `/<key>/<i>` starts. */
  at(key: string, index: number): { line: number; column: number } | undefined;
}

/**
 * The commit `base` names, after checking that the folder is in a git repository and that git knows
 * the revision here; a UserError otherwise. Called before the service is read, so a wrong `--base`
 * costs no request.
 */
export async function resolveBase(git: GitRunner, base: string, cwd: string): Promise<string> {
  if (base.trim() === "" || base.startsWith("-")) {
    throw new UserError(`--base ${JSON.stringify(base)} is not a git revision`);
  }
  const top = await git(["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) {
    throw new UserError(`--base needs a git repository, and ${cwd} is not in one`);
  }
  const sha = await git(["rev-parse", "--verify", "--quiet", `${base}^{commit}`]);
  const commit = sha.stdout.trim();
  if (sha.code !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) {
    throw new UserError(
      `--base ${base}: git does not know this revision here (in a shallow clone, fetch it first, e.g. \`git fetch origin main\`, or check out with fetch-depth: 0)`,
    );
  }
  return commit;
}

/**
 * The plan with `base` set and `drift` (and `modified`, where the service says) on drifted actions.
 * `commit` is `resolveBase`'s answer, when it was asked already.
 */
export async function labelDrift(plan: Plan, options: DriftOptions & { commit?: string }): Promise<Plan> {
  const { base } = options;
  const commit = options.commit ?? (await resolveBase(options.git, base, options.cwd));
  const files = new FileCache(options, commit);
  const keyOf = new Map(options.kinds.map((k) => [k.name, k.key]));
  const limit = pLimit(8);
  const verdicts = new Map<string, Promise<boolean>>();
  const drifted = (action: Action): Promise<boolean> => {
    const key = objectId(action);
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      const kindKey = keyOf.get(action.object.kind);
      verdict =
        kindKey === undefined
          ? Promise.resolve(false)
          : limit(() =>
              action.object.source === undefined
                ? undeclaredAtBase(action, kindKey, files)
                : sameDeclaration(action, kindKey, files),
            );
      verdicts.set(key, verdict);
    }
    return verdict;
  };
  const flags = await Promise.all(plan.actions.map(drifted));
  const actions = plan.actions.map((action, i) => {
    if (!flags[i]) return action;
    const labelled: Action = { ...action, drift: true };
    const modified = lastModified(action, options.live);
    if (modified !== undefined) labelled.modified = modified;
    return labelled;
  });
  return { ...plan, actions, base };
}

function objectId(action: Action): string {
  const o = action.object;
  return JSON.stringify([o.project, o.kind, o.name, o.id ?? null, o.source?.file ?? null]);
}

/** Working-tree and base versions of files, each read and parsed once. */
class FileCache {
  readonly #options: DriftOptions;
  readonly #at: RevisionFiles;
  /** Every kind's list key: what is not a file's own setting. */
  readonly listKeys: ReadonlySet<string>;
  readonly #now = new Map<string, Promise<Parsed | undefined>>();
  readonly #base = new Map<string, Promise<Parsed | undefined>>();
  #baseFiles: Promise<string[]> | undefined;

  constructor(options: DriftOptions, commit: string) {
    this.#options = options;
    this.#at = { git: options.git, commit, base: options.base, cwd: options.cwd };
    this.listKeys = new Set(options.kinds.map((k) => k.key));
  }

  /** The file as the loader read it (relative to the command's folder, or absolute). */
  now(file: string): Promise<Parsed | undefined> {
    let parsed = this.#now.get(file);
    if (parsed === undefined) {
      const absolute = resolve(this.#options.cwd, file);
      const read = this.#options.readText ?? ((path: string) => readFile(path, "utf8"));
      parsed = read(absolute).then(
        (text) => parse(file, text),
        () => undefined,
      );
      this.#now.set(file, parsed);
    }
    return parsed;
  }

  /** The file at the base revision; undefined when it did not exist there. */
  base(file: string): Promise<Parsed | undefined> {
    let parsed = this.#base.get(file);
    if (parsed === undefined) {
      parsed = showAt(this.#at, file).then((text) => (text === undefined ? undefined : parse(file, text)));
      this.#base.set(file, parsed);
    }
    return parsed;
  }

  /** The YAML files under the configuration paths at the base revision, relative to the command's folder. */
  baseFiles(): Promise<string[]> {
    this.#baseFiles ??= filesAt(this.#at, this.#options.paths).then((files) => files.map((f) => f.path));
    return this.#baseFiles;
  }
}

function parse(file: string, text: string): Parsed | undefined {
  const parsed = parseYaml(file, text, new Diagnostics());
  const data = parsed?.data;
  if (parsed === undefined || typeof data !== "object" || data === null || Array.isArray(data))
    return undefined;
  return {
    data: data as Record<string, unknown>,
    at: (key, index) => {
      const place = parsed.place(`/${escapePointer(key)}/${index}`);
      return place === undefined ? undefined : parsed.position(place.value);
    },
  };
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The file's own settings: every top-level key but the kinds' lists. */
function settings(parsed: Parsed, listKeys: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(parsed.data).filter(([key]) => !listKeys.has(key)));
}

function items(parsed: Parsed, key: string): unknown[] {
  const list = parsed.data[key];
  return Array.isArray(list) ? list : [];
}

function field(item: unknown, name: string): unknown {
  return typeof item === "object" && item !== null && !Array.isArray(item)
    ? (item as Record<string, unknown>)[name]
    : undefined;
}

/** A declared object: drift when its item and its file's settings are the same at the base. */
async function sameDeclaration(action: Action, kindKey: string, files: FileCache): Promise<boolean> {
  const source = action.object.source!;
  const now = await files.now(source.file);
  if (now === undefined) return false;
  const list = items(now, kindKey);
  const index = list.findIndex((_item, i) => {
    const at = now.at(kindKey, i);
    return at !== undefined && at.line === source.line && at.column === source.column;
  });
  const fallback =
    index >= 0 ? index : list.findIndex((_item, i) => now.at(kindKey, i)?.line === source.line);
  if (fallback < 0) return false;
  const item = list[fallback];
  const base = await files.base(source.file);
  if (base === undefined) return false;
  const id = field(item, "id");
  const name = field(item, "name");
  const before = items(base, kindKey).find((candidate) =>
    id !== undefined ? deepEqual(field(candidate, "id"), id) : deepEqual(field(candidate, "name"), name),
  );
  if (before === undefined || !deepEqual(before, item)) return false;
  const listKeys = files.listKeys;
  return deepEqual(settings(base, listKeys), settings(now, listKeys));
}

/** An object no file declares now: drift when no file under the paths declared it at the base either. */
async function undeclaredAtBase(action: Action, kindKey: string, files: FileCache): Promise<boolean> {
  const liveName = typeof action.before?.name === "string" ? action.before.name : action.object.name;
  const names = new Set([liveName, action.object.name]);
  const id = action.object.id;
  for (const file of await files.baseFiles()) {
    const base = await files.base(file);
    if (base === undefined) continue;
    const declared = items(base, kindKey).some((item) => {
      const itemName = field(item, "name");
      return (
        (typeof itemName === "string" && names.has(itemName)) ||
        (id !== undefined && field(item, "id") === id)
      );
    });
    if (declared) return false;
  }
  return true;
}
