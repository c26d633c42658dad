/**
 * Write-only secrets in a plan. A secret is a `SecretRef` (where the value comes from, never the value);
 * the value is read from the environment only when apply builds a request body, at that moment.
 */
import type { SecretValue } from "../config/secret.js";
import { UserError } from "../errors.js";
import type { SecretRef } from "./types.js";
import { isPlainObject } from "./values.js";

export type Env = Readonly<Record<string, string | undefined>>;

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
export function missingSecretVariables(value: unknown, env: Env): string[] {
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
export function resolveSecrets<T>(value: T, env: Env, where: string): T {
  if (isSecretRef(value)) return interpolate(value, env, where) as T;
  if (Array.isArray(value)) return value.map((item) => resolveSecrets(item, env, where)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveSecrets(item, env, where);
    return out as T;
  }
  return value;
}

function interpolate(ref: SecretRef, env: Env, where: string): string {
  return ref.$secret.replace(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string | undefined) => {
    if (name === undefined) return "${";
    const found = env[name];
    if (found === undefined || found === "") {
      throw new UserError(`${where}: the secret variable $${name} is not set; set it before apply`);
    }
    return found;
  });
}
