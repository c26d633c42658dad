/**
 * NAME → one live batch export, for the operations commands. The files (`--config PATH`, else `posthog/`
 * when it exists) are read like `plan` reads them, with the same project precedence: an export they
 * declare is looked up in its file's project (by its `id` pin when it has one); otherwise in the project
 * of `--project` / POSTHOG_PROJECT_ID (or the files' only project), by name in the live list. A UUID is
 * taken as the export's id.
 */
import { UserError } from "../errors.js";
import {
  BATCH_EXPORT_KIND,
  type BatchExport,
  declaredExports,
  EXPORT_WORDS,
  liveExport,
} from "../kinds/batch-export/operations/index.js";
import { readOptionalConfig } from "./config.js";
import type { ConnectionFlags, OpsContext } from "./connect.js";
import { projectChoice } from "./project.js";

export interface ResolvedExport {
  project: number;
  export: BatchExport;
}

export async function resolveExport(
  ctx: OpsContext,
  flags: ConnectionFlags,
  name: string | undefined,
  configPath?: string,
): Promise<ResolvedExport> {
  if (!name?.trim()) throw new UserError(`give the ${EXPORT_WORDS.one}'s NAME (or its id)`);
  // The batch exports' declarations alone: a problem in another kind's never stops an operation.
  const loaded = await readOptionalConfig(configPath, flags, ctx.io, [BATCH_EXPORT_KIND]);
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
  return { project, export: await liveExport(ctx.client, project, name, found?.object.id) };
}
