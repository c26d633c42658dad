/**
 * One declared batch export (already schema-valid) → `DesiredBatchExport`. Semantic rules, all knowable
 * offline: timestamps carry a timezone and start_at is before end_at; the schedule's timezone is an IANA
 * zone and its offsets fit the interval (offset_day weekly only, offset_hour daily and weekly only);
 * HTTP destinations export events only (and a URL outside the newest service's allow-list is a
 * warning); `filters` go with model events only, the HogQL-only fields with model hogql; compressions
 * fit the file format; `destination.integration` (or its deprecated alias `integration_id`) is given
 * once, never next to the inline credentials an integration replaces; Databricks and AzureBlob name
 * one (every service refuses them without). Secret destination fields are exactly one `${NAME}`
 * reference and become `SecretValue`s keyed by dotted path, never part of `config`. A missing secret
 * variable is collected (config/missing-secrets.ts): one note listing them all for validate/plan, or
 * one error per variable for apply. What depends on live state (create or update, the integration's kind) is the
 * planner's (plan.ts).
 */
import type { ObjectContext } from "../../config/context.js";
import { envLookup, isToolVariable, secretReference } from "../../config/interpolate.js";
import { noteMissingSecret } from "../../config/missing-secrets.js";
import { SecretValue } from "../../config/secret.js";
import type { Declared, SourceRef } from "../../config/types.js";
import { isoTime } from "../../render/time.js";
import {
  COMPRESSIONS_BY_FORMAT,
  type DestinationType,
  HTTP_URLS,
  INTEGRATION_KIND,
  isCredentialPath,
  MOVED_TO_INTEGRATION,
  NEEDS_INTEGRATION,
  secretPaths,
} from "./destinations.js";

export type Model = "events" | "persons" | "sessions" | "hogql";
export type Interval = "hour" | "day" | "week" | "every 5 minutes" | "every 15 minutes";

export interface DesiredDestination {
  type: DestinationType;
  /**
   * Non-secret config keys, interpolated. Secret keys (per destination type) are not here but in
   * `secrets`, keyed by the same dotted path they have in the config (e.g. `copy_inputs.authorization.aws_access_key_id`).
   */
  config: Record<string, unknown>;
  secrets: Record<string, SecretValue>;
  /**
   * The project's PostHog integration holding the credentials (`destination.integration`, or its
   * deprecated alias `integration_id`). Sent as `destination.integration_id`; the service shows it as
   * `destination.integration`.
   */
  integration?: number;
  /** Where the integration id is written, for the planner's errors about it. */
  integrationSource?: SourceRef;
}

export interface DesiredBatchExport extends Declared {
  kind: "batch_export";
  /** Pinned identity (the service's UUID). */
  id?: string;
  model?: Model;
  interval?: Interval;
  /** IANA zone; null = UTC (the service stores null as "UTC"). */
  timezone?: string | null;
  offset_day?: number;
  offset_hour?: number;
  paused?: boolean;
  /** Send unpause with `backfill: true` so the paused gap is exported. */
  backfill_on_unpause?: boolean;
  /** ISO-8601 UTC instants. */
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  primary_key?: string[];
  version_key?: string[];
  incremental_mode?: "APPEND" | "MERGE";
  filters?: unknown[];
  destination?: DesiredDestination;
}

export interface BatchExportInput {
  name: string;
  id?: string;
  model?: Model;
  interval?: Interval;
  timezone?: string | null;
  offset_day?: number;
  offset_hour?: number;
  paused?: boolean;
  backfill_on_unpause?: boolean;
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  primary_key?: string[];
  version_key?: string[];
  incremental_mode?: "APPEND" | "MERGE";
  filters?: Record<string, unknown>[];
  destination?: {
    type: DestinationType;
    config?: Record<string, unknown>;
    integration?: number;
    integration_id?: number;
  };
  deleted?: boolean;
}

const WITH_ZONE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

export function declareBatchExport(input: BatchExportInput, ctx: ObjectContext): DesiredBatchExport {
  const out: DesiredBatchExport = {
    kind: "batch_export",
    name: ctx.text("/name", input.name),
    deleted: input.deleted ?? false,
    source: ctx.source(),
  };
  if (input.id !== undefined) out.id = input.id.toLowerCase();
  if (input.model !== undefined) out.model = input.model;
  if (input.interval !== undefined) out.interval = input.interval;
  schedule(input, out, ctx);
  if (input.paused !== undefined) out.paused = input.paused;
  if (input.backfill_on_unpause !== undefined) out.backfill_on_unpause = input.backfill_on_unpause;
  if (input.start_at !== undefined) out.start_at = instant("start_at", input.start_at, ctx);
  if (input.end_at !== undefined) out.end_at = instant("end_at", input.end_at, ctx);
  if (typeof out.start_at === "string" && typeof out.end_at === "string" && out.start_at >= out.end_at) {
    ctx.error(
      "/start_at",
      `start_at of ${ctx.owner} (${isoTime(out.start_at)}) must be before its end_at (${isoTime(out.end_at)})`,
    );
  }
  if (input.hogql_query !== undefined) out.hogql_query = ctx.text("/hogql_query", input.hogql_query);
  hogqlFields(input, out, ctx);
  if (input.filters !== undefined) {
    out.filters = ctx.deep("/filters", input.filters) as unknown[];
    if (input.model !== undefined && input.model !== "events" && input.filters.length > 0) {
      ctx.error(
        "/filters",
        `filters of ${ctx.owner} need model: events (the service refuses them with model ${input.model})`,
        "key",
      );
    }
  }
  if (input.destination !== undefined) {
    out.destination = destination(input.destination, ctx);
    if (input.destination.type === "HTTP" && input.model !== undefined && input.model !== "events") {
      ctx.error("/model", `${ctx.owner} has an HTTP destination, which only supports model: events`);
    }
  }
  return out;
}

/** timezone, offset_day and offset_hour, with the interval rules the service applies. */
function schedule(input: BatchExportInput, out: DesiredBatchExport, ctx: ObjectContext): void {
  if (input.timezone !== undefined) {
    if (input.timezone === null) out.timezone = null;
    else {
      const zone = ctx.text("/timezone", input.timezone);
      if (isTimeZone(zone)) out.timezone = zone;
      else {
        ctx.error(
          "/timezone",
          `timezone of ${ctx.owner} is not a time zone the service knows: write an IANA name like Europe/Berlin or UTC`,
        );
      }
    }
  }
  const interval = input.interval;
  if (input.offset_day !== undefined) {
    if (interval !== undefined && interval !== "week") {
      ctx.error(
        "/offset_day",
        `offset_day of ${ctx.owner} applies to weekly exports only (its interval is ${interval})`,
        "key",
      );
    } else out.offset_day = input.offset_day;
  }
  if (input.offset_hour !== undefined) {
    if (interval !== undefined && interval !== "day" && interval !== "week") {
      ctx.error(
        "/offset_hour",
        `offset_hour of ${ctx.owner} applies to daily and weekly exports only (its interval is ${interval})`,
        "key",
      );
    } else out.offset_hour = input.offset_hour;
  }
}

/** primary_key, version_key and incremental_mode: model hogql only; MERGE needs a primary key. */
function hogqlFields(input: BatchExportInput, out: DesiredBatchExport, ctx: ObjectContext): void {
  for (const key of ["primary_key", "version_key", "incremental_mode"] as const) {
    if (input[key] === undefined) continue;
    if (input.model !== undefined && input.model !== "hogql") {
      ctx.error(`/${key}`, `${key} of ${ctx.owner} needs model: hogql (its model is ${input.model})`, "key");
    }
  }
  if (input.primary_key !== undefined) {
    out.primary_key = input.primary_key.map((c, i) => ctx.text(`/primary_key/${i}`, c));
  }
  if (input.version_key !== undefined) {
    out.version_key = input.version_key.map((c, i) => ctx.text(`/version_key/${i}`, c));
  }
  if (input.incremental_mode !== undefined) {
    out.incremental_mode = input.incremental_mode;
    if (input.incremental_mode === "MERGE" && input.primary_key === undefined) {
      ctx.error(
        "/incremental_mode",
        `${ctx.owner} merges (incremental_mode: MERGE), which needs a primary_key`,
      );
    }
  }
}

const zones = new Map<string, boolean>();

/**
 * An IANA zone as the service's choices (pytz) spell it: one the platform's zone database knows,
 * every segment capitalised (`europe/berlin` is refused like pytz refuses it).
 */
export function isTimeZone(name: string): boolean {
  let ok = zones.get(name);
  if (ok !== undefined) return ok;
  ok = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z0-9][A-Za-z0-9_+-]*)*$/.test(name);
  if (ok) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
    } catch {
      ok = false;
    }
  }
  if (zones.size < 1000) zones.set(name, ok);
  return ok;
}

/** ISO-8601 with a timezone → UTC instant (`…Z`); undefined after reporting when it is not one. */
function instant(key: string, value: string | null, ctx: ObjectContext): string | null | undefined {
  if (value === null) return null;
  const text = ctx.text(`/${key}`, value).trim();
  if (WITHOUT_ZONE.test(text)) {
    ctx.error(`/${key}`, `${key} of ${ctx.owner} has no timezone: write it like 2026-01-01T00:00:00Z`);
    return undefined;
  }
  const ms = WITH_ZONE.test(text) ? Date.parse(text.replace(" ", "T")) : Number.NaN;
  if (Number.isNaN(ms)) {
    ctx.error(
      `/${key}`,
      `${key} of ${ctx.owner} is not an ISO-8601 date-time: write it like 2026-01-01T00:00:00Z`,
    );
    return undefined;
  }
  return new Date(ms).toISOString();
}

function destination(
  input: NonNullable<BatchExportInput["destination"]>,
  ctx: ObjectContext,
): DesiredDestination {
  const config = input.config ?? {};
  const secrets: Record<string, SecretValue> = {};
  const skip = new Set<string>();
  for (const path of secretPaths(input.type)) {
    const pointer = `/destination/config/${path.split(".").join("/")}`;
    const value = lookup(config, path.split("."));
    if (value === undefined) continue;
    skip.add(pointer);
    const field = `destination.config.${path}`;
    const name = secretReference(value);
    if (name === undefined) {
      literalSecret(pointer, field, ctx);
      continue;
    }
    if (isToolVariable(name)) {
      ctx.error(
        pointer,
        `${field} of ${ctx.owner} refers to ${name}: this tool's own variables (POSTHOG_*) never go into a field; use a variable of the destination's own credentials`,
      );
      continue;
    }
    const set = envLookup(ctx.run.env)(name);
    const available = set !== undefined;
    if (!available) noteMissingSecret(ctx, name, pointer, field);
    secrets[path] = new SecretValue(value as string, [name], available ? set : undefined);
  }
  const plain = ctx.deep("/destination/config", config, skip) as Record<string, unknown>;
  const out: DesiredDestination = { type: input.type, config: plain, secrets };
  const integration = integrationOf(input, ctx);
  if (integration !== undefined) {
    out.integration = integration.id;
    out.integrationSource = ctx.at(integration.pointer);
    inlineNextToIntegration(input.type, plain, Object.keys(secrets), ctx, integration.pointer);
  } else if (NEEDS_INTEGRATION.has(input.type)) {
    ctx.error(
      "/destination",
      `${ctx.owner} has destination type ${input.type}, whose credentials live in a PostHog integration: create the integration in PostHog and set destination.integration to its id`,
      "key",
    );
  }
  checkDestinationConfig(input.type, plain, ctx);
  return out;
}

/** `integration`, or its deprecated alias `integration_id`; both at once is an error. */
function integrationOf(
  input: NonNullable<BatchExportInput["destination"]>,
  ctx: ObjectContext,
): { id: number; pointer: string } | undefined {
  if (input.integration !== undefined && input.integration_id !== undefined) {
    ctx.error(
      "/destination/integration_id",
      `${ctx.owner} gives both destination.integration and destination.integration_id (its deprecated alias): keep integration only`,
      "key",
    );
  }
  if (input.integration !== undefined) {
    return { id: input.integration, pointer: "/destination/integration" };
  }
  if (input.integration_id !== undefined) {
    return { id: input.integration_id, pointer: "/destination/integration_id" };
  }
  return undefined;
}

/** The connection settings a `postgresql` integration holds. */
const POSTGRES_CONNECTION = ["host", "password", "port", "user"];

/** Credentials an integration replaces may not be declared next to one. */
function inlineNextToIntegration(
  type: DestinationType,
  config: Record<string, unknown>,
  secretKeys: readonly string[],
  ctx: ObjectContext,
  pointer: string,
): void {
  if (type === "S3") {
    ctx.error(
      "/destination/type",
      `${ctx.owner} names an integration, but S3 is the legacy type with inline keys: use type AwsS3 (or S3Compatible for other S3-compatible storage) with the integration`,
    );
    return;
  }
  if (INTEGRATION_KIND[type] === undefined) {
    ctx.error(
      pointer,
      `${ctx.owner} has destination type ${type}, which takes no integration: remove destination.integration`,
      "key",
    );
    return;
  }
  if (type === "Postgres") {
    // The newest service refuses an update that sends these next to a `postgresql` integration (it
    // reads the connection from the integration; PostHog's test_update_postgres.py).
    const inline = [...Object.keys(config), ...secretKeys]
      .filter((k) => POSTGRES_CONNECTION.includes(k))
      .sort();
    if (inline.length > 0) {
      ctx.error(
        `/destination/config/${inline[0]}`,
        `${ctx.owner} names a PostgreSQL integration, which holds the connection: remove ${inline.map((k) => `destination.config.${k}`).join(", ")} (the service refuses them on updates)`,
        "key",
      );
    }
    return;
  }
  if (type !== "Snowflake") return;
  const inline = [
    ...(MOVED_TO_INTEGRATION[type] ?? []).filter((k) => k in config),
    ...secretKeys.filter(isCredentialPath),
  ];
  if (inline.length > 0) {
    ctx.error(
      `/destination/config/${inline[0]}`,
      `${ctx.owner} names a Snowflake integration, which holds the account and credentials: remove ${inline.map((k) => `destination.config.${k}`).join(", ")} (the service refuses them as unknown fields)`,
      "key",
    );
  }
}

/** The config checks the newest service makes that need no live state. */
function checkDestinationConfig(
  type: DestinationType,
  config: Record<string, unknown>,
  ctx: ObjectContext,
): void {
  if (type === "HTTP" && typeof config.url === "string" && !HTTP_URLS.includes(config.url)) {
    ctx.report(
      "warning",
      "/destination/config/url",
      `the newest PostHog service accepts only ${HTTP_URLS.join(" or ")} as the URL of an HTTP destination: creating or changing ${ctx.owner} will be refused`,
    );
  }
  if (["AwsS3", "S3Compatible", "S3", "AzureBlob"].includes(type) && typeof config.compression === "string") {
    const format = typeof config.file_format === "string" ? config.file_format : "JSONLines";
    const allowed = COMPRESSIONS_BY_FORMAT[format] ?? [];
    if (!allowed.includes(config.compression)) {
      ctx.error(
        "/destination/config/compression",
        `compression ${config.compression} of ${ctx.owner} does not go with file_format ${format}: use ${allowed.join(" or ")}`,
      );
    }
  }
}

function literalSecret(pointer: string, field: string, ctx: ObjectContext): void {
  ctx.error(
    pointer,
    `${field} of ${ctx.owner} is a secret: write it as a \${NAME} reference to an environment variable, not a literal value`,
  );
}

/**
 * For an export left out of the desired state because of a schema error: a literal secret in Git is
 * still reported in the same run, since it must be removed from the history whatever else is wrong.
 */
export function checkSecretLiterals(input: unknown, ctx: ObjectContext): void {
  const dest = (input as { destination?: { type?: unknown; config?: unknown } } | null)?.destination;
  if (typeof dest?.type !== "string" || typeof dest.config !== "object" || dest.config === null) return;
  for (const path of writtenSecretPaths(dest.type)) {
    const value = lookup(dest.config, path.split("."));
    // A non-string value already has its own schema error at the same place.
    if (typeof value === "string" && secretReference(value) === undefined) {
      literalSecret(`/destination/config/${path.split(".").join("/")}`, `destination.config.${path}`, ctx);
    }
  }
}

function lookup(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Destination config values may be secrets written by mistake: messages never echo them. */
export function quietBatchExportValue(pointer: string): boolean {
  return /^\/destination\/config(\/|$)/.test(pointer);
}

/**
 * Pointers of the secret fields of an item's destination type (they follow the secret rule). AwsS3 and
 * S3Compatible take no inline keys (a schema error says so), but the service still counts the AWS key
 * fields as their secrets: a reference written there is not also reported as a stray `${NAME}`.
 */
export function batchExportSecretPointers(input: unknown): string[] {
  const type = (input as { destination?: { type?: unknown } } | null)?.destination?.type;
  if (typeof type !== "string") return [];
  return writtenSecretPaths(type).map((path) => `/destination/config/${path.split(".").join("/")}`);
}

/** The secret paths a file may hold for a type: its own, and the AWS keys for the S3 family. */
function writtenSecretPaths(type: string): readonly string[] {
  return type === "AwsS3" || type === "S3Compatible" ? secretPaths("S3") : secretPaths(type);
}
