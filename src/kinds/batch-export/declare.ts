/**
 * One declared batch export (already schema-valid) → `DesiredBatchExport`. Semantic rules: timestamps
 * carry a timezone and start_at is before end_at; HTTP destinations export events only; Databricks and
 * AzureBlob destinations name the Integration that holds their credentials (the service refuses them
 * without one, so a plan without it could never be applied); secret
 * destination fields are exactly one `${NAME}` reference and become `SecretValue`s keyed by dotted path,
 * never part of `config`. A missing secret variable is collected (config/missing-secrets.ts): one note for
 * validate/plan, or one error for apply, per variable.
 */
import type { ObjectContext } from "../../config/context.js";
import { envLookup, isToolVariable, secretReference } from "../../config/interpolate.js";
import { noteMissingSecret } from "../../config/missing-secrets.js";
import { SecretValue } from "../../config/secret.js";
import type { Declared } from "../../config/types.js";
import { type DestinationType, NEEDS_INTEGRATION, secretPaths } from "./destinations.js";

export type Model = "events" | "persons" | "sessions";
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
   * The PostHog Integration holding the credentials (required for Databricks and AzureBlob). Sent as
   * write-only `destination.integration_id`; the service shows it as `destination.integration`.
   */
  integration_id?: number;
}

export interface DesiredBatchExport extends Declared {
  kind: "batch_export";
  /** Pinned identity (the service's UUID). */
  id?: string;
  model?: Model;
  interval?: Interval;
  paused?: boolean;
  /** Send unpause with `backfill: true` so the paused gap is exported. */
  backfill_on_unpause?: boolean;
  /** ISO-8601 UTC instants. */
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  filters?: unknown[];
  destination?: DesiredDestination;
}

export interface BatchExportInput {
  name: string;
  id?: string;
  model?: Model;
  interval?: Interval;
  paused?: boolean;
  backfill_on_unpause?: boolean;
  start_at?: string | null;
  end_at?: string | null;
  hogql_query?: string;
  filters?: Record<string, unknown>[];
  destination?: { type: DestinationType; config?: Record<string, unknown>; integration_id?: number };
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
  if (input.paused !== undefined) out.paused = input.paused;
  if (input.backfill_on_unpause !== undefined) out.backfill_on_unpause = input.backfill_on_unpause;
  if (input.start_at !== undefined) out.start_at = instant("start_at", input.start_at, ctx);
  if (input.end_at !== undefined) out.end_at = instant("end_at", input.end_at, ctx);
  if (typeof out.start_at === "string" && typeof out.end_at === "string" && out.start_at >= out.end_at) {
    ctx.error(
      "/start_at",
      `start_at of ${ctx.owner} (${out.start_at}) must be before its end_at (${out.end_at})`,
    );
  }
  if (input.hogql_query !== undefined) out.hogql_query = ctx.text("/hogql_query", input.hogql_query);
  if (input.filters !== undefined) out.filters = ctx.deep("/filters", input.filters) as unknown[];
  if (input.destination !== undefined) {
    out.destination = destination(input.destination, ctx);
    if (input.destination.type === "HTTP" && input.model !== undefined && input.model !== "events") {
      ctx.error("/model", `${ctx.owner} has an HTTP destination, which only supports model: events`);
    }
  }
  return out;
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
  if (input.integration_id !== undefined) out.integration_id = input.integration_id;
  else if (NEEDS_INTEGRATION.has(input.type)) {
    ctx.error(
      "/destination",
      `${ctx.owner} has destination type ${input.type}, whose credentials live in a PostHog Integration: create the integration in PostHog and set destination.integration_id to its id`,
      "key",
    );
  }
  return out;
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
  for (const path of secretPaths(dest.type)) {
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

/** Pointers of the secret fields of an item's destination type (they follow the secret rule). */
export function batchExportSecretPointers(input: unknown): string[] {
  const type = (input as { destination?: { type?: unknown } } | null)?.destination?.type;
  if (typeof type !== "string") return [];
  return secretPaths(type).map((path) => `/destination/config/${path.split(".").join("/")}`);
}
