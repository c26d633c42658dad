/**
 * Live batch exports as the operations commands find them: one by its id or its name (`runs`, `retry`,
 * `backfill`, `logs`), every export of a project or of an organization (`status`), and the exports that
 * match what the files declare. GET requests only.
 */
import { UserError } from "../../../errors.js";
import { collect, type ServiceClient, ServiceError } from "../../../service/index.js";
import type { BatchExport } from "../answers.js";
import { batchExportsApi } from "../service.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The export `name` names in `project`: by its `pinned` id (the files' `id:`) or by `name` when it is a
 * UUID, else by name in the live list.
 */
export async function liveExport(
  client: ServiceClient,
  project: number,
  name: string,
  pinned?: string,
): Promise<BatchExport> {
  const id = pinned ?? (UUID.test(name) ? name : undefined);
  if (id) return batchExportsApi(client).get(project, id);
  const live = await projectExports(client, project);
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

/** Every export of the project. */
export function projectExports(client: ServiceClient, project: number): Promise<BatchExport[]> {
  return collect(batchExportsApi(client).list(project));
}

/**
 * Every export of the organization: its batch-export list where the service still has it, else (the
 * newest service removed the organization-scope routes: 404) each of its projects' lists, read from
 * `GET /api/organizations/{id}/projects/`.
 */
export async function organizationExports(
  client: ServiceClient,
  organization: string,
): Promise<BatchExport[]> {
  try {
    return await collect(batchExportsApi(client).listForOrganization(organization));
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 404) throw error;
  }
  const projects = await collect(client.organizations.listProjects(organization));
  const exports: BatchExport[] = [];
  for (const id of [...new Set(projects.map((p) => p.id))].sort((a, b) => a - b)) {
    exports.push(...(await projectExports(client, id)));
  }
  return exports;
}
