/**
 * The change from a git revision, per environment (SPEC §9 "Commands"): each environment's merged
 * declarations at REF against the working tree's, so a change to a shared file touches every
 * environment it serves and an overlay's touches its own, whatever file a value came from. An
 * environment whose entry changed (its project, variables, secrets, …), that is new, or whose files do
 * not load at REF is read whole, and the answer says why. The single-project files beside them are
 * compared per project the same way (keyed `project N`). What `plan --base REF --changed-only` reads
 * in each section, and what `--base` labels as drift there: an action whose declaration is the same at
 * REF.
 *
 * REF's set of files is loaded whole (a merge needs every file), but only the files whose blob differs
 * from the working tree's are read with `git show`: an unchanged file's text at REF is the working
 * tree's (tree.ts `workingFiles`, as the single-project change does).
 */
import pLimit from "p-limit";
import { type LoadOptions, type LoadResult, loadConfig } from "../config/load.js";
import type { EnvironmentConfig, StandaloneProject } from "../config/load-types.js";
import type { Declared, DesiredProject } from "../config/types.js";
import { lastModified } from "../plan/modified.js";
import type { Action, LiveProject, Plan } from "../plan/types.js";
import { canonicalJson } from "../plan/values.js";
import { type ChangeOptions, type Changes, compareDeclarations } from "./changes.js";
import { filesAt, type RevisionFiles, showAt, workingFiles } from "./tree.js";

export type EnvironmentChange = Changes | { full: string };

/** As the single-project change's options, but the working tree's configuration is the whole load. */
export interface EnvironmentChangeOptions extends Omit<ChangeOptions, "desired" | "load"> {
  /** The working tree's configuration, as the command loaded it. */
  desired: LoadResult;
  load: Pick<LoadOptions, "env">;
}

/**
 * Per environment of the working tree, by name, and per project of its single-project files, by
 * `project N`: the change since REF, or why it is read whole.
 */
export async function environmentChanges(
  options: EnvironmentChangeOptions,
): Promise<Map<string, EnvironmentChange>> {
  const at: RevisionFiles = {
    git: options.git,
    commit: options.commit,
    base: options.base,
    cwd: options.cwd,
  };
  const listed = await filesAt(at, options.paths);
  const limit = pLimit(8);
  const working = await workingFiles(
    at,
    options.desired.files,
    new Map(listed.map((f) => [f.path, f])),
    limit,
    options.readBytes,
  );
  const texts = await Promise.all(
    listed
      .filter((f) => !f.link)
      .map((f) =>
        limit(async () => {
          const here = working.get(f.path);
          return { path: f.path, text: here?.same ? here.text : ((await showAt(at, f.path)) ?? "") };
        }),
      ),
  );
  const then = await loadConfig(
    { files: texts },
    { ...options.load, cwd: options.cwd, kinds: options.kinds, mode: "plan" },
  );
  const out = new Map<string, EnvironmentChange>();
  const fileErrors = (then.environments?.diagnostics ?? then.diagnostics).filter(
    (d) => d.severity === "error",
  );
  const compare = (now: readonly DesiredProject[], old: readonly DesiredProject[]): EnvironmentChange =>
    compareDeclarations(options.kinds, now, old, new Set(sources(now)), new Set(sources(old)), new Set());
  for (const environment of options.desired.environments?.list ?? []) {
    const old = then.environments?.list.find((e) => e.name === environment.name);
    const why = fullReason(environment, old, then, fileErrors.length, options.base);
    out.set(
      environment.name,
      why !== undefined ? { full: why } : compare(environment.config.projects, old?.config.projects ?? []),
    );
  }
  for (const standalone of options.desired.environments?.standalone ?? []) {
    const why = standaloneReason(standalone, then, fileErrors.length, options.base);
    out.set(
      standalone.name,
      why !== undefined
        ? { full: why }
        : compare(
            standalone.config.projects,
            then.projects.filter((p) => p.project === standalone.project),
          ),
    );
  }
  return out;
}

/**
 * Why the change of a project's single-project files cannot be told declaration by declaration: REF's
 * files do not load (a project new since REF has every declaration added, and is told).
 */
function standaloneReason(
  standalone: StandaloneProject,
  then: LoadResult,
  fileErrors: number,
  base: string,
): string | undefined {
  if (fileErrors > 0) return `the files do not load at ${base}`;
  const old = then.environments?.standalone.find((s) => s.project === standalone.project);
  if (old?.config.diagnostics.some((d) => d.severity === "error")) {
    return `the single-project files of project ${standalone.project} do not load at ${base}`;
  }
  return undefined;
}

/** Why an environment's change cannot be told declaration by declaration; undefined when it can. */
function fullReason(
  environment: EnvironmentConfig,
  old: EnvironmentConfig | undefined,
  then: LoadResult,
  fileErrors: number,
  base: string,
): string | undefined {
  if (then.environments === undefined) return `the files declare no environments at ${base}`;
  if (fileErrors > 0) return `the files do not load at ${base}`;
  if (old === undefined) return `environment ${environment.name} is new since ${base}`;
  if (entryText(old) !== entryText(environment)) {
    return `the entry of environment ${environment.name} changed since ${base}`;
  }
  if (old.config.diagnostics.some((d) => d.severity === "error")) {
    return `environment ${environment.name} does not load at ${base}`;
  }
  return undefined;
}

/** An entry as compared: its settings, not where they are written. */
function entryText(environment: EnvironmentConfig): string {
  const { source: _source, sources: _sources, ...settings } = environment.entry;
  return canonicalJson(settings);
}

function sources(projects: readonly DesiredProject[]): string[] {
  return [
    ...new Set(
      projects.flatMap((p) => Object.values(p.objects).flatMap((list) => list.map((d) => d.source.file))),
    ),
  ];
}

/**
 * The plan with `base` set and `drift` on the actions whose declaration is the same at REF in this
 * environment (or, for an object no file declares, that none declared there either).
 */
export function labelEnvironmentDrift(
  plan: Plan,
  base: string,
  change: EnvironmentChange | undefined,
  desired: LoadResult,
  live: readonly LiveProject[],
): Plan {
  if (change === undefined || "full" in change) return { ...plan, base };
  const declared = new Map<string, Declared>();
  for (const project of desired.projects) {
    for (const list of Object.values(project.objects)) {
      for (const d of list) declared.set(identity(d.kind, d.source), d);
    }
  }
  const removed = new Set(change.removed.map((r) => `${r.kind}\0${r.name}`));
  const drifted = (action: Action): boolean => {
    const source = action.object.source;
    if (source === undefined) return !removed.has(`${action.object.kind}\0${action.object.name}`);
    const d = declared.get(identity(action.object.kind, source));
    return d !== undefined && !change.changed.has(d);
  };
  const label = (action: Action): Action => {
    const modified = lastModified(action, live);
    return { ...action, drift: true, ...(modified !== undefined ? { modified } : {}) };
  };
  return { ...plan, base, actions: plan.actions.map((a) => (drifted(a) ? label(a) : a)) };
}

function identity(kind: string, source: { file: string; line: number; column: number }): string {
  return `${kind}\0${source.file}\0${source.line}\0${source.column}`;
}
