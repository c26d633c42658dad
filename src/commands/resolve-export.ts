/**
 * NAME → one live batch export, for the operations commands. The files (`--config PATH`, else `posthog/`
 * when it exists) are read like `plan` reads them, with the same project precedence: an export they
 * declare is looked up in its file's project (by its `id` pin when it has one); otherwise in the project
 * of `--project` / POSTHOG_PROJECT_ID (or the files' only project), by name in the live list. A UUID is
 * taken as the export's id.
 */
import { UserError } from "../errors.js";
import { declaredExports } from "../kinds/batch-export/operations/index.js";
import { collect } from "../service/index.js";
import type { BatchExport } from "../service/types.js";
import { readOptionalConfig } from "./config.js";
import type { ConnectionFlags, OpsContext } from "./connect.js";
import { projectChoice } from "./project.js";

export interface ResolvedExport {
  project: number;
  export: BatchExport;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function resolveExport(
  ctx: OpsContext,
  flags: ConnectionFlags,
  name: string | undefined,
  configPath?: string,
): Promise<ResolvedExport> {
  if (!name?.trim()) throw new UserError("give the batch export's NAME (or its id)");
  const loaded = await readOptionalConfig(configPath, flags, ctx.io);
  const projects = new Set(loaded?.projects.flatMap((p) => (p.project === undefined ? [] : [p.project])));
  const matches = (loaded?.projects ?? []).flatMap((p) =>
    declaredExports(p)
      .filter((d) => d.name === name)
      .map((object) => ({ project: p.project, object })),
  );
  const inProjects = new Set(matches.map((m) => m.project));
  if (inProjects.size > 1) {
    throw new UserError(
      `"${name}" is declared in projects ${[...inProjects].join(", ")}: point --config at one project's files`,
    );
  }
  const found = matches[0];
  const choice = projectChoice(flags, ctx.io);
  const project = found?.project ?? choice.project ?? (projects.size === 1 ? [...projects][0] : undefined);
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

function quoteList(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}
