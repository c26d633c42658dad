/**
 * The JSON Schema of a batch export's destination and of each destination type's config (composed into
 * schemas/config.schema.json). The config keys are the newest service's (service-api.md §4 "Newest
 * accepted keys"), plus the legacy inline credentials that exports created before integrations still
 * carry. Secret config fields are marked `x-secret`: the one list of secret fields, read by declare
 * (must be ${NAME} references), the planner (never compared), apply (resolved from the environment)
 * and pull (written as placeholders).
 */
import type { SchemaNode } from "../../../config/kinds.js";

const SECRET_NOTE =
  "Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.";

const str = (description: string, extra: Record<string, unknown> = {}): SchemaNode => ({
  type: "string",
  description,
  ...extra,
});
const bool = (description: string): SchemaNode => ({ type: "boolean", description });
const int = (description: string, minimum?: number, maximum?: number): SchemaNode => ({
  type: "integer",
  description,
  ...(minimum === undefined ? {} : { minimum }),
  ...(maximum === undefined ? {} : { maximum }),
});
const secret = (description: string): SchemaNode => ({
  type: "string",
  description: `${description} ${SECRET_NOTE}`,
  "x-secret": true,
});
/** A legacy inline credential: accepted for exports created before integrations. */
const legacySecret = (description: string): SchemaNode =>
  secret(
    `${description} Legacy (exports created before integrations): the newest service keeps credentials in the integration.`,
  );

const EVENT_LISTS: Record<string, SchemaNode> = {
  exclude_events: {
    type: "array",
    items: { type: "string" },
    description: "Event names never exported.",
  },
  include_events: {
    type: "array",
    items: { type: "string" },
    description: "Only these event names are exported.",
  },
};

const COMPRESSIONS = ["gzip", "brotli", "zstd", "lz4", "snappy"];

/** The object-storage keys of AwsS3, S3Compatible (and the legacy S3). */
const OBJECT_FILES: Record<string, SchemaNode> = {
  compression: str(
    "Compression: gzip or brotli for JSONLines; zstd, lz4, snappy, gzip or brotli for Parquet. Default none.",
    { enum: COMPRESSIONS },
  ),
  file_format: str("File format of the exported files (default JSONLines).", {
    enum: ["JSONLines", "Parquet"],
  }),
  max_file_size_mb: int("Split files above this size (MB); default no limit.", 1),
};

const LEGACY_PARQUET = bool(
  "Keep the codec in Parquet file names (e.g. .parquet.zst): only for an export that already writes them; the service refuses true on a new export.",
);

const S3_PLACE: Record<string, SchemaNode> = {
  bucket_name: str("S3 bucket name.", { minLength: 1 }),
  region: str("Region of the bucket, e.g. us-east-1.", { minLength: 1 }),
  prefix: str("Key prefix inside the bucket; may use the service's date placeholders.", { minLength: 1 }),
};

const configAwsS3: SchemaNode = {
  type: "object",
  description:
    "Amazon S3 (newest service): the credentials (role or access key) live in the aws-s3 integration named by destination.integration.",
  additionalProperties: false,
  properties: {
    ...S3_PLACE,
    ...OBJECT_FILES,
    legacy_parquet_extension: LEGACY_PARQUET,
    encryption: str("Server-side encryption; default none.", { enum: ["AES256", "aws:kms"] }),
    kms_key_id: str("KMS key id when encryption is aws:kms."),
    ...EVENT_LISTS,
  },
  required: ["bucket_name", "region", "prefix"],
};

const configS3Compatible: SchemaNode = {
  type: "object",
  description:
    "S3-compatible storage (R2, MinIO, ...; newest service): the endpoint and access key live in the s3-compatible integration named by destination.integration.",
  additionalProperties: false,
  properties: {
    ...S3_PLACE,
    ...OBJECT_FILES,
    legacy_parquet_extension: LEGACY_PARQUET,
    use_virtual_style_addressing: bool("Use virtual-hosted-style bucket URLs (default false)."),
    ...EVENT_LISTS,
  },
  required: ["bucket_name", "region", "prefix"],
};

const configS3: SchemaNode = {
  type: "object",
  description:
    "Legacy Amazon S3 with inline keys: kept for exports created before integrations. The newest service refuses new S3 exports (and migrated the old ones to AwsS3 / S3Compatible): use those types with an integration.",
  additionalProperties: false,
  properties: {
    bucket_name: str("S3 bucket name."),
    region: str("AWS region of the bucket, e.g. us-east-1."),
    prefix: str("Key prefix inside the bucket; may use the service's date placeholders."),
    aws_access_key_id: secret("AWS access key id."),
    aws_secret_access_key: secret("AWS secret access key."),
    ...OBJECT_FILES,
    encryption: str("Server-side encryption.", { enum: ["AES256", "aws:kms"] }),
    kms_key_id: str("KMS key id when encryption is aws:kms."),
    endpoint_url: str(
      "Endpoint of an S3-compatible service instead of AWS (S3Compatible in the newest service).",
    ),
    use_virtual_style_addressing: bool("Use virtual-hosted-style bucket URLs."),
    ...EVENT_LISTS,
  },
  required: ["bucket_name", "region", "prefix"],
};

const configSnowflake: SchemaNode = {
  type: "object",
  description:
    "Snowflake. Newest service: account, user and password or key pair live in the snowflake integration named by destination.integration; the inline keys are for exports created before integrations.",
  additionalProperties: false,
  properties: {
    database: str("Database name."),
    warehouse: str("Warehouse name."),
    schema: str("Schema name."),
    table_name: str("Table to write into (default events)."),
    role: str("Role to assume; default the user's."),
    account: str(
      "Snowflake account identifier. Legacy (exports created before integrations): the newest service keeps it in the integration.",
    ),
    user: legacySecret("Snowflake user."),
    password: legacySecret("Snowflake password (authentication_type password)."),
    private_key: legacySecret("Private key (authentication_type keypair)."),
    private_key_passphrase: legacySecret("Passphrase of the private key."),
    authentication_type: str(
      "How to authenticate. Legacy (exports created before integrations): the newest service keeps it in the integration.",
      { enum: ["password", "keypair"] },
    ),
    ...EVENT_LISTS,
  },
  required: ["database", "warehouse", "schema"],
};

const configPostgres: SchemaNode = {
  type: "object",
  description:
    "PostgreSQL. Newest service: new exports need the postgresql integration named by destination.integration (host and credentials); inline user and password stay accepted for exports created before integrations.",
  additionalProperties: false,
  properties: {
    database: str("Database name."),
    schema: str("Database schema (default public)."),
    table_name: str("Table to write into (default events)."),
    has_self_signed_cert: bool("Accept a self-signed TLS certificate (default false)."),
    host: str("Database host name, when not the integration's (the service refuses private addresses)."),
    port: int("Database port (default 5432).", 1, 65535),
    user: legacySecret("Database user."),
    password: legacySecret("Database password."),
    ...EVENT_LISTS,
  },
  required: ["database"],
};

const awsKeys = (what: string): SchemaNode => ({
  type: ["object", "integer"],
  description: `${what}: the id of an aws-s3 integration of the project, or inline AWS keys (legacy).`,
  additionalProperties: false,
  minimum: 1,
  properties: {
    aws_access_key_id: secret("AWS access key id."),
    aws_secret_access_key: secret("AWS secret access key."),
  },
});

const configRedshift: SchemaNode = {
  type: "object",
  description:
    "Amazon Redshift. Newest service: new exports need the aws-redshift integration named by destination.integration; inline user and password stay accepted for exports created before integrations.",
  additionalProperties: false,
  properties: {
    database: str("Database name."),
    user: legacySecret("Database user."),
    password: legacySecret("Database password."),
    host: str(
      "Cluster or workgroup endpoint; required when the integration has none (the service refuses private addresses).",
    ),
    port: int("Database port (default 5439).", 1, 65535),
    schema: str("Database schema (default public)."),
    table_name: str("Table to write into (default events)."),
    properties_data_type: str("Column type of the properties (default varchar).", {
      enum: ["varchar", "super"],
    }),
    mode: str("How rows are loaded (default INSERT).", { enum: ["INSERT", "COPY"] }),
    copy_inputs: {
      type: "object",
      description: "Staging bucket for mode COPY.",
      additionalProperties: false,
      properties: {
        s3_bucket: str("Staging S3 bucket."),
        region_name: str("AWS region of the staging bucket."),
        s3_key_prefix: str("Key prefix inside the staging bucket."),
        authorization: {
          ...awsKeys("How Redshift reads the staging bucket"),
          type: ["string", "object", "integer"],
          description:
            "How Redshift reads the staging bucket: an IAM role ARN, the id of an aws-s3 integration of the project, or inline AWS keys (legacy).",
        },
        bucket_credentials: awsKeys("How the export writes to the staging bucket"),
      },
    },
    has_self_signed_cert: bool(
      "Accept a self-signed TLS certificate. Older services only: the newest refuses it as an unknown field.",
    ),
    ...EVENT_LISTS,
  },
  required: ["database"],
};

const configBigQuery: SchemaNode = {
  type: "object",
  description:
    "Google BigQuery. Newest service: the service account lives in the google-cloud-service-account integration named by destination.integration; the inline key fields are for exports created before integrations.",
  additionalProperties: false,
  properties: {
    dataset_id: str("BigQuery dataset id."),
    table_id: str("Table to write into (default events)."),
    use_json_type: bool("Store properties as JSON (default false; cannot change after create)."),
    project_id: str("Google Cloud project id; default the integration's."),
    private_key: legacySecret("Service-account private key."),
    private_key_id: legacySecret("Service-account private key id."),
    token_uri: legacySecret("Service-account token URI."),
    client_email: legacySecret("Service-account e-mail."),
    ...EVENT_LISTS,
  },
  required: ["dataset_id"],
};

const configDatabricks: SchemaNode = {
  type: "object",
  description:
    "Databricks: the credentials live in the databricks integration named by destination.integration. http_path, catalog, schema and table_name are required to create one.",
  additionalProperties: false,
  properties: {
    http_path: str("SQL warehouse HTTP path."),
    catalog: str("Unity Catalog name."),
    schema: str("Schema name."),
    table_name: str("Table to write into."),
    use_variant_type: bool("Store properties as VARIANT (default true)."),
    use_automatic_schema_evolution: bool("Let the table schema evolve (default true)."),
    ...EVENT_LISTS,
  },
};

const configAzureBlob: SchemaNode = {
  type: "object",
  description:
    "Azure Blob Storage: the credentials live in the azure-blob integration named by destination.integration. container_name is required to create one.",
  additionalProperties: false,
  properties: {
    container_name: str("Blob container name."),
    prefix: str("Blob name prefix (default none)."),
    ...OBJECT_FILES,
    legacy_parquet_extension: LEGACY_PARQUET,
    ...EVENT_LISTS,
  },
};

const configHTTP: SchemaNode = {
  type: "object",
  description:
    "PostHog batch HTTP endpoint (events model only; inline token, no integration). url and token are required to create one.",
  additionalProperties: false,
  properties: {
    url: str(
      "Endpoint URL: the newest service accepts only https://us.i.posthog.com/batch/ or https://eu.i.posthog.com/batch/.",
    ),
    token: secret("Project API token of the receiving project."),
    ...EVENT_LISTS,
  },
  required: ["url"],
};

const configNoOp: SchemaNode = {
  type: "object",
  description: "Does nothing; for tests.",
  additionalProperties: false,
  properties: {
    arg: str("Free-form argument, ignored (default empty)."),
    ...EVENT_LISTS,
  },
};

/** Config schema per destination type, in the order the type enum lists them. */
const CONFIGS: Record<string, SchemaNode> = {
  AwsS3: configAwsS3,
  S3Compatible: configS3Compatible,
  Snowflake: configSnowflake,
  Postgres: configPostgres,
  Redshift: configRedshift,
  BigQuery: configBigQuery,
  Databricks: configDatabricks,
  AzureBlob: configAzureBlob,
  HTTP: configHTTP,
  NoOp: configNoOp,
  S3: configS3,
};

export const DESTINATION_TYPES = Object.keys(CONFIGS);

const INTEGRATION_ID = {
  type: "integer",
  minimum: 1,
  "x-expect": "an integration id (a whole number)",
};

/**
 * `destination`: the type, the integration (or its deprecated alias) and the type's config, whose
 * schema is chosen by the type (`#/$defs/config<Type>`, CONFIG_DEFS).
 */
export const DESTINATION_SCHEMA: SchemaNode = {
  type: "object",
  description: "Where batches go.",
  additionalProperties: false,
  required: ["type"],
  properties: {
    type: {
      enum: DESTINATION_TYPES,
      description:
        "Destination type. AwsS3, S3Compatible, Snowflake, Databricks, AzureBlob and BigQuery need an integration; new Postgres and Redshift exports too. S3 is the legacy type with inline keys, kept for exports created before integrations.",
    },
    integration: {
      description:
        "The project's PostHog integration that holds the destination's credentials (create it in PostHog first; `plan` checks that it exists and fits the type): its id, or `{kind, name}` (its kind and display name, resolved in each project: the form for files serving several environments).",
      // A mapping is `{kind, name}`; anything else must be an id (and says so, as before).
      if: { type: "object" },
      then: {
        type: "object",
        required: ["kind", "name"],
        additionalProperties: false,
        properties: {
          kind: { type: "string", minLength: 1, description: "The integration's kind, e.g. aws-s3." },
          name: {
            type: "string",
            minLength: 1,
            description:
              "Its display name, exactly as PostHog shows it (the integrations list's display_name).",
          },
        },
      },
      else: { ...INTEGRATION_ID },
    },
    integration_id: {
      ...INTEGRATION_ID,
      description: "Deprecated alias of `integration` (the same id); write `integration` instead.",
    },
    config: {
      type: "object",
      description: "Destination settings; the keys depend on type.",
    },
  },
  allOf: Object.keys(CONFIGS).map((type) => ({
    if: { properties: { type: { const: type } }, required: ["type"] },
    then: { properties: { config: { $ref: `#/$defs/config${type}` } } },
  })),
};

/** The config schemas by `$defs` name, composed into the schema next to the item. */
export const CONFIG_DEFS: Record<string, SchemaNode> = Object.fromEntries(
  Object.entries(CONFIGS).map(([type, node]) => [`config${type}`, node]),
);

/** A destination type's config schema (undefined for an unknown type). */
export function configSchema(type: string): SchemaNode | undefined {
  return CONFIGS[type];
}

/** The config keys a destination type takes (empty for an unknown type). */
export function configKeys(type: string): ReadonlySet<string> {
  return new Set(Object.keys(CONFIGS[type]?.properties ?? {}));
}
