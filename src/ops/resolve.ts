/**
 * NAME → one live batch export. Order: the YAML files' `batch_exports` (their `id` pin when present,
 * their `project:`), then the project's live list by name. A UUID is taken as the export's id.
 * The files are `--config PATH`, else `posthog/` when it exists; problems in them are reported once on
 * stderr and what loaded is still used (operations should work while a config change is half-written).
 */
import { existsSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { loadConfig } from "../config/index.js";
import type { DesiredBatchExport } from "../config/types.js";
import { UserError } from "../errors.js";
import { collect } from "../service/index.js";
import type { BatchExport } from "../service/types.js";
import type { OpsContext } from "./connect.js";

export interface ResolvedExport {
  project: number;
  export: BatchExport;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Declared {
  project: number | undefined;
  object: DesiredBatchExport;
}

export async function resolveExport(
  ctx: OpsContext,
  name: string | undefined,
  configPath?: string,
): Promise<ResolvedExport> {
  if (!name?.trim()) throw new UserError("give the batch export's NAME (or its id)");
  const { declared, projects } = await readDeclared(ctx, configPath);
  // A file's `project:` wins over --project / POSTHOG_PROJECT_ID, which only pick among several.
  let matches = declared.filter((d) => d.object.name === name);
  if (new Set(matches.map((m) => m.project)).size > 1 && ctx.project !== undefined) {
    matches = matches.filter((m) => m.project === ctx.project);
  }
  const inProjects = new Set(matches.map((m) => m.project));
  if (inProjects.size > 1) {
    throw new UserError(
      `"${name}" is declared in projects ${[...inProjects].join(", ")}: pick one with --project`,
    );
  }
  const found = matches[0];
  const project = found?.project ?? ctx.project ?? (projects.size === 1 ? [...projects][0] : undefined);
  if (project === undefined) {
    throw new UserError(
      "no project: pass --project, set POSTHOG_PROJECT_ID, or point --config at files with `project:`",
    );
  }
  const id = found?.object.id ?? (UUID.test(name) ? name : undefined);
  if (id) return { project, export: await ctx.client.batchExports.get(project, id) };
  return { project, export: await findByName(ctx, project, name) };
}

async function findByName(ctx: OpsContext, project: number, name: string): Promise<BatchExport> {
  const live = await collect(ctx.client.batchExports.list(project));
  const hits = live.filter((b) => b.name === name);
  if (hits.length === 1 && hits[0]) return hits[0];
  if (hits.length > 1) {
    throw new UserError(
      `${hits.length} batch exports are named "${name}" in project ${project} (ids ${hits.map((h) => h.id).join(", ")}): pass the id instead`,
    );
  }
  const close = live.filter((b) => b.name.toLowerCase() === name.toLowerCase()).map((b) => b.name);
  const names = close.length > 0 ? close : live.map((b) => b.name).slice(0, 10);
  const hint = close.length > 0 ? `did you mean ${quoteList(names)}?` : `live: ${quoteList(names) || "none"}`;
  throw new UserError(`no batch export named "${name}" in project ${project} (${hint})`);
}

async function readDeclared(
  ctx: OpsContext,
  configPath: string | undefined,
): Promise<{ declared: Declared[]; projects: Set<number> }> {
  const path = configPath ?? (existsSync(resolvePath(ctx.io.cwd, "posthog")) ? "posthog" : undefined);
  if (path === undefined) return { declared: [], projects: new Set() };
  const loaded = await loadConfig([path], {
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    mode: "plan",
    ...(ctx.project === undefined ? {} : { defaultProject: ctx.project }),
  });
  const errors = loaded.diagnostics.filter((d) => d.severity === "error").length;
  if (errors > 0) {
    ctx.io.stderr.write(
      `warning: ${errors} error${errors === 1 ? "" : "s"} in ${path} (run validate); names are looked up in what loaded and in the live list\n`,
    );
  }
  const declared = loaded.projects.flatMap((p) =>
    p.batchExports.map((object) => ({ project: p.project, object })),
  );
  const projects = new Set(loaded.projects.flatMap((p) => (p.project === undefined ? [] : [p.project])));
  return { declared, projects };
}

function quoteList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}
