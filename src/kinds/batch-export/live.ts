/**
 * Live batch exports of a project: one list read (100 per page); nothing per export. When some declared
 * export names an integration, the project's integrations too (one list request, `integration:read`),
 * so the planner can check each one exists and fits its type; never otherwise (SPEC §6 request bound).
 * The comparable state is the field table's (fields.ts): it drops what the service owns (ids,
 * timestamps, latest runs, the compiled schema); config is secret-free already (the service strips
 * secrets from every response).
 */
import { UserError } from "../../errors.js";
import type { LiveKind } from "../../plan/types.js";
import type { ReadRun } from "../../read/kinds.js";
import type { Integration, ServiceClient } from "../../service/index.js";
import type { BatchExport } from "./answers.js";
import type { DesiredBatchExport } from "./fields.js";

export interface LiveBatchExports extends LiveKind {
  objects: BatchExport[];
  /** The project's integrations; read only when a declared export names one. */
  integrations?: Integration[];
}

/** What was read besides the list (saved with a plan, so `apply --plan` reads the same). */
export interface BatchExportReads {
  integrations?: true;
}

export async function readBatchExports(
  client: ServiceClient,
  project: number,
  declared: readonly DesiredBatchExport[],
  _run: ReadRun,
  list: () => Promise<BatchExport[]>,
): Promise<{ live: LiveBatchExports; read: BatchExportReads }> {
  const names = (d: DesiredBatchExport) =>
    !d.deleted && (d.destination?.integration !== undefined || d.destination?.integrationName !== undefined);
  const read: BatchExportReads = declared.some(names) ? { integrations: true } : {};
  return { live: await readAll(client, project, read, list), read };
}

export async function rereadBatchExports(
  client: ServiceClient,
  project: number,
  read: unknown,
  _run: ReadRun,
  list: () => Promise<BatchExport[]>,
): Promise<LiveBatchExports> {
  return readAll(client, project, checkReads(read), list);
}

async function readAll(
  client: ServiceClient,
  project: number,
  read: BatchExportReads,
  list: () => Promise<BatchExport[]>,
): Promise<LiveBatchExports> {
  const [objects, integrations] = await Promise.all([
    list(),
    read.integrations ? client.integrations.listAll(project) : undefined,
  ]);
  const live: LiveBatchExports = { objects };
  if (integrations !== undefined) live.integrations = integrations;
  return live;
}

/** A saved plan's record of what was read: `{}` or `{ integrations: true }`. */
function checkReads(read: unknown): BatchExportReads {
  if (read === undefined) return {};
  const ok =
    typeof read === "object" &&
    read !== null &&
    !Array.isArray(read) &&
    Object.entries(read).every(([k, v]) => k === "integrations" && v === true);
  if (!ok) throw new UserError("the saved plan's batch export reads are not ones this version writes");
  return read as BatchExportReads;
}
