/**
 * Destination types and their secret fields. The schema's `x-secret` marks (schema.ts) are the one list
 * of secret fields: `declare` requires them to be `${NAME}` references, the planner never compares them
 * (the service strips them from every response), apply resolves them from the environment, and `pull`
 * writes placeholders for them.
 */
import type { SchemaNode } from "../../config/kinds.js";
import { isPlainObject } from "../../plan/values.js";
import { batchExportSchema } from "./schema.js";

export type DestinationType =
  | "S3"
  | "Snowflake"
  | "Postgres"
  | "Redshift"
  | "BigQuery"
  | "Databricks"
  | "AzureBlob"
  | "HTTP"
  | "NoOp";

/** Destination types whose credentials live only in a PostHog Integration. */
export const NEEDS_INTEGRATION: ReadonlySet<string> = new Set(["Databricks", "AzureBlob"]);

const secretCache = new Map<string, readonly string[]>();

/**
 * Dotted paths of the secret fields of a destination type's config, e.g. `password` or
 * `copy_inputs.authorization.aws_access_key_id`. Empty for types without secrets.
 */
export function secretPaths(type: string): readonly string[] {
  let paths = secretCache.get(type);
  if (paths === undefined) {
    const found: string[] = [];
    const config = batchExportSchema.defs[`config${type}`];
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
 * The secret paths `pull` writes placeholders for, given the live (secret-stripped) config: the ones a
 * working export of that type has (a Snowflake export authenticates with a password or a key pair; a
 * Redshift COPY names credentials only where it uses inline ones).
 */
export function pullSecretPaths(type: string, config: Record<string, unknown>): string[] {
  const all = secretPaths(type);
  switch (type) {
    case "Snowflake":
      return config.authentication_type === "keypair" ? ["user", "private_key"] : ["user", "password"];
    case "Redshift": {
      const copy = isPlainObject(config.copy_inputs) ? config.copy_inputs : undefined;
      return all.filter((path) => {
        const [head, part] = path.split(".");
        return (
          head !== "copy_inputs" || (copy !== undefined && part !== undefined && isPlainObject(copy[part]))
        );
      });
    }
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
