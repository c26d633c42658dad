/**
 * Live batch exports of a project: one list read (100 per page); nothing per export. Their comparable
 * state drops what the service owns (ids, timestamps, latest runs, the compiled schema); config is
 * secret-free already (the service strips secrets from every response).
 */
import type { LiveKind } from "../../plan/types.js";
import type { ServiceClient } from "../../service/index.js";
import type { BatchExport } from "../../service/types.js";
import { normaliseInstant, normaliseQuery } from "../shared/normalise.js";

export interface LiveBatchExports extends LiveKind {
  objects: BatchExport[];
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
  destination: { type: string; config: Record<string, unknown>; integration: number | null };
}

export function batchExportState(live: BatchExport): BatchExportState {
  return {
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
}

export async function readBatchExports(
  client: ServiceClient,
  project: number,
): Promise<{ live: LiveBatchExports; read: Record<string, never> }> {
  return { live: { objects: await client.batchExports.listAll(project) }, read: {} };
}

export async function rereadBatchExports(client: ServiceClient, project: number): Promise<LiveBatchExports> {
  return { objects: await client.batchExports.listAll(project) };
}
