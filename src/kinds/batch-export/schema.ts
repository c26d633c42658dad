/**
 * The JSON Schema of one declared batch export and of each destination type's config (composed into
 * schemas/config.schema.json). Secret config fields are marked `x-secret`: the one list of secret
 * fields, read by declare (must be ${NAME} references), the planner (never compared), apply (resolved
 * from the environment) and pull (written as placeholders).
 */
import type { ConfigKind } from "../../config/kinds.js";

export const batchExportSchema: ConfigKind["schema"] = {
  description:
    "Batch exports of the project. Listing the key (even empty) lets --prune remove undeclared ones.",
  item: { $ref: "#/$defs/batchExport" },
  defs: {
    batchExport: {
      type: "object",
      description: "A batch export. Only the keys written here are managed.",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: {
          type: "string",
          description:
            "Batch export name: its identity within the project unless `id` is given. Unique per project.",
          minLength: 1,
        },
        id: {
          type: "string",
          description: "The service's batch export UUID: pins identity across renames.",
          pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
          "x-expect": "a UUID",
        },
        model: {
          enum: ["events", "persons", "sessions"],
          description: "What is exported.",
        },
        interval: {
          enum: ["hour", "day", "week", "every 5 minutes", "every 15 minutes"],
          description: "How often a batch runs.",
        },
        paused: {
          type: "boolean",
          description: "Reconciled with the pause / unpause endpoints.",
        },
        backfill_on_unpause: {
          type: "boolean",
          description: "On unpause, also export the paused gap.",
        },
        start_at: {
          type: ["string", "null"],
          description:
            "Start of the schedule: ISO-8601 date-time with a timezone (Z or +hh:mm); null clears it.",
        },
        end_at: {
          type: ["string", "null"],
          description:
            "End of the schedule: ISO-8601 date-time with a timezone (Z or +hh:mm); null clears it.",
        },
        hogql_query: {
          type: "string",
          description: "HogQL SELECT … FROM events choosing the exported fields.",
        },
        filters: {
          type: "array",
          description:
            "Property filters, e.g. {key: $browser, operator: exact, type: event, value: [Firefox]}.",
          items: {
            type: "object",
          },
        },
        destination: {
          type: "object",
          description: "Where batches go.",
          additionalProperties: false,
          required: ["type"],
          properties: {
            type: {
              enum: [
                "S3",
                "Snowflake",
                "Postgres",
                "Redshift",
                "BigQuery",
                "Databricks",
                "AzureBlob",
                "HTTP",
                "NoOp",
              ],
              description: "Destination type.",
            },
            config: {
              type: "object",
              description: "Destination settings; the keys depend on type.",
            },
            integration_id: {
              type: "integer",
              minimum: 1,
              description:
                "Id of the PostHog Integration that holds the destination's credentials (create it in PostHog first). Required for Databricks and AzureBlob; write-only, compared with the live destination.integration.",
            },
          },
          allOf: [
            {
              if: {
                properties: {
                  type: {
                    const: "S3",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configS3",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "Snowflake",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configSnowflake",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "Postgres",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configPostgres",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "Redshift",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configRedshift",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "BigQuery",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configBigQuery",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "Databricks",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configDatabricks",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "AzureBlob",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configAzureBlob",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "HTTP",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configHTTP",
                  },
                },
              },
            },
            {
              if: {
                properties: {
                  type: {
                    const: "NoOp",
                  },
                },
                required: ["type"],
              },
              then: {
                properties: {
                  config: {
                    $ref: "#/$defs/configNoOp",
                  },
                },
              },
            },
          ],
        },
        deleted: {
          type: "boolean",
          description: "Tombstone: delete the batch export (idempotent).",
        },
      },
    },
    configS3: {
      type: "object",
      description: "Amazon S3 (inline credentials).",
      additionalProperties: false,
      properties: {
        bucket_name: {
          type: "string",
          description: "S3 bucket name.",
        },
        region: {
          type: "string",
          description: "AWS region of the bucket, e.g. us-east-1.",
        },
        prefix: {
          type: "string",
          description: "Key prefix inside the bucket; may use the service's date placeholders.",
        },
        aws_access_key_id: {
          type: "string",
          description:
            "AWS access key id. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        aws_secret_access_key: {
          type: "string",
          description:
            "AWS secret access key. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        compression: {
          type: "string",
          description:
            "Compression: gzip or brotli for JSONLines; zstd, lz4, snappy, gzip or brotli for Parquet.",
          enum: ["gzip", "brotli", "zstd", "lz4", "snappy"],
        },
        encryption: {
          type: "string",
          description: "Server-side encryption.",
          enum: ["AES256", "aws:kms"],
        },
        kms_key_id: {
          type: "string",
          description: "KMS key id when encryption is aws:kms.",
        },
        endpoint_url: {
          type: "string",
          description: "Endpoint of an S3-compatible service instead of AWS.",
        },
        file_format: {
          type: "string",
          description: "File format of the exported files (default JSONLines).",
          enum: ["JSONLines", "Parquet"],
        },
        max_file_size_mb: {
          type: "integer",
          description: "Split files above this size (MB).",
          minimum: 1,
        },
        use_virtual_style_addressing: {
          type: "boolean",
          description: "Use virtual-hosted-style bucket URLs.",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
      required: ["bucket_name", "region", "prefix"],
    },
    configSnowflake: {
      type: "object",
      description: "Snowflake (inline credentials).",
      additionalProperties: false,
      properties: {
        account: {
          type: "string",
          description: "Snowflake account identifier.",
        },
        user: {
          type: "string",
          description:
            "Snowflake user. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        password: {
          type: "string",
          description:
            "Snowflake password (authentication_type password). Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        private_key: {
          type: "string",
          description:
            "Private key (authentication_type keypair). Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        private_key_passphrase: {
          type: "string",
          description:
            "Passphrase of the private key. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        authentication_type: {
          type: "string",
          description: "How to authenticate.",
          enum: ["password", "keypair"],
        },
        database: {
          type: "string",
          description: "Database name.",
        },
        warehouse: {
          type: "string",
          description: "Warehouse name.",
        },
        schema: {
          type: "string",
          description: "Schema name.",
        },
        table_name: {
          type: "string",
          description: "Table to write into (default events).",
        },
        role: {
          type: "string",
          description: "Role to assume.",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
      required: ["account", "database", "warehouse", "schema"],
    },
    configPostgres: {
      type: "object",
      description: "PostgreSQL (inline credentials).",
      additionalProperties: false,
      properties: {
        user: {
          type: "string",
          description:
            "Database user. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        password: {
          type: "string",
          description:
            "Database password. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        host: {
          type: "string",
          description: "Database host name (the service refuses private addresses).",
        },
        port: {
          type: "integer",
          description: "Database port.",
          minimum: 1,
          maximum: 65535,
        },
        database: {
          type: "string",
          description: "Database name.",
        },
        schema: {
          type: "string",
          description: "Database schema (default public).",
        },
        table_name: {
          type: "string",
          description: "Table to write into (default events).",
        },
        has_self_signed_cert: {
          type: "boolean",
          description: "Accept a self-signed TLS certificate.",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
      required: ["host", "database"],
    },
    configRedshift: {
      type: "object",
      description: "Amazon Redshift (inline credentials).",
      additionalProperties: false,
      properties: {
        user: {
          type: "string",
          description:
            "Database user. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        password: {
          type: "string",
          description:
            "Database password. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        host: {
          type: "string",
          description: "Database host name (the service refuses private addresses).",
        },
        port: {
          type: "integer",
          description: "Database port (default 5439).",
          minimum: 1,
          maximum: 65535,
        },
        database: {
          type: "string",
          description: "Database name.",
        },
        schema: {
          type: "string",
          description: "Database schema (default public).",
        },
        table_name: {
          type: "string",
          description: "Table to write into (default events).",
        },
        has_self_signed_cert: {
          type: "boolean",
          description: "Accept a self-signed TLS certificate.",
        },
        properties_data_type: {
          type: "string",
          description: "Column type of the properties.",
          enum: ["varchar", "super"],
        },
        mode: {
          type: "string",
          description: "How rows are loaded.",
          enum: ["INSERT", "COPY"],
        },
        copy_inputs: {
          type: "object",
          description: "Staging bucket for mode COPY.",
          additionalProperties: false,
          properties: {
            s3_bucket: {
              type: "string",
              description: "Staging S3 bucket.",
            },
            region_name: {
              type: "string",
              description: "AWS region of the staging bucket.",
            },
            s3_key_prefix: {
              type: "string",
              description: "Key prefix inside the staging bucket.",
            },
            authorization: {
              type: ["string", "object"],
              description: "How Redshift reads the staging bucket: an IAM role ARN, or AWS credentials.",
              additionalProperties: false,
              properties: {
                aws_access_key_id: {
                  type: "string",
                  description:
                    "AWS access key id. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
                  "x-secret": true,
                },
                aws_secret_access_key: {
                  type: "string",
                  description:
                    "AWS secret access key. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
                  "x-secret": true,
                },
              },
            },
            bucket_credentials: {
              type: "object",
              description: "AWS credentials for writing to the staging bucket.",
              additionalProperties: false,
              properties: {
                aws_access_key_id: {
                  type: "string",
                  description:
                    "AWS access key id. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
                  "x-secret": true,
                },
                aws_secret_access_key: {
                  type: "string",
                  description:
                    "AWS secret access key. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
                  "x-secret": true,
                },
              },
            },
          },
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
      required: ["host", "database"],
    },
    configBigQuery: {
      type: "object",
      description: "Google BigQuery (inline service-account key).",
      additionalProperties: false,
      properties: {
        project_id: {
          type: "string",
          description: "Google Cloud project id.",
        },
        dataset_id: {
          type: "string",
          description: "BigQuery dataset id.",
        },
        table_id: {
          type: "string",
          description: "Table to write into (default events).",
        },
        private_key: {
          type: "string",
          description:
            "Service-account private key. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        private_key_id: {
          type: "string",
          description:
            "Service-account private key id. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        token_uri: {
          type: "string",
          description:
            "Service-account token URI. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        client_email: {
          type: "string",
          description:
            "Service-account e-mail. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        use_json_type: {
          type: "boolean",
          description: "Store properties as JSON (cannot change after create).",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
      required: ["project_id", "dataset_id"],
    },
    configDatabricks: {
      type: "object",
      description: "Databricks (credentials live in a service integration).",
      additionalProperties: false,
      properties: {
        http_path: {
          type: "string",
          description: "SQL warehouse HTTP path.",
        },
        catalog: {
          type: "string",
          description: "Unity Catalog name.",
        },
        schema: {
          type: "string",
          description: "Schema name.",
        },
        table_name: {
          type: "string",
          description: "Table to write into.",
        },
        use_variant_type: {
          type: "boolean",
          description: "Store properties as VARIANT (default true).",
        },
        use_automatic_schema_evolution: {
          type: "boolean",
          description: "Let the table schema evolve (default true).",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
    },
    configAzureBlob: {
      type: "object",
      description: "Azure Blob Storage (credentials live in a service integration).",
      additionalProperties: false,
      properties: {
        container_name: {
          type: "string",
          description: "Blob container name.",
        },
        prefix: {
          type: "string",
          description: "Blob name prefix.",
        },
        compression: {
          type: "string",
          description: "Compression of the exported files.",
          enum: ["gzip", "brotli", "zstd", "lz4", "snappy"],
        },
        file_format: {
          type: "string",
          description: "File format of the exported files (default JSONLines).",
          enum: ["JSONLines", "Parquet"],
        },
        max_file_size_mb: {
          type: "integer",
          description: "Split files above this size (MB).",
          minimum: 1,
        },
        legacy_parquet_extension: {
          type: "boolean",
          description: "Use the legacy .parquet file extension.",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
    },
    configHTTP: {
      type: "object",
      description: "PostHog batch HTTP endpoint (events model only).",
      additionalProperties: false,
      properties: {
        url: {
          type: "string",
          description: "Endpoint URL, e.g. https://us.i.posthog.com/batch/.",
        },
        token: {
          type: "string",
          description:
            "Project API token of the receiving project. Secret: must be a ${NAME} reference to an environment variable; never sent back by the service.",
          "x-secret": true,
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
      required: ["url"],
    },
    configNoOp: {
      type: "object",
      description: "Does nothing; for tests.",
      additionalProperties: false,
      properties: {
        arg: {
          description: "Free-form argument, ignored.",
        },
        exclude_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Event names never exported.",
        },
        include_events: {
          type: "array",
          items: {
            type: "string",
          },
          description: "Only these event names are exported.",
        },
      },
    },
  },
};
