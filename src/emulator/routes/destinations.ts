/**
 * Batch export destination types: accepted config keys, required keys, declared scalar types, the
 * secret keys that are removed from every response (service-api.md §4 "Config fields" and "Secrets")
 * and the types that need an Integration. AzureBlob is accepted although the published OpenAPI enum
 * omits it: the service's model choices include it.
 */
import { invalid } from "../errors.js";
import { isDict, pyType } from "../fields.js";

type FieldType = "str" | "int" | "bool" | "list" | "dict";

interface DestinationSpec {
  required: string[];
  fields: Record<string, FieldType>;
  secrets: string[];
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

export const DESTINATIONS: Record<string, DestinationSpec> = {
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
    secrets: ["aws_access_key_id", "aws_secret_access_key"],
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
    secrets: ["user", "password", "private_key", "private_key_passphrase"],
  },
  Postgres: {
    required: ["user", "password", "host", "database"],
    fields: POSTGRES_FIELDS,
    secrets: ["user", "password"],
  },
  Redshift: {
    required: ["user", "password", "host", "database"],
    fields: { ...POSTGRES_FIELDS, properties_data_type: "str", mode: "str", copy_inputs: "dict" },
    secrets: ["user", "password", "aws_access_key_id", "aws_secret_access_key"],
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
    secrets: ["private_key", "private_key_id", "client_email", "token_uri"],
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
    secrets: [],
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
    secrets: [],
  },
  HTTP: { required: ["url", "token"], fields: { url: "str", token: "str" }, secrets: ["token"] },
  NoOp: { required: [], fields: { arg: "str" }, secrets: [] },
};

export const DESTINATION_TYPES = Object.keys(DESTINATIONS);

/** Types whose credentials live in an Integration: every destination write must name one. */
export const INTEGRATION_REQUIRED: Record<string, string> = {
  Databricks: "Integration is required for Databricks batch exports",
  AzureBlob: "Integration is required for Azure Blob batch exports",
};

const COMPRESSIONS: Record<string, string[]> = {
  Parquet: ["zstd", "lz4", "snappy", "gzip", "brotli"],
  JSONLines: ["gzip", "brotli"],
};

/** Validates (and coerces scalars of) a config; `complete` also requires the type's required keys. */
export function validateConfig(type: string, config: Record<string, unknown>, complete: boolean): void {
  const spec = DESTINATIONS[type];
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

/** A copy of the config without the type's secret keys, recursively (e.g. Redshift `copy_inputs`). */
export function stripSecrets(type: string, config: Record<string, unknown>): Record<string, unknown> {
  const secrets = new Set(DESTINATIONS[type]?.secrets ?? []);
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!isDict(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (!secrets.has(k)) out[k] = strip(v);
    return out;
  };
  return strip(config) as Record<string, unknown>;
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
