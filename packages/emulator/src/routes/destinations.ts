/**
 * Batch export destination types (service-api.md §4 "Config fields" and "Secrets"): for each set of
 * rules the accepted config keys, required keys and declared types, the secret keys removed from every
 * response, and the config checks of the destination serializer.
 *
 * Newest: the keys are the fields of each type's workflow-input dataclass. Only plainly typed fields
 * (`str`, `int`, `bool`) are type-checked on write, with Python's conversions (a string becomes an int
 * when `int()` takes it, any string becomes a bool through `str_to_bool`, a bool passes as an int);
 * optional fields (`int | None` ...) are not checked on write but read back coerced. Legacy `S3` is not
 * a type any more; AwsS3, S3Compatible and Snowflake keep their credentials in an Integration.
 * 2025 rules: the older key sets, inline credentials, `S3` included.
 * AzureBlob is accepted although the published OpenAPI enum omits it: the model choices include it.
 */
import { invalid } from "../errors.js";
import { isDict, pyInt, pyType } from "../fields.js";

/** Declared type of a newest config field; `?` = optional (unchecked on write, coerced on read). */
type NewestType = "str" | "int" | "bool" | "str?" | "int?" | "bool?" | "any";

interface NewestSpec {
  fields: Record<string, NewestType>;
  required: string[];
}

/** Fields of BaseBatchExportInputs: accepted in every config, never checked. */
const BASE_INPUTS = new Set([
  "batch_export_id",
  "team_id",
  "interval",
  "timezone",
  "data_interval_end",
  "exclude_events",
  "include_events",
  "is_backfill",
  "is_earliest_backfill",
  "backfill_details",
  "batch_export_model",
  "batch_export_schema",
  "integration_id",
]);

const S3_FAMILY: Record<string, NewestType> = {
  bucket_name: "str",
  region: "str",
  prefix: "str",
  compression: "str?",
  file_format: "str",
  max_file_size_mb: "int?",
  legacy_parquet_extension: "bool",
};

export const NEWEST_DESTINATIONS: Record<string, NewestSpec> = {
  AwsS3: {
    fields: { ...S3_FAMILY, encryption: "str?", kms_key_id: "str?" },
    required: ["bucket_name", "region", "prefix"],
  },
  S3Compatible: {
    fields: { ...S3_FAMILY, use_virtual_style_addressing: "bool" },
    required: ["bucket_name", "region", "prefix"],
  },
  Snowflake: {
    fields: { database: "str", warehouse: "str", schema: "str", table_name: "str", role: "str?" },
    required: ["database", "warehouse", "schema"],
  },
  Postgres: {
    fields: {
      database: "str",
      schema: "str",
      table_name: "str",
      user: "str?",
      host: "str?",
      port: "int?",
      password: "str?",
      has_self_signed_cert: "bool",
    },
    required: ["database"],
  },
  Redshift: {
    fields: {
      database: "str",
      user: "str?",
      password: "str?",
      host: "str?",
      schema: "str",
      table_name: "str",
      port: "int",
      properties_data_type: "str",
      mode: "any",
      copy_inputs: "any",
    },
    required: ["database"],
  },
  BigQuery: {
    fields: {
      dataset_id: "str",
      table_id: "str",
      project_id: "str?",
      private_key: "str?",
      private_key_id: "str?",
      token_uri: "str?",
      client_email: "str?",
      use_json_type: "bool",
    },
    required: ["dataset_id"],
  },
  Databricks: {
    fields: {
      http_path: "str",
      catalog: "str",
      schema: "str",
      table_name: "str",
      use_variant_type: "bool",
      use_automatic_schema_evolution: "bool",
    },
    required: ["http_path", "catalog", "schema", "table_name"],
  },
  AzureBlob: {
    fields: {
      container_name: "str",
      prefix: "str",
      compression: "str?",
      file_format: "str",
      max_file_size_mb: "int?",
      legacy_parquet_extension: "bool",
    },
    required: ["container_name"],
  },
  Workflows: { fields: { hog_function_id: "str" }, required: ["hog_function_id"] },
  HTTP: { fields: { url: "str", token: "str" }, required: ["url", "token"] },
  NoOp: { fields: { arg: "str" }, required: [] },
  FileDownload: {
    fields: {
      data_interval_start: "str?",
      batch_export_run_id: "any",
      file_format: "str",
      max_file_size_mb: "int?",
      compression: "str?",
      expires_in_seconds: "int",
      main_activity_timeout_seconds: "int?",
      stage_activity_timeout_seconds: "int?",
    },
    required: [],
  },
};

/** The newest choices, in the model's order (migration 0010): no `S3`. */
export const NEWEST_TYPES = [
  "AwsS3",
  "S3Compatible",
  "Snowflake",
  "Postgres",
  "Redshift",
  "BigQuery",
  "Databricks",
  "AzureBlob",
  "Workflows",
  "HTTP",
  "NoOp",
  "FileDownload",
] as const;

export const S3_FAMILY_TYPES = new Set(["AwsS3", "S3Compatible"]);
/** Types that get `legacy_parquet_extension: false` on create. */
export const OBJECT_STORAGE_TYPES = new Set(["AwsS3", "S3Compatible", "AzureBlob"]);

/** The model's `secret_fields`: removed from every rendered config, recursively. */
const SECRET_FIELDS: Record<string, string[]> = {
  S3: ["aws_access_key_id", "aws_secret_access_key"],
  AwsS3: ["aws_access_key_id", "aws_secret_access_key"],
  S3Compatible: ["aws_access_key_id", "aws_secret_access_key"],
  Snowflake: ["user", "password", "private_key", "private_key_passphrase"],
  Postgres: ["user", "password"],
  Redshift: ["user", "password", "aws_access_key_id", "aws_secret_access_key"],
  BigQuery: ["private_key", "private_key_id", "client_email", "token_uri"],
  HTTP: ["token"],
};

/** posthog.utils.str_to_bool: any string converts, only the truthy spellings to true. */
export function strToBool(value: unknown): boolean {
  if (!value) return false;
  return ["y", "yes", "t", "true", "on", "1"].includes(String(value).toLowerCase());
}

/**
 * The destination serializer's `validate` under the newest rules: unknown keys (sorted, quoted), then
 * per declared field the required check (not on PATCH) and the type check, converting values in place.
 */
export function validateNewestConfig(type: string, config: Record<string, unknown>, patch: boolean): void {
  const spec = NEWEST_DESTINATIONS[type];
  if (!spec) return;
  const unknown = Object.keys(config)
    .filter((k) => !(k in spec.fields) && !BASE_INPUTS.has(k))
    .sort();
  if (unknown.length > 0) {
    throw invalid(
      `Configuration has unknown field/s: ${unknown.map((k) => `'${k}'`).join(", ")}`,
      "destination",
    );
  }
  for (const [key, declared] of Object.entries(spec.fields)) {
    if (!(key in config)) {
      if (!patch && spec.required.includes(key)) {
        throw invalid(`Configuration missing required field: '${key}'`, "destination");
      }
      continue;
    }
    if (declared !== "str" && declared !== "int" && declared !== "bool") continue;
    const value = config[key];
    let converted: unknown;
    if (declared === "str") converted = typeof value === "string" ? value : undefined;
    else if (declared === "int") {
      if (typeof value === "number" && Number.isInteger(value)) converted = value;
      else if (typeof value === "boolean") converted = value;
      else if (typeof value === "string") converted = pyInt(value);
    } else if (typeof value === "boolean") converted = value;
    else if (typeof value === "string") converted = strToBool(value);
    if (converted === undefined) {
      throw invalid(
        `Configuration has invalid type: got '${pyType(value)}', expected '${declared}'`,
        "destination",
      );
    }
    config[key] = converted;
  }
}

/** coerce_config_to_declared_types: string values of int/bool fields (optional ones too) read back typed. */
function coerceForRead(type: string, config: Record<string, unknown>): Record<string, unknown> {
  const spec = NEWEST_DESTINATIONS[type];
  if (!spec) return config;
  for (const [key, value] of Object.entries(config)) {
    if (typeof value !== "string") continue;
    const declared = spec.fields[key];
    if (declared === "bool" || declared === "bool?") config[key] = value.toLowerCase() === "true";
    else if (declared === "int" || declared === "int?") config[key] = pyInt(value) ?? value;
  }
  return config;
}

/** Whether a stored config already writes the codec into its Parquet names (service's helper). */
export function usesLegacyParquetExtension(type: string, stored: Record<string, unknown>): boolean {
  const coerced = coerceForRead(type, { ...stored });
  const value = coerced.legacy_parquet_extension;
  if (value === undefined || value === null) return writesCompressedParquet(coerced);
  return Boolean(value);
}

export function writesCompressedParquet(config: Record<string, unknown>): boolean {
  return config.file_format === "Parquet" && config.compression !== undefined && config.compression !== null;
}

/** Older (2025) key sets below. */

type FieldType = "str" | "int" | "bool" | "list" | "dict";

interface DestinationSpec {
  required: string[];
  fields: Record<string, FieldType>;
}

/** Accepted by every type (base inputs). */
const BASE: Record<string, FieldType> = { exclude_events: "list", include_events: "list" };

const POSTGRES_FIELDS: Record<string, FieldType> = {
  user: "str",
  password: "str",
  host: "str",
  port: "int",
  database: "str",
  schema: "str",
  table_name: "str",
  has_self_signed_cert: "bool",
};

export const OLDER_DESTINATIONS: Record<string, DestinationSpec> = {
  S3: {
    required: ["bucket_name", "region", "prefix"],
    fields: {
      bucket_name: "str",
      region: "str",
      prefix: "str",
      aws_access_key_id: "str",
      aws_secret_access_key: "str",
      compression: "str",
      encryption: "str",
      kms_key_id: "str",
      endpoint_url: "str",
      file_format: "str",
      max_file_size_mb: "int",
      use_virtual_style_addressing: "bool",
    },
  },
  Snowflake: {
    required: ["account", "user", "database", "warehouse", "schema"],
    fields: {
      account: "str",
      user: "str",
      password: "str",
      private_key: "str",
      private_key_passphrase: "str",
      authentication_type: "str",
      database: "str",
      warehouse: "str",
      schema: "str",
      table_name: "str",
      role: "str",
    },
  },
  Postgres: {
    required: ["user", "password", "host", "database"],
    fields: POSTGRES_FIELDS,
  },
  Redshift: {
    required: ["user", "password", "host", "database"],
    fields: { ...POSTGRES_FIELDS, properties_data_type: "str", mode: "str", copy_inputs: "dict" },
  },
  BigQuery: {
    required: ["project_id", "dataset_id", "private_key", "private_key_id", "token_uri", "client_email"],
    fields: {
      project_id: "str",
      dataset_id: "str",
      private_key: "str",
      private_key_id: "str",
      token_uri: "str",
      client_email: "str",
      table_id: "str",
      use_json_type: "bool",
    },
  },
  Databricks: {
    required: ["http_path", "catalog", "schema", "table_name"],
    fields: {
      http_path: "str",
      catalog: "str",
      schema: "str",
      table_name: "str",
      use_variant_type: "bool",
      use_automatic_schema_evolution: "bool",
    },
  },
  AzureBlob: {
    required: ["container_name"],
    fields: {
      container_name: "str",
      prefix: "str",
      compression: "str",
      file_format: "str",
      max_file_size_mb: "int",
      legacy_parquet_extension: "bool",
    },
  },
  HTTP: { required: ["url", "token"], fields: { url: "str", token: "str" } },
  NoOp: { required: [], fields: { arg: "str" } },
};

export const OLDER_TYPES = Object.keys(OLDER_DESTINATIONS);

/** 2025 rules: types whose credentials live in an Integration; every destination write must name one. */
export const OLDER_INTEGRATION_REQUIRED: Record<string, string> = {
  Databricks: "Integration is required for Databricks batch exports",
  AzureBlob: "Integration is required for Azure Blob batch exports",
};

const COMPRESSIONS: Record<string, string[]> = {
  Parquet: ["zstd", "lz4", "snappy", "gzip", "brotli"],
  JSONLines: ["gzip", "brotli"],
};

/**
 * 2025 rules: validates (and coerces scalars of) a config; `complete` also requires the type's
 * required keys.
 */
export function validateOlderConfig(type: string, config: Record<string, unknown>, complete: boolean): void {
  const spec = OLDER_DESTINATIONS[type];
  if (!spec) return;
  const fields = { ...BASE, ...spec.fields };
  const unknown = Object.keys(config)
    .filter((k) => !(k in fields))
    .sort();
  if (unknown.length > 0) {
    throw invalid(
      `Configuration has unknown field/s: ${unknown.map((k) => `'${k}'`).join(", ")}`,
      "destination",
    );
  }
  if (complete) {
    const missing = spec.required.find((k) => config[k] === undefined);
    if (missing) throw invalid(`Configuration missing required field: '${missing}'`, "destination");
  }
  for (const [key, value] of Object.entries(config)) {
    const declared = fields[key] as FieldType;
    const coerced = coerce(value, declared);
    if (coerced === undefined) {
      throw invalid(
        `Configuration has invalid type: got '${pyType(value)}', expected '${declared}'`,
        "destination",
      );
    }
    config[key] = coerced;
  }
  if ((type === "S3" || type === "AzureBlob") && typeof config.compression === "string") {
    const format = typeof config.file_format === "string" ? config.file_format : "JSONLines";
    const allowed = COMPRESSIONS[format] ?? [];
    if (!allowed.includes(config.compression)) {
      throw invalid(
        `Compression ${config.compression} is not supported for file format ${format}`,
        "destination",
      );
    }
  }
}

function coerce(value: unknown, type: FieldType): unknown {
  if (value === null) return null;
  switch (type) {
    case "str":
      return typeof value === "string" ? value : undefined;
    case "int":
      if (typeof value === "number" && Number.isInteger(value)) return value;
      return typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;
    case "bool":
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "True") return true;
      if (value === "false" || value === "False") return false;
      return undefined;
    case "list":
      return Array.isArray(value) ? value : undefined;
    case "dict":
      return isDict(value) ? value : undefined;
  }
}

/**
 * A copy of the config without the type's secret keys, recursively (e.g. Redshift `copy_inputs`);
 * under the newest rules string values of int/bool fields read back typed.
 */
export function stripSecrets(
  type: string,
  config: Record<string, unknown>,
  newest = false,
): Record<string, unknown> {
  const secrets = new Set(SECRET_FIELDS[type] ?? []);
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!isDict(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!secrets.has(k)) out[k] = strip(v);
    return out;
  };
  const out = strip(config) as Record<string, unknown>;
  return newest ? coerceForRead(type, out) : out;
}

/** Recursive merge for PATCH: dicts merge, anything else replaces. */
export function deepMerge(
  target: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    const current = out[k];
    out[k] = isDict(v) && isDict(current) ? deepMerge(current, v) : structuredClone(v);
  }
  return out;
}
