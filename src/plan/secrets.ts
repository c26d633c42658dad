/**
 * Write-only secrets in a plan. A secret is a `SecretRef` (where the value comes from, never the value);
 * the value is read from the environment only when apply builds a request body, at that moment.
 */
import { envLookup, interpolate } from "../config/interpolate.js";
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
  const lookup = envLookup(env);
  visit(value, (ref) => {
    for (const name of ref.variables) if (lookup(name) === undefined) missing.add(name);
  });
  return [...missing].sort();
}

/** How many secret fields inside `value` use each variable. */
export function secretVariableUses(value: unknown): Map<string, number> {
  const uses = new Map<string, number>();
  visit(value, (ref) => {
    for (const name of new Set(ref.variables)) uses.set(name, (uses.get(name) ?? 0) + 1);
  });
  return uses;
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
  if (isSecretRef(value)) return resolve(value, env, where) as T;
  if (Array.isArray(value)) return value.map((item) => resolveSecrets(item, env, where)) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveSecrets(item, env, where);
    return out as T;
  }
  return value;
}

/** The secret's value, through the one interpolator the files are read with. */
function resolve(ref: SecretRef, env: Env, where: string): string {
  const result = interpolate(ref.$secret, envLookup(env));
  if (!result.ok) throw new UserError(`${where}: ${result.problem}`, "invalid_input");
  const [missing] = result.missing;
  if (missing !== undefined) {
    throw new UserError(
      `${where}: the secret variable $${missing} is not set; set it before apply`,
      "missing_secret",
    );
  }
  return result.value;
}
