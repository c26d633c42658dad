/**
 * What the service returns after a create, in its least convenient form (older versions): tags
 * re-cased and re-ordered, timestamps with microseconds and `+00:00`, config scalars as strings,
 * secrets stripped, defaults added. Planning X against the echo of X must give no action.
 */

import { batchExportHandler } from "../../src/kinds/batch-export.js";
import { dashboardHandler } from "../../src/kinds/dashboard.js";
import { isSecretPath } from "../../src/kinds/secrets.js";
import type { Action } from "../../src/plan/types.js";
import type { BatchExport, DashboardBasic } from "../../src/service/types.js";
import { liveBatchExport, liveDashboard } from "../builders.js";

const ENV = { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "key", PG_USER: "u", PG_PASSWORD: "p" };

function stringify(value: unknown): unknown {
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringify(v)]));
  }
  return value;
}

function stripSecrets(type: string, config: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (isSecretPath(type, path)) continue;
    out[key] =
      value && typeof value === "object" && !Array.isArray(value)
        ? stripSecrets(type, value as Record<string, unknown>, path)
        : value;
  }
  return out;
}

function echoInstant(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return new Date(value).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

export function echoDashboard(create: Action): DashboardBasic {
  const body = dashboardHandler.requestBody(create, ENV) ?? {};
  const restriction = (body.restriction_level as 21 | 37 | undefined) ?? 21;
  return liveDashboard({
    name: body.name as string,
    description: (body.description as string | undefined) ?? "",
    pinned: (body.pinned as boolean | undefined) ?? false,
    tags: [...((body.tags as string[] | undefined) ?? [])].reverse().map((t) => t.toUpperCase()),
    restriction_level: restriction,
  });
}

export function echoBatchExport(create: Action): BatchExport {
  const body = batchExportHandler.requestBody(create, ENV) ?? {};
  const destination = body.destination as {
    type: string;
    config: Record<string, unknown>;
    integration_id?: number;
  };
  const config = stringify(stripSecrets(destination.type, destination.config)) as Record<string, unknown>;
  config.legacy_parquet_extension = false;
  config.exclude_events = config.exclude_events ?? [];
  return liveBatchExport({
    name: body.name as string,
    model: (body.model as string | undefined) ?? "events",
    interval: (body.interval as string | undefined) ?? "hour",
    paused: (body.paused as boolean | undefined) ?? false,
    start_at: echoInstant(body.start_at),
    end_at: echoInstant(body.end_at),
    hogql_query: typeof body.hogql_query === "string" ? `  ${body.hogql_query.trim()}  ` : "",
    filters: Array.isArray(body.filters) && body.filters.length > 0 ? body.filters : null,
    destination: { type: destination.type, config, integration: destination.integration_id ?? null },
  });
}
