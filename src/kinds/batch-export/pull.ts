/**
 * Live batch exports → YAML items. model, interval, paused and (newest services) the schedule's
 * timezone and offsets are written even at their defaults, so that a pause or a change made in the UI
 * shows up as drift in the next plan; the integration as `destination.integration`. Secret config
 * fields, which the service never returns, become `${NAME}` placeholders named after the export
 * (none for the credentials an integration holds).
 */
import { setPath } from "../../plan/values.js";
import { Placeholder, type Pulled } from "../../pull/kinds.js";
import type { ServiceClient } from "../../service/index.js";
import type { BatchExport } from "../../service/types.js";
import { normaliseInstant } from "../shared/normalise.js";
import { pullSecretPaths, secretVariableName } from "./destinations.js";

/** The YAML item that declares `live`, and the variables its secret placeholders name. */
export function batchExportItem(
  live: BatchExport,
  variablePrefix = live.name,
): { item: Record<string, unknown>; variables: string[] } {
  const item: Record<string, unknown> = { name: live.name, id: live.id };
  item.model = live.model ?? "events";
  item.interval = live.interval;
  if (live.timezone !== undefined) item.timezone = live.timezone ?? "UTC";
  if (live.offset_day !== undefined && live.offset_day !== null) item.offset_day = live.offset_day;
  if (live.offset_hour !== undefined && live.offset_hour !== null) item.offset_hour = live.offset_hour;
  item.paused = live.paused;
  if (live.start_at) item.start_at = normaliseInstant(live.start_at)?.replace(".000000Z", "Z");
  if (live.end_at) item.end_at = normaliseInstant(live.end_at)?.replace(".000000Z", "Z");
  if (live.hogql_query && live.hogql_query.trim() !== "") item.hogql_query = live.hogql_query;
  if (item.model === "hogql") {
    const hogql = live as BatchExport & Record<string, unknown>;
    for (const key of ["primary_key", "version_key", "incremental_mode"]) {
      if (hogql[key] !== undefined && hogql[key] !== null) item[key] = hogql[key];
    }
  }
  if (live.filters && live.filters.length > 0) item.filters = live.filters;
  const config = structuredClone(live.destination.config ?? {});
  const integration = live.destination.integration ?? null;
  const variables: string[] = [];
  for (const path of pullSecretPaths(live.destination.type, config, integration)) {
    const variable = secretVariableName(variablePrefix, path);
    setPath(config, path, new Placeholder(variable));
    variables.push(variable);
  }
  const destination: Record<string, unknown> = { type: live.destination.type };
  if (integration !== null) destination.integration = integration;
  destination.config = config;
  item.destination = destination;
  return { item, variables };
}

export async function pullBatchExports(client: ServiceClient, project: number): Promise<Pulled> {
  const exports = await client.batchExports.listAll(project);
  const pulled: Pulled = { items: [], variables: [] };
  for (const live of exports) {
    const { item, variables } = batchExportItem(live);
    pulled.items.push(item);
    pulled.variables.push(...variables);
  }
  return pulled;
}
