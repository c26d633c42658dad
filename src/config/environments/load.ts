/**
 * Loading a set of files that serves environments (SPEC §9): each file's role (files.ts), the
 * declaration (declaration.ts), no ids in files serving several environments (ids.ts); then for each
 * environment, its overlays merged into the shared declarations (merge.ts), its variables and secrets
 * applied (variables.ts), and the merged document loaded exactly as a single-project file of its
 * project is (../documents.ts), so every rule of a kind holds in every environment and every message
 * points at the file and line each value came from. Files that serve no environment (single-project
 * files of projects that are no environment's) load as they always have, beside them, one
 * configuration per project (`Environments.standalone`), each failing alone like an environment.
 */
import { Diagnostics } from "../diagnostics.js";
import { loadDocuments } from "../documents.js";
import type { EnvironmentConfig, LoadOptions, LoadResult, StandaloneProject } from "../load-types.js";
import type { ParsedFile } from "../parse-types.js";
import type { Diagnostic } from "../types.js";
import { readDeclaration } from "./declaration.js";
import { sourceOf } from "./document.js";
import { checkRoles, type FileRole, fileRoles, servedBy } from "./files.js";
import { checkNoIds } from "./ids.js";
import { mergeEnvironment } from "./merge.js";
import type { EnvironmentEntry } from "./types.js";
import { applyVariables } from "./variables.js";

export interface EnvironmentLoadOptions extends LoadOptions {
  /** The load's diagnostics so far (reading and parsing the files). */
  diags: Diagnostics;
  digests: Record<string, string>;
  paths: string[];
}

export function loadEnvironments(files: readonly ParsedFile[], options: EnvironmentLoadOptions): LoadResult {
  const { kinds, diags } = options;
  const roles = fileRoles(files, kinds, diags);
  const declarations = roles.filter((r) => r.role === "declaration");
  const declaration = declarations[0];
  for (const second of declarations.slice(1)) {
    const at = sourceOf(second.file, "/environments", "key");
    const first = sourceOf(declaration?.file ?? second.file, "/environments", "key");
    diags.error(
      at.file,
      at.line,
      at.column,
      `the environments are declared once per set of files: also at ${first.file}:${first.line}:${first.column}`,
    );
  }
  const entries = declaration ? readDeclaration(declaration.file, declaration.broken, diags) : [];
  const names = declaration ? entries.map((e) => e.name) : undefined;
  checkRoles(roles, names, diags);
  for (const role of roles) {
    const serves = servedBy(role, names ?? []);
    if (role.role === "shared" && serves.length > 1) checkNoIds(role.file, serves, kinds, diags);
  }
  // With environments declared, every file names what it serves: an environment's project is its
  // entry's, and a single-project file names its own; --project and POSTHOG_PROJECT_ID fill in nothing
  // (--project chooses a section instead, commands/targets.ts).
  const { defaultProject: _project, defaultProjectFrom: _from, ...plain } = options;
  const singles = roles.flatMap((r) => (r.role === "single" ? [r.file] : []));
  const { groups, loose } = groupSingles(singles, entries, diags);
  const unplaced = loadDocuments(
    loose,
    {
      ...plain,
      noProject:
        "this file names no project, and the files beside it serve environments: make it a shared file (environments: all) or an overlay (overlay: NAME), or name the project it is for (project: N) if that project is no environment's",
    },
    diags,
  );
  const standalone = [...groups].map(([project, files]) => loadStandalone(project, files, plain));
  const list: EnvironmentConfig[] = entries.map((entry) => {
    const own = new Diagnostics();
    const serving = (role: FileRole) => servedBy(role, names ?? []).includes(entry.name);
    const shared = roles.filter((r) => r.role === "shared" && serving(r)).map((r) => r.file);
    const overlays = roles.filter((r) => r.role === "overlay" && serving(r)).map((r) => r.file);
    const document = mergeEnvironment({
      entry,
      declaration: (declaration as FileRole).file,
      shared,
      overlays,
      kinds,
      diags: own,
    });
    applyVariables(document, entry, kinds, (declaration as FileRole).file.path, own);
    const loaded = loadDocuments([document], { ...plain, label: ` in environment ${entry.name}` }, own);
    const paths = [
      (declaration as FileRole).file.path,
      ...shared.map((f) => f.path),
      ...overlays.map((f) => f.path),
    ];
    for (const project of loaded.projects) project.files = paths.slice(1);
    const config = sectionResult(loaded, own, paths);
    return {
      name: entry.name,
      entry,
      config,
      document,
      shared: shared.map((f) => f.path),
      overlays: overlays.map((f) => f.path),
    };
  });
  const fileProblems = diags.sorted();
  const all = new Diagnostics();
  for (const d of [
    ...fileProblems,
    ...nameEnvironments(list),
    ...standalone.flatMap((s) => s.config.diagnostics.filter((d) => d !== s.config.secretsNote)),
  ])
    all.add(d.severity, d.file, d.line, d.column, d.message);
  const configs = [...list.map((e) => e.config), ...standalone.map((s) => s.config)];
  const note = mergedNote([unplaced.secretsNote, ...configs.map((c) => c.secretsNote)]);
  const missing = [
    ...new Set([...unplaced.missingSecretVariables, ...configs.flatMap((c) => c.missingSecretVariables)]),
  ].sort();
  return {
    projects: [...unplaced.projects, ...standalone.flatMap((s) => s.config.projects)],
    diagnostics: withNote(all.sorted(), note),
    ...(note === undefined ? {} : { secretsNote: note }),
    missingSecretVariables: missing,
    files: options.paths,
    digests: options.digests,
    objects: countItems(
      files,
      kinds.map((k) => k.key),
    ),
    environments: {
      declaredIn: declaration?.file.path ?? "",
      list,
      standalone,
      diagnostics: withNote(fileProblems, unplaced.secretsNote),
    },
  };

  /** One project's single-project files, loaded as a configuration of their own. */
  function loadStandalone(project: number, files: ParsedFile[], load: typeof plain): StandaloneProject {
    const own = new Diagnostics();
    const loaded = loadDocuments(files, load, own);
    const paths = files.map((f) => f.path);
    const config = sectionResult(loaded, own, paths);
    return { name: `project ${project}`, project, config };
  }

  /** One section's configuration (an environment's or a single project's): its own files and problems. */
  function sectionResult(
    loaded: ReturnType<typeof loadDocuments>,
    own: Diagnostics,
    paths: string[],
  ): LoadResult {
    return {
      projects: loaded.projects,
      diagnostics: withNote(own.sorted(), loaded.secretsNote),
      ...(loaded.secretsNote === undefined ? {} : { secretsNote: loaded.secretsNote }),
      missingSecretVariables: loaded.missingSecretVariables,
      files: paths,
      digests: Object.fromEntries(
        paths.flatMap((p) => (options.digests[p] ? [[p, options.digests[p]]] : [])),
      ),
      objects: loaded.objects,
    };
  }
}

/**
 * The single-project files beside the environments, by the project each names (in project order). A
 * file for an environment's project is an error naming both (that environment's own objects belong in
 * its overlay); a file that names no project is an error too (the loader's, `noProject`). Those, and
 * files whose `project:` is not a project id (the schema says why), are `loose`: their problems are
 * the files' own, which stop every section.
 */
function groupSingles(
  singles: readonly ParsedFile[],
  entries: readonly EnvironmentEntry[],
  diags: Diagnostics,
): { groups: Map<number, ParsedFile[]>; loose: ParsedFile[] } {
  const groups = new Map<number, ParsedFile[]>();
  const loose: ParsedFile[] = [];
  for (const file of singles) {
    const data = file.data as Record<string, unknown> | null;
    const project = data !== null && typeof data === "object" ? data.project : undefined;
    const entry = entries.find((e) => e.project === project);
    if (entry !== undefined) {
      const at = sourceOf(file, "/project", "value");
      diags.error(
        at.file,
        at.line,
        at.column,
        `this file is for project ${entry.project}, which is environment ${entry.name}'s project: put ${entry.name}'s own objects in its overlay (overlay: ${entry.name})`,
      );
    }
    if (entry === undefined && typeof project === "number" && Number.isSafeInteger(project) && project > 0) {
      groups.set(project, [...(groups.get(project) ?? []), file]);
    } else loose.push(file);
  }
  return { groups: new Map([...groups].sort(([a], [b]) => a - b)), loose };
}

/**
 * The environments' own problems, each once: one that every environment has (a shared declaration's)
 * as it is, one that only some have (a merged value, a variable) naming them. Each environment's own
 * list names it the same way.
 */
function nameEnvironments(list: readonly EnvironmentConfig[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.message}`;
  const who = new Map<string, { d: Diagnostic; names: string[] }>();
  for (const env of list) {
    for (const d of env.config.diagnostics) {
      if (d === env.config.secretsNote) continue;
      const seen = who.get(key(d)) ?? { d, names: [] };
      if (!seen.names.includes(env.name)) seen.names.push(env.name);
      who.set(key(d), seen);
    }
  }
  const named = (d: Diagnostic, names: readonly string[]): Diagnostic =>
    names.length === list.length
      ? d
      : {
          ...d,
          message: `${d.message} (${names.length === 1 ? "environment" : "environments"} ${names.join(", ")})`,
        };
  for (const env of list) {
    env.config.diagnostics = env.config.diagnostics.map((d) =>
      d === env.config.secretsNote ? d : named(d, who.get(key(d))?.names ?? [env.name]),
    );
  }
  return [...who.values()].map(({ d, names }) => named(d, names));
}

function withNote(diagnostics: Diagnostic[], note: Diagnostic | undefined): Diagnostic[] {
  return note === undefined ? diagnostics : [...diagnostics, note];
}

/** One note for the unset secrets of every environment (each note names its variables). */
function mergedNote(notes: ReadonlyArray<Diagnostic | undefined>): Diagnostic | undefined {
  const present = notes.filter((n): n is Diagnostic => n !== undefined);
  const messages = [...new Set(present.map((n) => n.message))];
  const first = present[0];
  if (first === undefined) return undefined;
  return { ...first, message: messages.join("; ") };
}

/** The items each file lists, whatever their validity. */
function countItems(files: readonly ParsedFile[], keys: readonly string[]): number {
  let n = 0;
  for (const file of files) {
    const data = file.data as Record<string, unknown> | null;
    if (data === null || typeof data !== "object") continue;
    for (const key of keys) {
      const list = data[key];
      if (Array.isArray(list)) n += list.length;
    }
  }
  return n;
}
