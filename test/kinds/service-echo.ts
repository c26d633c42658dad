/**
 * What the service returns after a create, in its least convenient form (older versions): tags
 * re-cased and re-ordered, timestamps with microseconds and `+00:00`, config scalars as strings,
 * secrets stripped, defaults added; and what the newest adds: `legacy_parquet_extension: false`, the
 * integration as `destination.integration`, the schedule's timezone ("UTC" for null or none) and
 * offsets (per interval, 0 when not sent), the hogql fields (`incremental_mode` APPEND by default).
 * Planning X against the echo of X must give no action.
 *
 * Which keys the service strips is written down here from service-api.md ("Secrets — how GET
 * responds"), not taken from the product: a product that forgot a secret field must fail these tests.
 */
import { batchExportKind } from "../../src/kinds/batch-export/index.js";
import { dashboardKind } from "../../src/kinds/dashboard/index.js";

const batchExportBody = batchExportKind.requestBody;
const dashboardBody = dashboardKind.requestBody;

import type { BatchExport } from "../../src/kinds/batch-export/index.js";
import type { DashboardBasic } from "../../src/kinds/dashboard/index.js";
import type { Action } from "../../src/plan/types.js";
import { liveBatchExport, liveDashboard } from "../builders.js";

const ENV = { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "key", PG_USER: "u", PG_PASSWORD: "p" };

/** The service's `secret_fields` per destination type; removed recursively from every read. */
const STRIPPED: Record<string, readonly string[]> = {
  S3: ["aws_access_key_id", "aws_secret_access_key"],
  AwsS3: ["aws_access_key_id", "aws_secret_access_key"],
  S3Compatible: ["aws_access_key_id", "aws_secret_access_key"],
  Snowflake: ["user", "password", "private_key", "private_key_passphrase"],
  Postgres: ["user", "password"],
  Redshift: ["user", "password", "aws_access_key_id", "aws_secret_access_key"],
  BigQuery: ["private_key", "private_key_id", "client_email", "token_uri"],
  HTTP: ["token"],
};

function stringify(value: unknown): unknown {
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stringify(v)]));
  }
  return value;
}

function stripSecrets(type: string, config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if ((STRIPPED[type] ?? []).includes(key)) continue;
    out[key] =
      value && typeof value === "object" && !Array.isArray(value)
        ? stripSecrets(type, value as Record<string, unknown>)
        : value;
  }
  return out;
}

function echoInstant(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return new Date(value).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

export function echoDashboard(create: Action): DashboardBasic {
  const body = dashboardBody(create, ENV) ?? {};
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
  const body = batchExportBody(create, ENV) ?? {};
  const destination = body.destination as {
    type: string;
    config: Record<string, unknown>;
    integration_id?: number;
  };
  const config = stringify(stripSecrets(destination.type, destination.config)) as Record<string, unknown>;
  config.legacy_parquet_extension = false;
  config.exclude_events = config.exclude_events ?? [];
  const interval = (body.interval as string | undefined) ?? "hour";
  const newest = {
    primary_key: body.primary_key ?? null,
    version_key: body.version_key ?? null,
    incremental_mode: body.incremental_mode ?? "APPEND",
  };
  return liveBatchExport({
    ...(newest as Partial<BatchExport>),
    name: body.name as string,
    model: (body.model as string | undefined) ?? "events",
    interval,
    timezone: (body.timezone as string | null | undefined) ?? "UTC",
    offset_day: interval === "week" ? ((body.offset_day as number | undefined) ?? 0) : null,
    offset_hour:
      interval === "day" || interval === "week" ? ((body.offset_hour as number | undefined) ?? 0) : null,
    paused: (body.paused as boolean | undefined) ?? false,
    start_at: echoInstant(body.start_at),
    end_at: echoInstant(body.end_at),
    hogql_query: typeof body.hogql_query === "string" ? `  ${body.hogql_query.trim()}  ` : "",
    filters: Array.isArray(body.filters) && body.filters.length > 0 ? body.filters : null,
    destination: { type: destination.type, config, integration: destination.integration_id ?? null },
  });
}
