/**
 * The change from a git revision to the working tree, in declarations (SPEC §3 "Change-scoped plans"):
 * what `plan --base REF --changed-only` reads and plans. A declaration is
 *
 * - **added** when REF declared nothing with its identity (same project and kind, same pinned `id`,
 *   else the same name: an object renamed without a pin is an added name and a removed one);
 * - **modified** when REF declared it otherwise (a rename through its pin is one);
 * - **tombstoned** when it now says `deleted: true` and did not;
 * - **removed** when REF declared it and nothing does now (it stays live as it is: nothing prunes).
 *
 * Declarations are compared as the loader makes them (interpolated and normalised: comments, layout
 * and the order of a set never count), each side loaded with the same environment and project
 * default. Only files whose content differs are read at REF: a working-tree file is hashed as git
 * hashes blobs and compared with REF's blob id, so an unchanged file costs no git command.
 *
 * A file whose own settings differ (`project`, `ignore`, `variables`: they change every declaration
 * of the file, or what prune spares), or whose version at REF does not load or is a symbolic link, is
 * `unsure`: all its declarations count as changed, and a plan reads the whole project instead (the
 * answer says why). Nothing here reaches the service.
 */
import pLimit from "p-limit";
import { Diagnostics } from "../config/diagnostics.js";
import type { ConfigKind } from "../config/kinds.js";
import { type LoadOptions, loadConfig } from "../config/load.js";
import { parseYaml } from "../config/parse.js";
import { SecretValue } from "../config/secret.js";
import type { Declared, DesiredProject, SourceRef } from "../config/types.js";
import { canonicalJson, isPlainObject } from "../plan/values.js";
import type { GitRunner } from "./git.js";
import { filesAt, type RevisionFiles, showAt, type TreeFile, workingFiles } from "./tree.js";

export type ChangeStatus = "added" | "modified" | "tombstoned";

/** A declaration REF had and the working tree has not. */
export interface RemovedDeclaration {
  project: number | undefined;
  kind: string;
  name: string;
  id?: number | string;
  /** Where REF declared it. */
  source: SourceRef;
}

export interface Changes {
  /** The working tree's declarations that changed (the loader's own objects), with how. */
  changed: Map<Declared, ChangeStatus>;
  removed: RemovedDeclaration[];
  /**
   * Why some file's change cannot be told declaration by declaration (the first such file's reason):
   * its own settings changed, or REF's version is a link or does not load. Every declaration of such
   * a file counts as changed; a plan reads the whole project instead (SPEC §3).
   */
  unsure?: string;
}

export interface ChangeOptions {
  kinds: readonly ConfigKind[];
  /** The revision as the user gave it, and as resolved (`resolveBase`). */
  base: string;
  commit: string;
  git: GitRunner;
  /** The command's folder: the files' paths are relative to it. */
  cwd: string;
  /** The configuration paths given to the command (default `posthog`). */
  paths: readonly string[];
  /** The working tree's configuration, as the command loaded it. */
  desired: { projects: readonly DesiredProject[]; files: readonly string[] };
  /** How the working tree was loaded (environment, project default): REF's files load the same way. */
  load: Pick<LoadOptions, "env" | "defaultProject" | "defaultProjectFrom">;
  /** Reads a working-tree file's bytes (default: from disk). */
  readBytes?: (absolute: string) => Promise<Uint8Array>;
}

export async function changesSince(options: ChangeOptions): Promise<Changes> {
  const at: RevisionFiles = {
    git: options.git,
    commit: options.commit,
    base: options.base,
    cwd: options.cwd,
  };
  const before = new Map((await filesAt(at, options.paths)).map((f) => [f.path, f]));
  const limit = pLimit(8);
  const working = await workingFiles(at, options.desired.files, before, limit, options.readBytes);
  // Files whose declarations may differ: changed in the working tree (with their text, for their
  // settings), new in it, and gone from it.
  const changedNow = new Map<string, string | undefined>();
  for (const file of options.desired.files) {
    const here = working.get(file);
    if (here === undefined) changedNow.set(file, undefined);
    else if (!here.same) changedNow.set(file, here.text);
  }
  const current = new Set(options.desired.files);
  const readAtBase: TreeFile[] = [
    ...[...changedNow.keys()].flatMap((file) => before.get(file) ?? []),
    ...[...before.values()].filter((f) => !current.has(f.path)),
  ];
  // Files whose change cannot be told declaration by declaration: every declaration they hold counts.
  const unsure = new Map<string, string>();
  for (const f of readAtBase)
    if (f.link) unsure.set(f.path, `${f.path} is a symbolic link at ${options.base}`);
  const texts = await Promise.all(
    readAtBase
      .filter((f) => !f.link)
      .map((f) => limit(async () => ({ path: f.path, text: (await showAt(at, f.path)) ?? "" }))),
  );
  for (const [file, why] of changedSettings(options, texts, changedNow)) unsure.set(file, why);
  const load = (files: ReadonlyArray<{ path: string; text: string }>) =>
    loadConfig({ files }, { ...options.load, cwd: options.cwd, kinds: options.kinds, mode: "plan" });
  let old = await load(texts);
  if (old.diagnostics.some((d) => d.severity === "error")) {
    // A rule across files (a tile's insight declared in another file) fails on the changed files
    // alone: load REF whole, the unchanged files as the working tree has them (the same blobs).
    const same = options.desired.files.flatMap((file) => {
      const here = working.get(file);
      return here?.same === true ? [{ path: file, text: here.text }] : [];
    });
    old = await load([...texts, ...same]);
  }
  for (const problem of old.diagnostics) {
    if (problem.severity !== "error" || unsure.has(problem.file)) continue;
    const where = problem.line > 0 ? `${problem.file}:${problem.line}:${problem.column}` : problem.file;
    unsure.set(problem.file, `${where} does not load at ${options.base}: ${problem.message}`);
  }
  const changes = compareDeclarations(
    options.kinds,
    options.desired.projects,
    old.projects,
    new Set(changedNow.keys()),
    new Set(readAtBase.map((f) => f.path)),
    new Set(unsure.keys()),
  );
  const first = [...unsure.keys()].sort()[0];
  return first === undefined ? changes : { ...changes, unsure: unsure.get(first) as string };
}

/**
 * The files whose own settings (their top-level keys other than the kinds' lists) differ between REF
 * and the working tree, each with what differs in words. A new or a removed file changes none: its
 * declarations are all added or all removed.
 */
function changedSettings(
  options: ChangeOptions,
  texts: ReadonlyArray<{ path: string; text: string }>,
  changedNow: ReadonlyMap<string, string | undefined>,
): Map<string, string> {
  const lists = new Set(options.kinds.map((k) => k.key));
  const own = (path: string, text: string | undefined) => {
    const data = text === undefined ? undefined : parseYaml(path, text, new Diagnostics())?.data;
    if (!isPlainObject(data)) return undefined;
    return Object.fromEntries(Object.entries(data).filter(([key]) => !lists.has(key)));
  };
  const changed = new Map<string, string>();
  for (const { path, text } of texts) {
    const then = own(path, text);
    const now = own(path, changedNow.get(path));
    if (then === undefined || now === undefined) continue;
    const keys = [...new Set([...Object.keys(then), ...Object.keys(now)])].sort();
    const differ = keys.filter((key) => canonicalJson(then[key]) !== canonicalJson(now[key]));
    if (differ.length > 0) {
      const named = differ.map((k) => `\`${k}\``).join(", ");
      changed.set(path, `${named} of ${path} changed since ${options.base}`);
    }
  }
  return changed;
}

/**
 * Matches REF's declarations of the changed files to the working tree's, per project and kind: by
 * pinned id, else by name (never two different pins); then says how each changed.
 */
export function compareDeclarations(
  kinds: readonly ConfigKind[],
  now: readonly DesiredProject[],
  then: readonly DesiredProject[],
  changedFiles: ReadonlySet<string>,
  changedAtBase: ReadonlySet<string>,
  unsureFiles: ReadonlySet<string>,
): Changes {
  const changed = new Map<Declared, ChangeStatus>();
  const removed: RemovedDeclaration[] = [];
  const projects = new Set([...now, ...then].map((p) => p.project));
  for (const project of projects) {
    for (const kind of kinds) {
      const declared = (side: readonly DesiredProject[]) =>
        side.filter((p) => p.project === project).flatMap((p) => p.objects[kind.name] ?? []);
      // REF's declarations in the files that changed or are gone (an unchanged file declares the same).
      const candidates = declared(then).filter((d) => changedAtBase.has(d.source.file));
      // An unchanged file declares the same at REF: only the changed files' declarations pair up.
      const mine = declared(now).filter((d) => changedFiles.has(d.source.file));
      const counterpart = pairUp(mine, candidates);
      for (const declared of mine) {
        const old = counterpart.get(declared);
        if (old === undefined) changed.set(declared, "added");
        else if (declared.deleted && !old.deleted) changed.set(declared, "tombstoned");
        else if (unsureFiles.has(declared.source.file) || comparable(declared) !== comparable(old)) {
          changed.set(declared, "modified");
        }
      }
      const kept = new Set(counterpart.values());
      for (const old of candidates) {
        if (kept.has(old)) continue;
        removed.push({
          project,
          kind: kind.name,
          name: old.name,
          ...(old.id !== undefined ? { id: old.id } : {}),
          source: old.source,
        });
      }
    }
  }
  return { changed, removed };
}

/** Each declaration of `now` → its counterpart among `then`: the same pin, else the same name. */
function pairUp(now: readonly Declared[], then: readonly Declared[]): Map<Declared, Declared> {
  const pairs = new Map<Declared, Declared>();
  const taken = new Set<Declared>();
  const byPin = new Map(then.filter((d) => d.id !== undefined).map((d) => [d.id, d]));
  for (const declared of now) {
    const old = declared.id === undefined ? undefined : byPin.get(declared.id);
    if (old !== undefined) {
      pairs.set(declared, old);
      taken.add(old);
    }
  }
  const byName = new Map<string, Declared[]>();
  for (const old of then) {
    if (!taken.has(old)) byName.set(old.name, [...(byName.get(old.name) ?? []), old]);
  }
  for (const declared of now) {
    if (pairs.has(declared)) continue;
    // Two different pins are two objects, whatever their names.
    const old = (byName.get(declared.name) ?? []).find(
      (d) => !taken.has(d) && (d.id === undefined || declared.id === undefined),
    );
    if (old !== undefined) {
      pairs.set(declared, old);
      taken.add(old);
    }
  }
  return pairs;
}

/** A declaration as compared: without where it was written, secrets by what the file says. */
function comparable(declared: Declared): string {
  const strip = (value: unknown): unknown => {
    if (value instanceof SecretValue) return { $secret: value.template };
    if (Array.isArray(value)) return value.map(strip);
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key, v]) => !(key === "source" && isSourceRef(v)))
        .map(([key, v]) => [key, strip(v)]),
    );
  };
  return canonicalJson(strip(declared));
}

function isSourceRef(value: unknown): boolean {
  return isPlainObject(value) && typeof value.file === "string" && typeof value.line === "number";
}
