/**
 * Live batch exports of a project: one list read (100 per page); nothing per export. When some declared
 * export names an integration, the project's integrations too (one list request, `integration:read`),
 * so the planner can check each one exists and fits its type; never otherwise (SPEC §6 request bound).
 * The comparable state drops what the service owns (ids, timestamps, latest runs, the compiled schema);
 * config is secret-free already (the service strips secrets from every response).
 */
import type { Declared } from "../../config/types.js";
import { UserError } from "../../errors.js";
import type { LiveKind } from "../../plan/types.js";
import type { Integration, ServiceClient } from "../../service/index.js";
import type { BatchExport } from "../../service/types.js";
import { normaliseInstant, normaliseQuery } from "../shared/normalise.js";
import type { DesiredBatchExport } from "./declare.js";

export interface LiveBatchExports extends LiveKind {
  objects: BatchExport[];
  /** The project's integrations; read only when a declared export names one. */
  integrations?: Integration[];
}

/** What was read besides the list (saved with a plan, so `apply --plan` reads the same). */
export interface BatchExportReads {
  integrations?: true;
}

/** The comparable shape of a live batch export. */
export interface BatchExportState {
  id: string;
  name: string;
  model: string;
  interval: string;
  paused: boolean;
  start_at: string | null;
  end_at: string | null;
  hogql_query: string;
  filters: unknown[];
  /** Newest services only (absent from older answers). */
  timezone?: string;
  offset_day?: number | null;
  offset_hour?: number | null;
  primary_key?: string[] | null;
  version_key?: string[] | null;
  incremental_mode?: string | null;
  destination: { type: string; config: Record<string, unknown>; integration: number | null };
}

export function batchExportState(live: BatchExport): BatchExportState {
  const state: BatchExportState = {
    id: live.id,
    name: live.name,
    model: live.model ?? "events",
    interval: live.interval,
    paused: live.paused,
    start_at: normaliseInstant(live.start_at),
    end_at: normaliseInstant(live.end_at),
    hogql_query: normaliseQuery(live.hogql_query),
    filters: live.filters ?? [],
    destination: {
      type: live.destination.type,
      config: live.destination.config ?? {},
      integration: live.destination.integration ?? null,
    },
  };
  const newer = live as BatchExport & {
    primary_key?: string[] | null;
    version_key?: string[] | null;
    incremental_mode?: string | null;
  };
  if (live.timezone !== undefined) state.timezone = live.timezone ?? "UTC";
  if (live.offset_day !== undefined) state.offset_day = live.offset_day;
  if (live.offset_hour !== undefined) state.offset_hour = live.offset_hour;
  if (newer.primary_key !== undefined) state.primary_key = newer.primary_key;
  if (newer.version_key !== undefined) state.version_key = newer.version_key;
  if (newer.incremental_mode !== undefined) state.incremental_mode = newer.incremental_mode;
  return state;
}

function namesIntegration(declared: Declared): boolean {
  const d = declared as DesiredBatchExport;
  return !d.deleted && d.destination?.integration !== undefined;
}

export async function readBatchExports(
  client: ServiceClient,
  project: number,
  declared: readonly Declared[],
): Promise<{ live: LiveBatchExports; read: BatchExportReads }> {
  const read: BatchExportReads = declared.some(namesIntegration) ? { integrations: true } : {};
  return { live: await readAll(client, project, read), read };
}

export async function rereadBatchExports(
  client: ServiceClient,
  project: number,
  read: unknown,
): Promise<LiveBatchExports> {
  return readAll(client, project, checkReads(read));
}

async function readAll(
  client: ServiceClient,
  project: number,
  read: BatchExportReads,
): Promise<LiveBatchExports> {
  const [objects, integrations] = await Promise.all([
    client.batchExports.listAll(project),
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
