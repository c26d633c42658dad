/**
 * The few git commands drift detection needs, through one injectable runner: tests hand in a fake, the
 * CLI runs the `git` on PATH in the command's folder. Local reads only (rev-parse, show, ls-tree): no
 * fetch, nothing that reaches a network or writes to the repository.
 *
 * The checkout is a pull request's: git must obey nothing it holds. So before the first command the
 * repository is found and checked (`checkoutRepository`): it must be the work tree's own `.git`. A
 * folder laid out like a bare repository (a `HEAD`, `objects/`, `refs/`, whose `config` git would
 * read) on the way up from the command's folder, or a `.git` file that points inside the checkout, is
 * refused with a clear error; git is then asked which repository it found and must agree, and every
 * later command is pinned to that repository (`GIT_DIR`, `GIT_WORK_TREE`). Every command runs
 * hardened (`HARDENING`, `hardenedEnv`): implicit bare repositories refused, no transport at all (so
 * no lazy fetch from a promisor remote, `--no-lazy-fetch` too where the installed git knows it), no
 * fsmonitor, hooks, pager, external diff or textconv.
 */
import { execFile } from "node:child_process";
import { lstat, open, realpath, stat } from "node:fs/promises";
import { devNull } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
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
 * Options before every command: configuration the checkout cannot override (the command line is
 * git's last word, and `safe.bareRepository` is read only from protected configuration such as it).
 */
export const HARDENING: readonly string[] = [
  "--no-pager",
  "--no-replace-objects",
  "-c",
  "safe.bareRepository=explicit",
  "-c",
  "protocol.allow=never",
  "-c",
  "core.fsmonitor=false",
  "-c",
  `core.hooksPath=${devNull}`,
  "-c",
  "core.pager=cat",
  "-c",
  "diff.external=",
  "-c",
  "core.sshCommand=false",
  "-c",
  "credential.helper=",
];

/**
 * Inherited variables that would choose another repository, object store, pager or diff program:
 * never passed on (the tool sets the repository itself once it is checked).
 */
const DROPPED = new Set([
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_REPLACE_REF_BASE",
  "GIT_SHALLOW_FILE",
  "GIT_EXTERNAL_DIFF",
  "GIT_DIFF_OPTS",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_ASKPASS",
  "GIT_PROXY_COMMAND",
  "GIT_PREFIX",
]);

/**
 * The command's environment for git: less POSTHOG_* (the key goes nowhere it is not needed) and the
 * variables above, never prompting, never taking optional locks, messages in the C locale (so an
 * absent path is recognised by its wording), no pager, no replace objects, no lazy fetch (git 2.44
 * and later) and no transport at all: GIT_ALLOW_PROTOCOL overrides every `protocol.*.allow` a
 * repository's configuration sets, which `-c protocol.allow=never` alone does not.
 */
export function hardenedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !name.startsWith("POSTHOG_") && !DROPPED.has(name)) childEnv[name] = value;
  }
  return Object.assign(childEnv, {
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_LAZY_FETCH: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_ALLOW_PROTOCOL: "none",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    LC_ALL: "C",
    LANGUAGE: "C",
  });
}

type Exec = (args: readonly string[], env: Record<string, string>) => Promise<GitResult>;

function execGit(cwd: string): Exec {
  return (args, env) =>
    new Promise((resolvePromise, reject) => {
      execFile(
        "git",
        [...args],
        { cwd, env, maxBuffer: MAX_OUTPUT, encoding: "utf8", windowsHide: true },
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
          resolvePromise({ code: Number.isInteger(exit) ? exit : 1, stdout, stderr });
        },
      );
    });
}

/** Whether the git on a PATH knows `--no-lazy-fetch` (2.44 and later), asked once per process and PATH. */
const lazyFetchOption = new Map<string, Promise<boolean>>();

function knowsNoLazyFetch(exec: Exec, env: Record<string, string>): Promise<boolean> {
  const path = env.PATH ?? "";
  let known = lazyFetchOption.get(path);
  if (known === undefined) {
    known = exec(["--no-lazy-fetch", "version"], env).then(
      (r) => r.code === 0,
      () => false,
    );
    lazyFetchOption.set(path, known);
  }
  return known;
}

/** The repository a checkout's own `.git` names, and its work tree. */
export interface CheckoutRepository {
  gitDir: string;
  workTree: string;
}

/** Whether `dir` holds what makes git take it for a repository's own folder (HEAD, objects/, refs/). */
async function looksLikeRepository(dir: string): Promise<boolean> {
  const kind = async (path: string) => {
    try {
      const info = await stat(path);
      return info.isDirectory() ? "dir" : info.isFile() ? "file" : "other";
    } catch {
      return "none";
    }
  };
  const [head, objects, refs] = await Promise.all([
    kind(join(dir, "HEAD")),
    kind(join(dir, "objects")),
    kind(join(dir, "refs")),
  ]);
  return head !== "none" && objects === "dir" && refs === "dir";
}

/** The start of a `.git` file (`gitdir: PATH`): a few hundred bytes at most are read. */
async function readGitFile(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Whether `path` is `dir` or under it. */
function inside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function real(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The repository git would use for `cwd`, found the way git looks for one (each folder from `cwd` up:
 * its `.git`, then the folder itself as a bare repository), without running git; a UserError when
 * what it finds is not a work tree's own `.git`: a folder laid out like a bare repository (its
 * `config` is a file of the checkout: git would run what it says), or a `.git` file or link that points
 * inside the checkout. Undefined when there is no repository at all.
 */
export async function checkoutRepository(cwd: string): Promise<CheckoutRepository | undefined> {
  let dir = resolve(cwd);
  for (let depth = 0; depth < 4096; depth++) {
    const dotGit = join(dir, ".git");
    let info: Awaited<ReturnType<typeof lstat>> | undefined;
    try {
      info = await lstat(dotGit);
    } catch {
      info = undefined;
    }
    if (info?.isDirectory()) return { gitDir: dotGit, workTree: dir };
    if (info !== undefined) {
      let target: string;
      if (info.isSymbolicLink()) target = await real(dotGit);
      else {
        const match = /^gitdir: *(.+?)\s*$/m.exec(await readGitFile(dotGit).catch(() => ""));
        if (match === null) {
          throw new UserError(
            `--base: ${dotGit} is neither a git folder nor a "gitdir:" file: git cannot be trusted with this checkout`,
          );
        }
        target = resolve(dir, match[1] as string);
      }
      const [tree, gitDir] = await Promise.all([real(dir), real(target)]);
      // Inside its own work tree, or inside the work tree of a checkout around it but not in that
      // checkout's .git (where a submodule's repository lives): files a change can write.
      const outer = await enclosing(dirname(dir));
      const checkout =
        outer !== undefined && inside(outer.workTree, gitDir) && !inside(outer.gitDir, gitDir)
          ? outer.workTree
          : inside(tree, gitDir)
            ? tree
            : undefined;
      if (checkout !== undefined) {
        throw new UserError(
          `--base: ${dotGit} points inside the checkout (${relative(checkout, gitDir) || "."}), to files a change can write: refusing to let git read its configuration`,
        );
      }
      return { gitDir, workTree: dir };
    }
    if (basename(dir) !== ".git" && (await looksLikeRepository(dir))) {
      throw new UserError(
        `--base: ${dir} is laid out like a bare git repository (HEAD, objects/, refs/): its config is a file of the checkout, which a change can write, so git is not run there; the work tree's own .git is the only repository --base reads`,
      );
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** The nearest work tree at or above `dir` (a folder with a `.git` folder, file or link), real paths. */
async function enclosing(dir: string): Promise<CheckoutRepository | undefined> {
  let at = resolve(dir);
  for (let depth = 0; depth < 4096; depth++) {
    const dotGit = join(at, ".git");
    const found = await lstat(dotGit).then(
      () => true,
      () => false,
    );
    if (found) {
      const gitDir = (await stat(dotGit).catch(() => undefined))?.isDirectory()
        ? await real(dotGit)
        : await readGitFile(dotGit).then(
            (text) => {
              const match = /^gitdir: *(.+?)\s*$/m.exec(text);
              return match === null ? real(dotGit) : real(resolve(at, match[1] as string));
            },
            () => real(dotGit),
          );
      return { gitDir, workTree: await real(at) };
    }
    const parent = dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
  return undefined;
}

/**
 * The system's git for `cwd`, hardened: the repository is checked once, before the first command
 * (`checkoutRepository`, then git's own answer, which must agree), and every command runs pinned to
 * it with `HARDENING` and `hardenedEnv`. A checkout that is no git repository at all is left to the
 * commands, which say so.
 */
export function systemGit(cwd: string, env: Readonly<Record<string, string | undefined>>): GitRunner {
  const exec = execGit(cwd);
  const base = hardenedEnv(env);
  let ready: Promise<{ env: Record<string, string>; options: string[] }> | undefined;
  const prepare = async () => {
    const options = [...((await knowsNoLazyFetch(exec, base)) ? ["--no-lazy-fetch"] : []), ...HARDENING];
    const found = await checkoutRepository(cwd);
    if (found === undefined) return { env: base, options };
    const asked = await exec([...options, "rev-parse", "--absolute-git-dir", "--show-toplevel"], base);
    if (asked.code !== 0) {
      const line = asked.stderr.trim().split("\n")[0] ?? "";
      throw new UserError(`--base: git refused the repository of ${cwd}${line === "" ? "" : `: ${line}`}`);
    }
    const [gitDir = "", top = ""] = asked.stdout.trim().split("\n");
    const [saidDir, saidTop, ownDir, ownTop] = await Promise.all([
      real(gitDir),
      real(top),
      real(found.gitDir),
      real(found.workTree),
    ]);
    if (saidDir !== ownDir || saidTop !== ownTop) {
      throw new UserError(
        `--base: git found the repository ${saidDir} (work tree ${saidTop}), not the work tree's own .git (${ownDir}): refusing to read it`,
      );
    }
    return { env: { ...base, GIT_DIR: ownDir, GIT_WORK_TREE: ownTop }, options };
  };
  return async (args) => {
    ready ??= prepare();
    const { env: childEnv, options } = await ready;
    return exec([...options, ...args], childEnv);
  };
}
