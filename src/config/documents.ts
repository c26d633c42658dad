/**
 * The documents of one load, each already parsed: schema (ajv, composed from the kinds), then each item
 * through its kind's `declare` (semantic rules and normalisation), then the rules that span files
 * (duplicate names and ids per project and kind, each kind's `checkProject`). A document is a file, or
 * an environment's shared declarations merged with its overlay (SPEC §9), whose nodes each say which
 * file they came from. Every problem is collected; an item with a schema error is left out of the
 * desired state but the rest of its document still loads. Never branches on a kind.
 */
import { type LoadMode, ObjectContext, type RunContext } from "./context.js";
import type { Diagnostics } from "./diagnostics.js";
import { excerpt } from "./excerpt.js";
import { checkGlob } from "./ignore.js";
import { isCredentialName } from "./interpolate.js";
import type { ConfigKind } from "./kinds.js";
import { reportMissingSecrets } from "./missing-secrets.js";
import type { ParsedFile } from "./parse.js";
import { validateSchema } from "./schema.js";
import { parsePointer, reportSchemaErrors } from "./schema-errors.js";
import type { DesiredProject, Diagnostic, SourceRef } from "./types.js";

export interface DocumentOptions {
  /** Where `${NAME}` references are looked up; nothing else of the environment is read. */
  env: Readonly<Record<string, string | undefined>>;
  kinds: readonly ConfigKind[];
  /** The project for documents without `project:`; see LoadOptions. */
  defaultProject?: number;
  defaultProjectFrom?: string;
  mode: LoadMode;
  /** How messages name the documents' project, e.g. ` in environment production`; default ` in project N`. */
  label?: string;
  /**
   * The error for a document that names no project when nothing fills one in, in every mode (beside
   * environments, SPEC §9); default: the usual error, a warning for `validate`.
   */
  noProject?: string;
}

export interface LoadedDocuments {
  projects: DesiredProject[];
  /** Items the documents list, whatever their validity. */
  objects: number;
  secretsNote?: Diagnostic;
  missingSecretVariables: string[];
}

type FileInput = Record<string, unknown> & {
  project?: number;
  ignore?: Record<string, string[]>;
  variables?: string[];
};

export function loadDocuments(
  files: readonly ParsedFile[],
  options: DocumentOptions,
  diags: Diagnostics,
): LoadedDocuments {
  const { kinds } = options;
  const run: RunContext = {
    // A snapshot: every `${NAME}` looks a variable up, and each read of the live process.env is costly.
    env: { ...options.env },
    mode: options.mode,
    diags,
    missingSecrets: new Set(),
    missingSecretUses: new Map(),
  };
  const projects = new Map<number | undefined, DesiredProject>();
  /** Files whose `project:` is wrong: checked like the others, part of no project (see below). */
  const detached: DesiredProject[] = [];
  let objects = 0;
  for (const file of files) {
    const errors = validateSchema(kinds, file.data);
    reportSchemaErrors(file, errors, diags, kinds);
    const data = file.data as FileInput;
    if (data !== null && typeof data === "object" && !Array.isArray(data)) {
      for (const kind of kinds) {
        const list = data[kind.key];
        if (Array.isArray(list)) objects += list.length;
      }
    }
    // One pass reports the schema's problems and the semantic rules' together, wherever the second can
    // still say something true. The rule: a part with a wrong value (not an unknown key: the kinds read
    // known keys only) is skipped by the rules that would read it, and only by those.
    // - Root not a mapping: nothing to read.
    // - `project:` wrong: every item is still declared and checked, and duplicates within the file are
    //   still found (all its items share one project), but the file joins no project: which one it is
    //   for is unknown, so cross-file duplicates could only be guessed.
    // - One kind's list wrong (`dashboards: {…}`): that list is skipped, the file's other kinds are not.
    // - One item with a schema error: not declared (a kind's rules assume schema-valid input and would
    //   only repeat or guess at what the schema said), so it takes no part in the duplicate checks
    //   either; its `${NAME}` references and literal secrets are still checked (checkBroken).
    const broken = new Set(
      errors
        .filter((e) => e.keyword !== "additionalProperties")
        .map((e) => parsePointer(e.instancePath).slice(0, 2).join("/")),
    );
    if (broken.has("")) continue;
    if (broken.has("project")) {
      const own = emptyProject(undefined);
      detached.push(own);
      addFile(own, file, data, broken);
    } else addFile(projectFor(projectOf(data, file, options, diags)), file, data, broken);
  }
  const unsetSecrets = reportMissingSecrets(run);
  checkDuplicates([...projects.values(), ...detached], kinds, diags, options.label);
  for (const project of projects.values()) {
    for (const kind of kinds) {
      for (const p of kind.checkProject?.(project) ?? []) {
        diags.add(p.severity ?? "error", p.source.file, p.source.line, p.source.column, p.message);
      }
    }
  }
  const ordered = [...projects.values()].sort((a, b) => (a.project ?? Infinity) - (b.project ?? Infinity));
  return {
    projects: ordered,
    objects,
    ...(unsetSecrets === undefined ? {} : { secretsNote: unsetSecrets }),
    missingSecretVariables: [...run.missingSecrets].sort(),
  };

  function emptyProject(project: number | undefined): DesiredProject {
    const desired: DesiredProject = { project, files: [], ignore: {}, manages: [], objects: {} };
    for (const kind of kinds) {
      desired.ignore[kind.name] = [];
      desired.objects[kind.name] = [];
    }
    return desired;
  }

  /** The desired state of `project`, shared by every file for it. */
  function projectFor(project: number | undefined): DesiredProject {
    let desired = projects.get(project);
    if (desired === undefined) {
      desired = emptyProject(project);
      projects.set(project, desired);
    }
    return desired;
  }

  function addFile(desired: DesiredProject, file: ParsedFile, data: FileInput, broken: Set<string>) {
    desired.files.push(file.path);
    if (data.project !== undefined && !broken.has("project")) {
      const at = file.position(file.place("/project")?.value ?? 0);
      desired.projectAt = [
        ...(desired.projectAt ?? []),
        { file: file.path, line: at.line, column: at.column },
      ];
    }
    const ignoreBroken = [...broken].some((p) => p.startsWith("ignore"));
    const variables = broken.has("variables") ? new Set<string>() : fileVariables(data, file, diags);
    for (const kind of kinds) {
      if (Object.hasOwn(data, kind.key) && !desired.manages.includes(kind.name)) {
        desired.manages.push(kind.name);
      }
      const globs = ignoreBroken ? undefined : data.ignore?.[kind.key];
      const kept = desired.ignore[kind.name] as string[];
      globs?.forEach((glob, i) => {
        if (checkGlob(glob, `/ignore/${kind.key}/${i}`, file, diags) && !kept.includes(glob)) kept.push(glob);
      });
      const items = data[kind.key];
      if (!Array.isArray(items) || broken.has(kind.key)) continue;
      const declared = desired.objects[kind.name] as DesiredProject["objects"][string];
      items.forEach((item: Record<string, unknown>, i) => {
        const owner = `${kind.words.one} "${ownerName(item?.[kind.identityKey ?? "name"])}"`;
        const ctx = new ObjectContext(run, file, `/${kind.key}/${i}`, owner, variables);
        if (broken.has(`${kind.key}/${i}`)) {
          kind.checkBroken?.(item, ctx);
          ctx.checkAllReferences("", item, new Set(kind.secretPointers?.(item) ?? []));
        } else declared.push(kind.declare(item, ctx));
      });
    }
  }
}

/**
 * How messages name an item: its name, cut short; a name that is not text (a schema error says so) is
 * shown as JSON, never converted by its own `toString`.
 */
function ownerName(name: unknown): string {
  const text = typeof name === "string" ? name : (JSON.stringify(name) ?? String(name));
  return excerpt(text, 60);
}

/**
 * The environment variables a file's non-secret strings may read. A listed name that may never be
 * used there (POSTHOG_*, credential-looking names) is an error at its entry (SPEC §8), and is left out.
 */
function fileVariables(data: FileInput, file: ParsedFile, diags: Diagnostics): Set<string> {
  const names = new Set<string>();
  (data.variables ?? []).forEach((name, i) => {
    if (!isCredentialName(name)) {
      names.add(name);
      return;
    }
    const at = file.position(file.place(`/variables/${i}`)?.value ?? 0);
    diags.error(
      file.path,
      at.line,
      at.column,
      `variables: ${name} may never be used outside a secret field (POSTHOG_* variables and names that look like credentials stay out of plans and of the service); reference it from a secret destination field instead`,
    );
  });
  return names;
}

function projectOf(
  data: FileInput,
  file: ParsedFile,
  options: DocumentOptions,
  diags: Diagnostics,
): number | undefined {
  const { defaultProject, defaultProjectFrom } = options;
  if (data.project !== undefined && defaultProjectFrom !== undefined && defaultProject !== data.project) {
    const at = file.position(file.place("/project")?.value ?? 0);
    diags.error(
      file.path,
      at.line,
      at.column,
      `this file is for project ${data.project} but ${defaultProjectFrom} ${defaultProject} was given: a file's \`project:\` governs it; drop ${defaultProjectFrom} or change the file`,
    );
  }
  const project = data.project ?? defaultProject;
  if (project === undefined) {
    // validate works without one (a project's files may rely on POSTHOG_PROJECT_ID later), but says
    // so at the file, so a green validate does not hide what plan will refuse.
    if (options.noProject !== undefined) {
      diags.error(file.path, 1, 1, options.noProject);
      return undefined;
    }
    const message = "no project: add `project: <id>` to the file or pass --project / set POSTHOG_PROJECT_ID";
    if (options.mode === "validate") diags.add("warning", file.path, 1, 1, `${message} (plan needs one)`);
    else diags.error(file.path, 1, 1, message);
  }
  return project;
}

/**
 * Unpinned names and pinned ids are unique per project and kind, across files; the second place cites
 * the first.
 */
function checkDuplicates(
  projects: readonly DesiredProject[],
  kinds: readonly ConfigKind[],
  diags: Diagnostics,
  label: string | undefined,
): void {
  for (const project of projects) {
    const where = label ?? (project.project === undefined ? "" : ` in project ${project.project}`);
    for (const kind of kinds) {
      const byName = new Map<string, SourceRef>();
      const byId = new Map<string, SourceRef>();
      for (const object of project.objects[kind.name] ?? []) {
        const s = object.source;
        // Names are unique among the declarations without a pin (SPEC §2): a pinned object is matched
        // by its id, so pinned objects may share a name, as pulled insights do.
        if (object.id === undefined) {
          const firstName = byName.get(object.name);
          if (firstName === undefined) byName.set(object.name, s);
          else {
            diags.error(
              s.file,
              s.line,
              s.column,
              `duplicate ${kind.words.one} ${kind.identityKey ?? "name"} "${object.name}"${where}: also declared at ${cite(firstName)}`,
            );
          }
          continue;
        }
        const firstId = byId.get(String(object.id));
        if (firstId === undefined) byId.set(String(object.id), s);
        else {
          diags.error(
            s.file,
            s.line,
            s.column,
            `duplicate ${kind.words.one} id ${object.id}${where}: also pinned at ${cite(firstId)}`,
          );
        }
      }
    }
  }
}

function cite(s: SourceRef): string {
  return `${s.file}:${s.line}:${s.column}`;
}
