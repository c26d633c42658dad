/**
 * The `destination` of a batch export write under the newest rules, in the service's order
 * (products/batch_exports/backend/presentation/views/batch_export/{destinations,exports}.py):
 *
 * 1. the nested serializer's fields: `type` (a choice without `S3`), `config` (required on POST/PUT),
 *    `integration`, `integration_id` (project-scoped primary keys);
 * 2. its `validate`: unknown config keys, required keys (not on PATCH), declared types;
 * 3. the parent's `validate_destination`: type change, `legacy_parquet_extension`, the HTTP URL
 *    allow-list, then each type's integration rules (service-api.md §4 "Integrations") and file
 *    format / compression checks on the merged config.
 *
 * A PATCH whose destination lacks `type` or `config` makes the service's validator index a missing key:
 * a 500 [inferred from the code; the service never maps that KeyError].
 */
import { ApiError, collectInvalid, errorBody, invalid, required, serverError } from "../errors.js";
import { isDict, parseChoice, pyType } from "../fields.js";
import type { Ctx } from "../router.js";
import { flagOn } from "../service.js";
import type { BatchExportRecord, IntegrationRecord } from "../types.js";
import {
  deepMerge,
  NEWEST_TYPES,
  S3_FAMILY_TYPES,
  usesLegacyParquetExtension,
  validateNewestConfig,
} from "./destinations.js";
import { hostRefusal } from "./host-check.js";
import { resolveIntegration } from "./integrations.js";

/** The validated destination of a request. */
export interface DestinationAttrs {
  type: string;
  config: Record<string, unknown>;
  /** Present when the body sent `integration` or `integration_id` (null = an explicit removal). */
  integration?: IntegrationRecord | null;
}

const HTTP_URLS = new Set(["https://us.i.posthog.com/batch/", "https://eu.i.posthog.com/batch/"]);

const FILE_COMPRESSIONS: Record<string, string[]> = {
  Parquet: ["zstd", "lz4", "snappy", "gzip", "brotli"],
  JSONLines: ["gzip", "brotli"],
};

/** Python's repr of a list of strings: `['a', 'b']`. */
function pyList(items: readonly string[]): string {
  return `[${items.map((i) => `'${i}'`).join(", ")}]`;
}

const fail = (detail: string) => invalid(detail, "destination");

/**
 * Steps 1 and 2 (the nested serializer). Throws the first error; `instance` is the export being
 * updated (null on create).
 */
function parseNested(ctx: Ctx, value: unknown, patch: boolean): DestinationAttrs {
  if (!isDict(value)) {
    throw invalid(`Invalid data. Expected a dictionary, but got ${pyType(value)}.`, "destination");
  }
  const { step, done } = collectInvalid();
  let type: string | undefined;
  let config: Record<string, unknown> | undefined;
  let integration: IntegrationRecord | null | undefined;
  step(() => {
    if (value.type === undefined) {
      if (!patch) throw required("destination__type");
      return;
    }
    type = parseChoice(value.type, "destination__type", NEWEST_TYPES);
  });
  step(() => {
    if (value.config === undefined) {
      if (!patch) throw required("destination__config");
      return;
    }
    if (value.config === null) throw invalid("This field may not be null.", "destination__config", "null");
    // A JSON field takes any JSON; a config that is not an object breaks the validator's `.keys()`.
    if (!isDict(value.config)) throw serverError();
    config = structuredClone(value.config);
  });
  for (const key of ["integration", "integration_id"] as const) {
    if (!(key in value)) continue;
    step(() => {
      integration = resolveIntegration(ctx, value[key], `destination__${key}`);
    });
  }
  done();
  if (type === undefined || config === undefined) throw serverError();
  validateNewestConfig(type, config, patch);
  const attrs: DestinationAttrs = { type, config };
  if ("integration" in value || "integration_id" in value) attrs.integration = integration ?? null;
  return attrs;
}

function storedIntegration(ctx: Ctx, instance: BatchExportRecord | null): IntegrationRecord | null {
  if (!instance || instance.destination.integration === null) return null;
  return ctx.store.integration(instance.team_id, instance.destination.integration) ?? null;
}

function checkFileFormat(merged: Record<string, unknown>): void {
  const format = merged.file_format === undefined ? "JSONLines" : merged.file_format;
  const formats = Object.keys(FILE_COMPRESSIONS);
  const allowed = typeof format === "string" ? FILE_COMPRESSIONS[format] : undefined;
  if (!allowed) {
    throw fail(
      `File format ${format === null ? "None" : String(format)} is not supported. Supported file formats are ${pyList(formats)}`,
    );
  }
  const compression = merged.compression;
  if (compression && !allowed.includes(String(compression))) {
    throw fail(
      `Compression ${String(compression)} is not supported for file format ${String(format)}. Supported compressions are ${pyList(allowed)}`,
    );
  }
}

/** `_coerce_integration_id`: an integer or digit string names an integration; anything else does not. */
function integrationRef(value: unknown): number | null {
  if (typeof value === "boolean") return null;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return null;
}

function checkRedshiftCopy(
  ctx: Ctx,
  merged: Record<string, unknown>,
  existing: Record<string, unknown>,
  updating: boolean,
): void {
  const copy = isDict(merged.copy_inputs) ? merged.copy_inputs : {};
  if (Object.keys(copy).length === 0) throw fail("Missing required inputs for 'COPY'");
  for (const key of ["s3_bucket", "region_name", "authorization", "bucket_credentials"]) {
    if (!(key in copy)) throw fail("Missing required input for 'COPY'");
  }
  const existingCopy = isDict(existing.copy_inputs) ? existing.copy_inputs : {};
  const refs = {
    bucket_credentials: integrationRef(copy.bucket_credentials),
    authorization: integrationRef(copy.authorization),
  };
  for (const field of ["bucket_credentials", "authorization"] as const) {
    if (updating && refs[field] === null && integrationRef(existingCopy[field]) !== null) {
      throw fail(
        `Cannot switch '${field}' from an integration to inline credentials. Send a different integration ID to swap, or omit the field to keep the current one.`,
      );
    }
    const id = refs[field];
    if (id !== null && ctx.store.integration(ctx.project.id, id)?.kind !== "aws-s3") {
      throw fail(`'${field}' does not reference an AWS S3 integration of this project.`);
    }
  }
  const hasKeys = (v: unknown) => isDict(v) && "aws_access_key_id" in v && "aws_secret_access_key" in v;
  if (refs.bucket_credentials === null && !hasKeys(copy.bucket_credentials)) {
    throw fail("Missing required bucket credentials for 'COPY'");
  }
  if (refs.authorization === null) {
    const auth = copy.authorization;
    if (isDict(auth)) {
      if (!hasKeys(auth)) throw fail("Missing required credentials for 'COPY'");
    } else if (typeof auth === "string") {
      if (auth.trim() === "") throw fail("Missing required IAM role for 'COPY'");
    } else {
      throw fail("Authorization for 'COPY' must be an IAM role ARN, AWS credentials, or an integration ID.");
    }
  }
}

/** The connection settings a `postgresql` integration provides. */
const POSTGRES_CONNECTION_KEYS = ["user", "password", "host", "port"];

/** Step 3: the parent serializer's `validate_destination`. */
function validateDestination(ctx: Ctx, attrs: DestinationAttrs, instance: BatchExportRecord | null): void {
  const { type, config } = attrs;
  const existing = instance ? instance.destination.config : {};
  if (instance && type !== instance.destination.type) {
    throw fail(
      `Cannot change destination type from '${instance.destination.type}' to '${type}'. Delete this batch export and create a new one with the new destination type.`,
    );
  }
  if (config.legacy_parquet_extension === true && !(instance && usesLegacyParquetExtension(type, existing))) {
    throw fail(
      "'legacy_parquet_extension' can only stay on for an export that already writes the compression codec into its Parquet file names. It cannot be turned on for a new export, or turned back on once an export moved to the standard '.parquet' extension.",
    );
  }
  const merged = deepMerge(existing, config);
  const sent = "integration" in attrs;
  const given = attrs.integration ?? null;
  // S3-family and Snowflake: a write that leaves the integration out keeps the stored one.
  const keptOrGiven = given === null && !sent ? storedIntegration(ctx, instance) : given;

  if (type === "HTTP") {
    const url = merged.url;
    if (url && !HTTP_URLS.has(String(url))) throw fail(`Invalid destination URL: ${String(url)}`);
  }
  if (type === "Snowflake") {
    if (keptOrGiven === null) throw fail("Integration is required for Snowflake batch exports");
    if (keptOrGiven.kind !== "snowflake") {
      throw fail(`Integration provided is not a Snowflake integration (got kind='${keptOrGiven.kind}')`);
    }
    for (const key of ["account", "user", "authentication_type"]) {
      if (!keptOrGiven.config[key]) throw fail(`Snowflake integration is not valid: '${key}' missing`);
    }
  }
  if (S3_FAMILY_TYPES.has(type)) {
    if (keptOrGiven === null) throw fail(`Integration is required for ${type} batch exports`);
    const empty = ["bucket_name", "region", "prefix"].filter(
      (k) => typeof config[k] === "string" && (config[k] as string).trim() === "",
    );
    if (empty.length > 0) throw fail(`The following inputs are empty: ${pyList(empty)}`);
    const kind = type === "AwsS3" ? "aws-s3" : "s3-compatible";
    if (keptOrGiven.kind !== kind) {
      throw fail(`Integration provided is not an AWS S3 integration (got kind='${keptOrGiven.kind}')`);
    }
    checkFileFormat(merged);
  }
  if (type === "Databricks") {
    if (given === null) throw fail("Integration is required for Databricks batch exports");
    if (given.kind !== "databricks") throw fail("Integration is not a Databricks integration.");
    // DatabricksIntegration(integration): the host in `config`, the service principal in `sensitive_config`.
    const missing = ["server_hostname", "client_id", "client_secret"].find((key) =>
      key === "server_hostname"
        ? !(key in given.config) && given.sensitive_keys !== undefined
        : given.sensitive_keys !== undefined && !given.sensitive_keys.includes(key),
    );
    if (missing) throw fail(`Databricks integration is not valid: '${missing}' missing`);
  }
  if (type === "Postgres") {
    if (given === null && !instance) throw fail("Integration is required for Postgres batch exports");
    if (given !== null && given.kind !== "postgresql")
      throw fail("Integration is not a PostgreSQL integration.");
    // An update of an integration-backed export: it reads its connection from the integration, so
    // connection settings sent inline are refused rather than stored unused (test_update_postgres.py,
    // revision 705fc527, which tests updates only; its source is not stored, so the wording is
    // [inferred], the quoted field name is not). Creates keep taking them (service-api.md §4).
    const backing = instance ? (given ?? (sent ? null : storedIntegration(ctx, instance))) : null;
    const inline = backing ? POSTGRES_CONNECTION_KEYS.find((key) => key in config) : undefined;
    if (inline) {
      throw fail(
        `'${inline}' is set by the PostgreSQL integration of this batch export and cannot be sent in its config.`,
      );
    }
  }
  if (type === "BigQuery") {
    if (given === null) throw fail("Integration is required for BigQuery batch exports");
    if (given.kind !== "google-cloud-service-account") {
      throw fail("Integration is not a Google Cloud service account integration.");
    }
  }
  if (type === "AzureBlob") {
    if (given === null) throw fail("Integration is required for Azure Blob batch exports");
    if (given.kind !== "azure-blob") throw fail("Integration is not an Azure Blob integration.");
    checkFileFormat(merged);
  }
  if (type === "Redshift") {
    if (instance && instance.destination.integration !== null && given === null) {
      throw fail(
        "Cannot remove the integration from a Redshift batch export that uses one. Re-send its `integration` to keep it (or a different one to swap).",
      );
    }
    if (given === null && !instance) throw fail("Integration is required for Redshift batch exports");
    if (given !== null) {
      if (given.kind !== "aws-redshift") throw fail("Integration is not a Redshift integration.");
      if (!("host" in given.config) && !merged.host) {
        throw fail(
          "A 'host' is required when using an AWS Redshift integration: set it to the cluster or workgroup endpoint.",
        );
      }
    }
    if (merged.mode === "COPY") checkRedshiftCopy(ctx, merged, existing, instance !== null);
  }
  if (type === "Postgres" || type === "Redshift") {
    // The SSRF guard: the integration's host when it has one, else the merged config's.
    const host = given !== null && "host" in given.config ? given.config.host : merged.host;
    const refusal = host === undefined || host === null ? undefined : hostRefusal(host);
    if (refusal) throw fail(refusal);
  }
  if (type === "Workflows" && !flagOn(ctx.store, "backfill-workflows-destination")) {
    throw new ApiError(
      403,
      errorBody(
        "authentication_error",
        "permission_denied",
        "Backfilling Workflows is not enabled for this team.",
      ),
    );
  }
}

/**
 * The destination of a create / PUT / PATCH body under the newest rules; `value` undefined means the
 * body has no `destination` (required on POST/PUT).
 */
export function parseNewestDestination(
  ctx: Ctx,
  value: unknown,
  patch: boolean,
  instance: BatchExportRecord | null,
): DestinationAttrs {
  if (value === undefined) throw required("destination");
  const attrs = parseNested(ctx, value, patch);
  validateDestination(ctx, attrs, instance);
  return attrs;
}
