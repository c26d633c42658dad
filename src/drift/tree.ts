/**
 * Reading the configuration files as they are at a git revision: the YAML files under the given
 * paths (with their blob ids, to tell changed files from unchanged ones without reading them) and one
 * file's text. Paths are as the loader shows them (relative to the command's folder), so a file at the
 * revision and in the working tree are named alike.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { LimitFunction } from "p-limit";
import { displayPath } from "../config/read.js";
import { UserError } from "../errors.js";
import type { GitRunner } from "./git.js";

/** The configuration paths used when none are given. */
export const DEFAULT_PATHS = ["posthog"];

/** One YAML file in the tree of a revision. */
export interface TreeFile {
  /** As the loader shows it: relative to the command's folder, with `/`. */
  path: string;
  /** The git object id of its content (sha1 or sha256, as the repository uses). */
  blob: string;
  /** True for a symbolic link (its "content" in git is the link's target, not YAML). */
  link: boolean;
}

export interface RevisionFiles {
  readonly git: GitRunner;
  /** The commit, as resolved. */
  readonly commit: string;
  /** The revision as the user gave it, for messages. */
  readonly base: string;
  /** The command's folder. */
  readonly cwd: string;
}

/**
 * The YAML files under `paths` at the revision, as the loader would find them there: `.yaml` / `.yml`,
 * folders starting with a dot skipped (a file named outright is taken as it is).
 */
export async function filesAt(at: RevisionFiles, paths: readonly string[]): Promise<TreeFile[]> {
  const roots = (paths.length > 0 ? paths : DEFAULT_PATHS).map((p) => resolve(at.cwd, p));
  const listed = await at.git([
    "ls-tree",
    "-r",
    "-z",
    at.commit,
    "--",
    ...roots.map((r) => gitPath(at.cwd, r)),
  ]);
  if (listed.code !== 0) throw gitFailure(`listing the files of ${at.base}`, listed.stderr);
  const files = new Map<string, TreeFile>();
  for (const entry of listed.stdout.split("\0")) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (match === null || match[2] !== "blob") continue;
    const absolute = resolve(at.cwd, match[4] as string);
    if (!/\.ya?ml$/i.test(absolute) || !roots.some((root) => found(root, absolute))) continue;
    const path = displayPath(absolute, at.cwd);
    files.set(path, { path, blob: match[3] as string, link: match[1] === "120000" });
  }
  return [...files.values()];
}

/** Whether the loader, given `root`, reads `file`: the root itself, or under it outside dot-folders. */
function found(root: string, file: string): boolean {
  if (file === root) return true;
  const rel = relative(root, file);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return false;
  return !rel
    .split(sep)
    .slice(0, -1)
    .some((part) => part.startsWith("."));
}

/** The text of `file` at the revision; undefined when it did not exist there. */
export async function showAt(at: RevisionFiles, file: string): Promise<string | undefined> {
  // The blob as committed: no textconv or external diff program a configuration could name.
  const shown = await at.git([
    "show",
    `${at.commit}:${gitPath(at.cwd, file)}`,
    "--no-textconv",
    "--no-ext-diff",
  ]);
  if (shown.code === 0) return shown.stdout;
  if (/does not exist in|exists on disk, but not in|not in '|path '.*' does not exist/i.test(shown.stderr)) {
    return undefined;
  }
  if (/outside repository/i.test(shown.stderr)) {
    throw new UserError(`--base: ${file} is outside the git repository, so its base version cannot be read`);
  }
  throw gitFailure(`reading ${file} at ${at.base}`, shown.stderr);
}

/** The id git gives a blob with these bytes (sha1 or sha256, as the repository's commit ids are). */
export function blobId(bytes: Uint8Array, algorithm: "sha1" | "sha256"): string {
  return createHash(algorithm).update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/** A working-tree file that the revision holds too: its text, and whether the revision's blob is the same. */
export interface WorkingFile {
  text: string;
  same: boolean;
}

/**
 * Each of `files` (working-tree paths, as the loader shows them) that the revision holds, hashed as
 * git hashes blobs and compared with the revision's blob id: an unchanged file costs no git command
 * (its text at the revision is the working tree's). A file new in the working tree is not read.
 */
export async function workingFiles(
  at: RevisionFiles,
  files: readonly string[],
  before: ReadonlyMap<string, TreeFile>,
  limit: LimitFunction,
  read: (absolute: string) => Promise<Uint8Array> = (path) => readFile(path),
): Promise<Map<string, WorkingFile>> {
  const algorithm = at.commit.length === 64 ? "sha256" : "sha1";
  const out = new Map<string, WorkingFile>();
  await Promise.all(
    files.map((file) =>
      limit(async () => {
        const old = before.get(file);
        if (old === undefined) return;
        const bytes = await read(resolve(at.cwd, file));
        const same = !old.link && blobId(bytes, algorithm) === old.blob;
        out.set(file, { text: new TextDecoder().decode(bytes), same });
      }),
    ),
  );
  return out;
}

/** `./posthog/a.yaml`: a path git reads relative to the command's folder. */
export function gitPath(cwd: string, file: string): string {
  const rel = isAbsolute(file) ? relative(cwd, file) : file;
  const posix = rel.split(sep).join("/");
  return posix.startsWith("../") || posix.startsWith("./") ? posix : `./${posix}`;
}

export function gitFailure(what: string, stderr: string): UserError {
  const line = stderr.trim().split("\n")[0] ?? "";
  return new UserError(`--base: git failed ${what}${line === "" ? "" : `: ${line}`}`);
}
