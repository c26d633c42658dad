/**
 * Destination types: their secret fields, the integration each needs, and what the newest service
 * refuses (service-api.md §4 "Integrations", "Newest accepted keys"). The schema's `x-secret` marks
 * (schema.ts) are the one list of secret fields: `declare` requires them to be `${NAME}` references,
 * the planner never compares them (the service strips them from every response), apply resolves them
 * from the environment, and `pull` writes placeholders for them.
 */
import type { SchemaNode } from "../../../config/kinds.js";
import type { SecretValue } from "../../../config/secret.js";
import type { SourceRef } from "../../../config/types.js";
import { isPlainObject } from "../../../plan/values.js";
import { configSchema } from "./schema.js";

export type DestinationType =
  | "AwsS3"
  | "S3Compatible"
  | "S3"
  | "Snowflake"
  | "Postgres"
  | "Redshift"
  | "BigQuery"
  | "Databricks"
  | "AzureBlob"
  | "HTTP"
  | "NoOp";

/** A declared destination, as the planner compares and sends it. */
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
  /**
   * The integration named by its kind and display name (`{kind, name}`, SPEC §9): resolved to this
   * project's id when planning (`integration` is then set), so one file serves several projects.
   */
  integrationName?: IntegrationName;
  /** Where the integration id is written, for the planner's errors about it. */
  integrationSource?: SourceRef;
}

/** An integration by what PostHog shows of it: its kind and its display name. */
export interface IntegrationName {
  kind: string;
  name: string;
}

/** A destination as a schema-valid file holds it. */
export interface DestinationInput {
  type: DestinationType;
  config?: Record<string, unknown>;
  integration?: number | IntegrationName;
  integration_id?: number;
}

/**
 * The integration kind each type takes (`GET .../integrations/` item `kind`). Legacy S3 takes none:
 * its keys are inline, and the newest service has no S3 type any more.
 */
export const INTEGRATION_KIND: Readonly<Record<string, string>> = {
  AwsS3: "aws-s3",
  S3Compatible: "s3-compatible",
  Snowflake: "snowflake",
  Postgres: "postgresql",
  Redshift: "aws-redshift",
  BigQuery: "google-cloud-service-account",
  Databricks: "databricks",
  AzureBlob: "azure-blob",
};

/**
 * Types whose every destination write names an integration, on every service version: declaring one
 * without `destination.integration` is an error offline.
 */
export const NEEDS_INTEGRATION: ReadonlySet<string> = new Set(["Databricks", "AzureBlob"]);

/** Types the newest service creates only with an integration (no legacy inline form exists). */
export const CREATE_NEEDS_INTEGRATION: ReadonlySet<string> = new Set([
  "AwsS3",
  "S3Compatible",
  "Databricks",
  "AzureBlob",
]);

/**
 * Types with a legacy inline-credential form (exports created before integrations): the newest
 * service still edits such exports but refuses to create one.
 */
export const LEGACY_INLINE_TYPES: ReadonlySet<string> = new Set([
  "S3",
  "Snowflake",
  "Postgres",
  "Redshift",
  "BigQuery",
]);

/**
 * Non-secret config keys that the newest service moved into the integration: refused as unknown
 * fields next to an integration, never returned by one.
 */
export const MOVED_TO_INTEGRATION: Readonly<Record<string, readonly string[]>> = {
  S3: ["endpoint_url"],
  Snowflake: ["account", "authentication_type"],
};

/** Config keys the newest service requires to create an export of each type (service-api.md §4). */
export const REQUIRED_ON_CREATE: Readonly<Record<string, readonly string[]>> = {
  AwsS3: ["bucket_name", "region", "prefix"],
  S3Compatible: ["bucket_name", "region", "prefix"],
  S3: ["bucket_name", "region", "prefix"],
  Snowflake: ["database", "warehouse", "schema"],
  Postgres: ["database"],
  Redshift: ["database"],
  BigQuery: ["dataset_id"],
  Databricks: ["http_path", "catalog", "schema", "table_name"],
  AzureBlob: ["container_name"],
  HTTP: ["url", "token"],
};

/** The only URLs the newest service takes for an HTTP destination. */
export const HTTP_URLS: readonly string[] = [
  "https://us.i.posthog.com/batch/",
  "https://eu.i.posthog.com/batch/",
];

/** Compressions per file format (S3 family and Azure Blob). */
export const COMPRESSIONS_BY_FORMAT: Readonly<Record<string, readonly string[]>> = {
  Parquet: ["zstd", "lz4", "snappy", "gzip", "brotli"],
  JSONLines: ["gzip", "brotli"],
};

const secretCache = new Map<string, readonly string[]>();

/**
 * Dotted paths of the secret fields of a destination type's config, e.g. `password` or
 * `copy_inputs.authorization.aws_access_key_id`. Empty for types without secrets.
 */
export function secretPaths(type: string): readonly string[] {
  let paths = secretCache.get(type);
  if (paths === undefined) {
    const found: string[] = [];
    const config = configSchema(type);
    if (config !== undefined) collectSecrets(config, "", found);
    paths = found;
    secretCache.set(type, paths);
  }
  return paths;
}

function collectSecrets(node: SchemaNode, prefix: string, out: string[]): void {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (child["x-secret"] === true) out.push(path);
    else if (child.properties !== undefined) collectSecrets(child, path, out);
  }
}

/** True when `path` (dotted, inside the config) is a secret field of the destination type. */
export function isSecretPath(type: string, path: string): boolean {
  return secretPaths(type).includes(path);
}

/**
 * Secret paths that are credentials of the destination itself (not of a Redshift COPY staging
 * bucket): what an integration replaces.
 */
export function isCredentialPath(path: string): boolean {
  return !path.startsWith("copy_inputs.");
}

/**
 * The secret paths `pull` writes placeholders for, given the live (secret-stripped) config and
 * integration: the ones a working export of that type has. An export with an integration keeps its
 * credentials there (only a Redshift COPY may still name inline staging keys); a Snowflake export
 * authenticates with a password or a key pair; a Redshift COPY names credentials only where it uses
 * inline ones.
 */
export function pullSecretPaths(
  type: string,
  config: Record<string, unknown>,
  integration: number | null = null,
): string[] {
  const all = secretPaths(type);
  const copy = isPlainObject(config.copy_inputs) ? config.copy_inputs : undefined;
  const inlineCopy = (path: string) => {
    const [head, part] = path.split(".");
    return head === "copy_inputs" && copy !== undefined && part !== undefined && isPlainObject(copy[part]);
  };
  if (integration !== null) return all.filter(inlineCopy);
  switch (type) {
    case "Snowflake":
      return config.authentication_type === "keypair" ? ["user", "private_key"] : ["user", "password"];
    case "Redshift":
      return all.filter((path) => isCredentialPath(path) || inlineCopy(path));
    default:
      return all.filter((path) => !path.endsWith("private_key_passphrase"));
  }
}

/** `events-to-s3` + `aws_secret_access_key` → `EVENTS_TO_S3_AWS_SECRET_ACCESS_KEY`. */
export function secretVariableName(objectName: string, path: string): string {
  return `${objectName}_${path}`
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/^(\d)/, "_$1");
}
