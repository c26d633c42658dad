/**
 * Desired state: what the YAML files say, after validation, interpolation and normalisation. Raw parsed
 * YAML (`…Input`) never leaves the loader and the kinds' `declare`; the planner only sees `Declared`
 * objects, each kind's own type (src/kinds/<kind>/declare.ts). A field that the file leaves out is
 * `undefined` there and is never compared nor sent.
 */

/** Where something was written: every diagnostic and every plan action points back here. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

export type Severity = "error" | "warning" | "note";

/** One problem found in the files; collected, never thrown one at a time. */
export interface Diagnostic {
  severity: Severity;
  /** Empty for a note about the environment rather than a file (unset secret variables); line 0 then. */
  file: string;
  line: number;
  column: number;
  message: string;
}

/**
 * An object a declaration names (src/kinds/define/references.ts): by name (`cohort: Beta testers`,
 * resolved per project at plan) or by raw id (`value: 12`), with the JSON pointer inside the item and
 * where the file writes it.
 */
export interface DeclaredReference {
  /** The kind named. */
  kind: string;
  name?: string;
  /** A raw id the file writes instead of a name. */
  id?: number | string;
  pointer: string;
  source: SourceRef;
}

/** What every declared object has, whatever its kind. */
export interface Declared {
  /** The kind's name, e.g. `dashboard`. */
  kind: string;
  name: string;
  /** Pinned identity; when set, matching is by id and a name change is a rename. */
  id?: number | string;
  /** Tombstone: delete the live object (the kind says how). */
  deleted: boolean;
  source: SourceRef;
  /** The objects its fields name (their kinds declare where: `references`), in file order. */
  refs?: DeclaredReference[];
}

/** All that the files declare for one project. */
export interface DesiredProject {
  /** From the files' `project:` key, else --project / POSTHOG_PROJECT_ID; undefined when none is known. */
  project: number | undefined;
  /** Where the files name it (each file's `project:` value); empty when it came from --project. */
  projectAt?: SourceRef[];
  files: string[];
  /** Per kind name: name globs that --prune must never touch. */
  ignore: Record<string, string[]>;
  /**
   * Kind names some file lists (its key, even empty): only those are read and pruned. Files that list
   * only dashboards never touch batch exports.
   */
  manages: string[];
  /** Per kind name: the declared objects, in file order. */
  objects: Record<string, Declared[]>;
}

export interface LoadedConfig {
  projects: DesiredProject[];
  diagnostics: Diagnostic[];
  /** Environment variables that secrets need but that are not set (fine for plan, fatal for apply). */
  missingSecretVariables: string[];
}

/** The declared objects of one kind in a project (empty when none). */
export function declaredOf<D extends Declared = Declared>(project: DesiredProject, kind: string): D[] {
  return (project.objects[kind] ?? []) as D[];
}
