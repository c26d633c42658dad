/**
 * What loading gives and takes: the options, in-memory files, and the result, with each environment's
 * configuration when the files serve environments (SPEC §9). Types only, shared by the loader of
 * single-project files (load.ts) and of environments (environments/load.ts).
 */
import type { LoadMode } from "./context.js";
import type { MergedDocument } from "./environments/document.js";
import type { EnvironmentEntry } from "./environments/types.js";
import type { ConfigKind } from "./kinds.js";
import type { SourceFile } from "./read.js";
import type { Diagnostic, LoadedConfig } from "./types.js";

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
  /**
   * Kind names whose lists are read (absent: every kind's). The other kinds' lists are left out of
   * each file before anything checks it, so a command that needs one kind (the operations commands:
   * batch exports) is never stopped by a problem in another's declarations.
   */
  only?: readonly string[];
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
   * holds only the files that serve none (single-project files of other projects, also in
   * `environments.standalone`).
   */
  environments?: Environments;
}

/** One environment, loaded: what `plan --env`, `apply --env`, `render` and `pull --env` work from. */
export interface EnvironmentConfig {
  name: string;
  entry: EnvironmentEntry;
  /**
   * Its merged declarations, as a single-project configuration of its project loads: one project, the
   * diagnostics of this environment alone (an error here fails this environment, not the others),
   * the files that serve it (their digests bind its saved plans) and its unset secrets.
   */
  config: LoadResult;
  /** The merged document: what `render` prints, with the origin of every value and what overlays did. */
  document: MergedDocument;
  /** The shared files that serve it, and its overlays, by path. */
  shared: string[];
  overlays: string[];
}

/**
 * The single-project files of one project beside an environments declaration (SPEC §9): a project that
 * is no environment's, planned and applied as before, with the default connection (POSTHOG_HOST,
 * POSTHOG_API_KEY), as a section of its own named after its project.
 */
export interface StandaloneProject {
  /** `project N`: how outputs name its section (no environment's name has a space). */
  name: string;
  project: number;
  /**
   * Its files, loaded as a single-project configuration: this project alone, its own diagnostics (an
   * error here fails this section, not the environments), its files and their digests.
   */
  config: LoadResult;
}

/** The environments of a set of files. */
export interface Environments {
  /** The file that declares them. */
  declaredIn: string;
  /** In declaration order. */
  list: EnvironmentConfig[];
  /** The single-project files beside them, one entry per project (none an environment's), by project. */
  standalone: StandaloneProject[];
  /** Problems of the files themselves (their roles, the declaration, ids in shared files): no environment can be planned with one. */
  diagnostics: Diagnostic[];
}
