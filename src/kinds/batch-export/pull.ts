/**
 * Live batch exports → YAML items. The field table writes model, interval, paused and (newest
 * services) the schedule's timezone and offsets even at their defaults, so that a pause or a change
 * made in the UI shows up as drift in the next plan; the HogQL-only fields for model hogql only. The
 * destination is written here: the integration as `destination.integration`, and secret config
 * fields, which the service never returns, as `${NAME}` placeholders named after the export (none for
 * the credentials an integration holds).
 */
import { setPath } from "../../plan/values.js";
import { Placeholder, type Pulled } from "../../pull/kinds.js";
import type { ServiceClient } from "../../service/index.js";
import type { BatchExport } from "./answers.js";
import { batchExportFields } from "./fields.js";
import { batchExportsApi } from "./service.js";
import { pullSecretPaths, secretVariableName } from "./service-rules/destinations.js";

const HOGQL_ONLY = ["primary_key", "version_key", "incremental_mode"];

/** The YAML item that declares `live`, and the variables its secret placeholders name. */
export function batchExportItem(
  live: BatchExport,
  variablePrefix = live.name,
): { item: Record<string, unknown>; variables: string[] } {
  const item = batchExportFields.item(live);
  if (item.model !== "hogql") {
    for (const key of HOGQL_ONLY) delete item[key];
  }
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
  const exports = await batchExportsApi(client).listAll(project);
  const pulled: Pulled = { items: [], variables: [] };
  for (const live of exports) {
    const { item, variables } = batchExportItem(live);
    pulled.items.push(item);
    pulled.variables.push(...variables);
  }
  return pulled;
}
