/**
 * `loadConfig`: files and folders (or in-memory files) → desired state. Stages: read (size, UTF-8),
 * parse (positions, hostile YAML refused), then the documents (documents.ts: schema, each item through
 * its kind's `declare`, the rules that span files). A set of files that serves environments (SPEC §9)
 * is merged per environment first (environments/), then loaded the same way. Every problem is
 * collected; the loader never branches on a kind.
 */
import { createHash } from "node:crypto";
import type { LoadMode } from "./context.js";
import { Diagnostics } from "./diagnostics.js";
import { loadDocuments } from "./documents.js";
import { servesEnvironments } from "./environments/files.js";
import { loadEnvironments } from "./environments/load.js";
import type { Environments } from "./environments/types.js";
import type { ConfigKind } from "./kinds.js";
import { type ParsedFile, parseYaml } from "./parse.js";
import { readSources, type SourceFile } from "./read.js";
import type { Diagnostic, LoadedConfig } from "./types.js";

export type { LoadMode } from "./context.js";

export interface LoadOptions {
  /** Where `${NAME}` references are looked up; nothing else of the environment is read. */
  env: Readonly<Record<string, string | undefined>>;
  /** Paths are resolved from here and shown relative to it. */
  cwd: string;
  /** The resource kinds the files may declare. */
  kinds: readonly ConfigKind[];
  /**
   * The project for files without `project:` (--project, else POSTHOG_PROJECT_ID). A file's own
   * `project:` governs that file; when `defaultProjectFrom` names a command-line option and the file
   * says otherwise, that is an error naming both (an environment variable only fills in).
   */
  defaultProject?: number;
  /** Where `defaultProject` came from, e.g. `--project`; set only for an explicit command-line choice. */
  defaultProjectFrom?: string;
  mode: LoadMode;
}

/** Files given as text instead of paths (the library's `loadConfig({ files })`). */
export interface InMemoryFiles {
  files: readonly SourceFile[];
}

/** `LoadedConfig` plus what `validate` reports: every file read and the number of objects declared. */
export interface LoadResult extends LoadedConfig {
  /**
   * The note about unset secret variables (also the last of `diagnostics`), for commands to tell apart:
   * it concerns what `apply` will send, so only `plan` and `apply` show it.
   */
  secretsNote?: Diagnostic;
  files: string[];
  /** sha256 (hex) of each file's text, by path: a saved plan is bound to them. */
  digests: Record<string, string>;
  objects: number;
  /**
   * Set when the files serve environments (SPEC §9): each one's merged configuration. `projects` then
   * holds only the files that serve none (single-project files of other projects).
   */
  environments?: Environments;
}

export async function loadConfig(
  input: readonly string[] | InMemoryFiles,
  options: LoadOptions,
): Promise<LoadResult> {
  const { kinds } = options;
  const diags = new Diagnostics();
  const sources = "files" in input ? [...input.files] : await readSources(input, options.cwd, diags);
  const files: ParsedFile[] = [];
  for (const source of sources) {
    const file = parseYaml(
      source.path,
      source.text,
      diags,
      kinds.map((k) => k.key),
    );
    if (file !== undefined) files.push(file);
  }
  const digests = Object.fromEntries(
    sources.map((s) => [s.path, createHash("sha256").update(s.text).digest("hex")]),
  );
  const paths = sources.map((s) => s.path);
  // One set of files for several projects (SPEC §9): only when some file says so; otherwise every
  // configuration loads exactly as it always has.
  if (files.some(servesEnvironments)) {
    return loadEnvironments(files, { ...options, diags, digests, paths });
  }
  const loaded = loadDocuments(files, options, diags);
  return {
    projects: loaded.projects,
    // The note about unset secrets is about the environment, not a place in the files: after them all.
    diagnostics: loaded.secretsNote === undefined ? diags.sorted() : [...diags.sorted(), loaded.secretsNote],
    ...(loaded.secretsNote === undefined ? {} : { secretsNote: loaded.secretsNote }),
    missingSecretVariables: loaded.missingSecretVariables,
    files: paths,
    digests,
    objects: loaded.objects,
  };
}
