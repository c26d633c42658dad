/**
 * Write-only secrets. In a plan a secret is a `SecretRef` (where the value comes from, never the value);
 * the value is read from the environment only when apply builds a request body, at that moment.
 */
import type { SecretValue } from "../config/secret.js";
import { UserError } from "../errors.js";
import type { SecretRef } from "../plan/types.js";
import { isPlainObject } from "./normalise.js";

/**
 * Secret destination keys per type, as dotted config paths (the service strips them, recursively, from
 * every response). `pull` writes placeholders for `pullPaths`, the ones a working export of that type has.
 */
const SECRET_KEYS: Record<string, readonly string[]> = {
  S3: ["aws_access_key_id", "aws_secret_access_key"],
  AwsS3: ["aws_access_key_id", "aws_secret_access_key"],
  S3Compatible: ["aws_access_key_id", "aws_secret_access_key"],
  Snowflake: ["user", "password", "private_key", "private_key_passphrase"],
  Postgres: ["user", "password"],
  Redshift: ["user", "password", "aws_access_key_id", "aws_secret_access_key"],
  BigQuery: ["private_key", "private_key_id", "client_email", "token_uri"],
  HTTP: ["token"],
};

/** True when the last segment of `path` is a secret key of the destination type. */
export function isSecretPath(type: string, path: string): boolean {
  const leaf = path.split(".").at(-1) ?? path;
  return (SECRET_KEYS[type] ?? []).includes(leaf);
}

/** The secret paths `pull` writes placeholders for, given the live (secret-stripped) config. */
export function pullSecretPaths(type: string, config: Record<string, unknown>): string[] {
  switch (type) {
    case "Snowflake":
      return config.authentication_type === "keypair" ? ["user", "private_key"] : ["user", "password"];
    case "Redshift": {
      const paths = ["user", "password"];
      const copy = isPlainObject(config.copy_inputs) ? config.copy_inputs : undefined;
      for (const part of ["authorization", "bucket_credentials"]) {
        if (copy && isPlainObject(copy[part])) {
          paths.push(`copy_inputs.${part}.aws_access_key_id`, `copy_inputs.${part}.aws_secret_access_key`);
        }
      }
      return paths;
    }
    default:
      return [...(SECRET_KEYS[type] ?? [])].filter((key) => key !== "private_key_passphrase");
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

export function toSecretRef(secret: SecretValue): SecretRef {
  return { $secret: secret.template, variables: [...secret.variables] };
}

export function isSecretRef(value: unknown): value is SecretRef {
  return isPlainObject(value) && typeof value.$secret === "string" && Array.isArray(value.variables);
}

/**
 * The variables of every `SecretRef` inside `value` that `env` lacks or has empty (as src/config treats
 * them): apply checks the whole plan with this before any write.
 */
export function missingSecretVariables(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const missing = new Set<string>();
  visit(value, (ref) => {
    for (const name of ref.variables) if (!env[name]) missing.add(name);
  });
  return [...missing].sort();
}

function visit(value: unknown, onRef: (ref: SecretRef) => void): void {
  if (isSecretRef(value)) onRef(value);
  else if (Array.isArray(value)) for (const item of value) visit(item, onRef);
  else if (isPlainObject(value)) for (const item of Object.values(value)) visit(item, onRef);
}

/**
 * A copy of `value` with every `SecretRef` replaced by its interpolated value from `env`. A missing or
 * empty variable is a `UserError` naming the variable (never a value). `$${` in a template is a literal `${`.
 */
export function resolveSecrets<T>(
  value: T,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): T {
  if (isSecretRef(value)) return interpolate(value, env, where) as T;
  if (Array.isArray(value)) return value.map((item) => resolveSecrets(item, env, where)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveSecrets(item, env, where);
    return out as T;
  }
  return value;
}

function interpolate(
  ref: SecretRef,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): string {
  return ref.$secret.replace(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string | undefined) => {
    if (name === undefined) return "${";
    const found = env[name];
    if (found === undefined || found === "") {
      throw new UserError(`${where}: the secret variable $${name} is not set; set it before apply`);
    }
    return found;
  });
}

/** Reads a dotted path of a nested object. */
export function getPath(object: Record<string, unknown>, path: string): unknown {
  let current: unknown = object;
  for (const part of path.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

/** Writes a dotted path into a nested object, creating intermediate objects. */
export function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let current = object;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (!isPlainObject(next)) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts.at(-1) as string] = value;
}
