/**
 * `loadConfig`: files and folders → `LoadedConfig`. Stages: read (size, UTF-8), parse (positions,
 * hostile YAML refused), schema (ajv), then per object semantic rules and normalisation, then the rules
 * that span files (duplicate names and ids per project and kind). Every problem is collected; an object
 * with a schema error is left out of the desired state but the rest of its file still loads.
 */

import { type BatchExportInput, checkSecretLiterals, normaliseBatchExport } from "./batch-export.js";
import { type LoadMode, ObjectContext, type RunContext } from "./context.js";
import { type DashboardInput, normaliseDashboard } from "./dashboard.js";
import { Diagnostics } from "./diagnostics.js";
import { checkGlob } from "./ignore.js";
import { reportMissingSecrets } from "./missing-secrets.js";
import { type ParsedFile, parseYaml } from "./parse.js";
import { readSources } from "./read.js";
import { validateSchema } from "./schema.js";
import { parsePointer, reportSchemaErrors } from "./schema-errors.js";
import type { DesiredObject, DesiredProject, LoadedConfig, SourceRef } from "./types.js";

export type { LoadMode } from "./context.js";

export interface LoadOptions {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** From --project / POSTHOG_PROJECT_ID, for files without `project:`. */
  defaultProject?: number;
  mode: LoadMode;
}

/** `LoadedConfig` plus what `validate` reports: every file read and the number of objects declared. */
export interface LoadResult extends LoadedConfig {
  files: string[];
  objects: number;
}

interface FileInput {
  project?: number;
  ignore?: { dashboards?: string[]; batch_exports?: string[] };
  dashboards?: DashboardInput[] | null;
  batch_exports?: BatchExportInput[] | null;
}

const KINDS = [
  { key: "dashboards", label: "dashboard", list: "dashboards" },
  { key: "batch_exports", label: "batch export", list: "batchExports" },
] as const;

export async function loadConfig(paths: readonly string[], options: LoadOptions): Promise<LoadResult> {
  const diags = new Diagnostics();
  const run: RunContext = {
    // A snapshot: every `${NAME}` looks a variable up, and each read of the live process.env is costly.
    env: { ...options.env },
    mode: options.mode,
    diags,
    missingSecrets: new Set(),
    missingSecretUses: new Map(),
  };
  const sources = await readSources(paths, options.cwd, diags);
  const projects = new Map<number | undefined, DesiredProject>();
  let objects = 0;
  for (const source of sources) {
    const file = parseYaml(source.path, source.text, diags);
    if (file === undefined) continue;
    const errors = validateSchema(file.data);
    reportSchemaErrors(file, errors, diags);
    const data = file.data as FileInput;
    if (data !== null && typeof data === "object" && !Array.isArray(data)) {
      objects +=
        (Array.isArray(data.dashboards) ? data.dashboards.length : 0) +
        (Array.isArray(data.batch_exports) ? data.batch_exports.length : 0);
    }
    // An object with a wrong value is left out of the desired state; unknown keys do not count (the
    // normalisers read known keys only), so the semantic rules still check the rest of that object.
    const broken = new Set(
      errors
        .filter((e) => e.keyword !== "additionalProperties")
        .map((e) => parsePointer(e.instancePath).slice(0, 2).join("/")),
    );
    if (["", "project", "dashboards", "batch_exports"].some((p) => broken.has(p))) continue;
    const project = projectOf(data, file, options, diags);
    addFile(project, file, data, broken, run);
  }
  reportMissingSecrets(run);
  checkDuplicates([...projects.values()], diags);
  const ordered = [...projects.values()].sort((a, b) => (a.project ?? Infinity) - (b.project ?? Infinity));
  return {
    projects: ordered,
    diagnostics: diags.sorted(),
    missingSecretVariables: [...run.missingSecrets].sort(),
    files: sources.map((s) => s.path),
    objects,
  };

  function addFile(
    project: number | undefined,
    file: ParsedFile,
    data: FileInput,
    broken: Set<string>,
    ctx: RunContext,
  ) {
    let desired = projects.get(project);
    if (desired === undefined) {
      desired = {
        project,
        files: [],
        ignore: { dashboards: [], batch_exports: [] },
        manages: { dashboards: false, batch_exports: false },
        dashboards: [],
        batchExports: [],
      };
      projects.set(project, desired);
    }
    desired.files.push(file.path);
    for (const kind of KINDS) {
      if (Object.hasOwn(data, kind.key)) desired.manages[kind.key] = true;
      const globs = [...broken].some((p) => p.startsWith("ignore")) ? undefined : data.ignore?.[kind.key];
      globs?.forEach((glob, i) => {
        if (
          checkGlob(glob, `/ignore/${kind.key}/${i}`, file, diags) &&
          !desired.ignore[kind.key].includes(glob)
        ) {
          desired.ignore[kind.key].push(glob);
        }
      });
    }
    data.dashboards?.forEach((input, i) => {
      if (broken.has(`dashboards/${i}`)) return;
      const c = new ObjectContext(ctx, file, `/dashboards/${i}`, `dashboard "${input.name}"`);
      desired.dashboards.push(normaliseDashboard(input, c));
    });
    data.batch_exports?.forEach((input, i) => {
      const c = new ObjectContext(ctx, file, `/batch_exports/${i}`, `batch export "${input.name}"`);
      if (broken.has(`batch_exports/${i}`)) checkSecretLiterals(input, c);
      else desired.batchExports.push(normaliseBatchExport(input, c));
    });
  }
}

function projectOf(
  data: FileInput,
  file: ParsedFile,
  options: LoadOptions,
  diags: Diagnostics,
): number | undefined {
  const project = data.project ?? options.defaultProject;
  if (project === undefined && options.mode !== "validate") {
    diags.error(
      file.path,
      1,
      1,
      "no project: add `project: <id>` to the file or pass --project / set POSTHOG_PROJECT_ID",
    );
  }
  return project;
}

/** Names and pinned ids are unique per project and kind, across files; the second place cites the first. */
function checkDuplicates(projects: readonly DesiredProject[], diags: Diagnostics): void {
  for (const project of projects) {
    const where = project.project === undefined ? "" : ` in project ${project.project}`;
    for (const kind of KINDS) {
      const byName = new Map<string, SourceRef>();
      const byId = new Map<string, SourceRef>();
      for (const object of project[kind.list] as DesiredObject[]) {
        const s = object.source;
        const firstName = byName.get(object.name);
        if (firstName === undefined) byName.set(object.name, s);
        else {
          diags.error(
            s.file,
            s.line,
            s.column,
            `duplicate ${kind.label} name "${object.name}"${where}: also declared at ${cite(firstName)}`,
          );
        }
        if (object.id === undefined) continue;
        const firstId = byId.get(String(object.id));
        if (firstId === undefined) byId.set(String(object.id), s);
        else {
          diags.error(
            s.file,
            s.line,
            s.column,
            `duplicate ${kind.label} id ${object.id}${where}: also pinned at ${cite(firstId)}`,
          );
        }
      }
    }
  }
}

function cite(s: SourceRef): string {
  return `${s.file}:${s.line}:${s.column}`;
}
