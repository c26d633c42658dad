/**
 * Live batch exports → YAML items. model, interval and paused are written even at their defaults, so
 * that a pause or a change made in the UI shows up as drift in the next plan. Secret config fields,
 * which the service never returns, become `${NAME}` placeholders named after the export.
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
  item.paused = live.paused;
  if (live.start_at) item.start_at = normaliseInstant(live.start_at)?.replace(".000000Z", "Z");
  if (live.end_at) item.end_at = normaliseInstant(live.end_at)?.replace(".000000Z", "Z");
  if (live.hogql_query && live.hogql_query.trim() !== "") item.hogql_query = live.hogql_query;
  if (live.filters && live.filters.length > 0) item.filters = live.filters;
  const config = structuredClone(live.destination.config ?? {});
  const variables: string[] = [];
  for (const path of pullSecretPaths(live.destination.type, config)) {
    const variable = secretVariableName(variablePrefix, path);
    setPath(config, path, new Placeholder(variable));
    variables.push(variable);
  }
  const destination: Record<string, unknown> = { type: live.destination.type };
  const integration = live.destination.integration;
  if (integration !== undefined && integration !== null) destination.integration_id = integration;
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
