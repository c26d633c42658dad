/**
 * The declare parts of a batch export's fields that need more than interpolation: the schedule's
 * timezone (an IANA zone), instants (a timezone, normalised to UTC), and the destination: secret
 * fields are exactly one `${NAME}` reference and become `SecretValue`s keyed by dotted path, never
 * part of `config`; `destination.integration` (or its deprecated alias `integration_id`) is given once,
 * never next to the inline credentials an integration replaces; Databricks and AzureBlob name one
 * (every service refuses them without); HTTP URLs outside the newest service's allow-list are a
 * warning; compressions fit the file format. A missing secret variable is collected
 * (config/missing-secrets.ts). Rules across fields are item-rules.ts; what depends on live state (create
 * or update, the integration's kind) is the planner's (plan.ts).
 */

import { isTimeZone } from "posthog-gitops-shared/posthog";
import type { ObjectContext } from "../../config/context.js";
import { envLookup, isToolVariable, secretReference } from "../../config/interpolate.js";
import { noteMissingSecret } from "../../config/missing-secrets.js";
import { SecretValue } from "../../config/secret.js";
import type { FieldContext } from "../define/index.js";
import {
  COMPRESSIONS_BY_FORMAT,
  type DesiredDestination,
  type DestinationInput,
  type DestinationType,
  HTTP_URLS,
  INTEGRATION_KIND,
  type IntegrationName,
  isCredentialPath,
  MOVED_TO_INTEGRATION,
  NEEDS_INTEGRATION,
  secretPaths,
} from "./service-rules/destinations.js";
import { withArticle } from "./service-rules/legacy.js";

const WITH_ZONE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** The schedule's timezone: null (UTC), or an IANA zone the service knows. */
export function declareTimezone(
  value: string | null,
  { ctx, pointer }: FieldContext,
): string | null | undefined {
  if (value === null) return null;
  const zone = ctx.text(pointer, value);
  if (isTimeZone(zone)) return zone;
  ctx.error(
    pointer,
    `timezone of ${ctx.owner} is not a time zone the service knows: write an IANA name like Europe/Berlin or UTC`,
  );
  return undefined;
}

/** ISO-8601 with a timezone → UTC instant (`…Z`); undefined after reporting when it is not one. */
export function declareInstant(
  value: string | null,
  { ctx, pointer }: FieldContext,
): string | null | undefined {
  if (value === null) return null;
  const key = pointer.slice(1);
  const text = ctx.text(pointer, value).trim();
  if (WITHOUT_ZONE.test(text)) {
    ctx.error(pointer, `${key} of ${ctx.owner} has no timezone: write it like 2026-01-01T00:00:00Z`);
    return undefined;
  }
  const ms = WITH_ZONE.test(text) ? Date.parse(text.replace(" ", "T")) : Number.NaN;
  if (Number.isNaN(ms)) {
    ctx.error(
      pointer,
      `${key} of ${ctx.owner} is not an ISO-8601 date-time: write it like 2026-01-01T00:00:00Z`,
    );
    return undefined;
  }
  return new Date(ms).toISOString();
}

/** The declared destination: config interpolated, secrets as `SecretValue`s, the integration checked. */
export function declareDestination(input: DestinationInput, { ctx }: FieldContext): DesiredDestination {
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
    if (typeof integration.id === "number") out.integration = integration.id;
    else {
      out.integrationName = {
        kind: integration.id.kind,
        name: ctx.text(`${integration.pointer}/name`, integration.id.name),
      };
      const wanted = INTEGRATION_KIND[input.type];
      if (wanted !== undefined && integration.id.kind !== wanted) {
        ctx.error(
          `${integration.pointer}/kind`,
          `${ctx.owner} has destination type ${input.type}, which takes ${withArticle(wanted)} integration, not ${withArticle(integration.id.kind)} one`,
        );
      }
    }
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
  input: DestinationInput,
  ctx: ObjectContext,
): { id: number | IntegrationName; pointer: string } | undefined {
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
