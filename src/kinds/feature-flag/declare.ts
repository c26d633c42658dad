/**
 * A declared flag's `filters` (the field's `declare`): its strings interpolated and, for a flag with
 * encrypted payloads, each payload a secret (`SecretValue`, read from the environment). The flags and
 * cohorts it names are recorded by the kit from the field's references (fields.ts); cycles among a
 * project's flags are the kit's `validate` error too. The other offline rules are checks.ts's.
 */
import { envLookup, isToolVariable, secretReference } from "../../config/interpolate.js";
import { noteMissingSecret } from "../../config/missing-secrets.js";
import { SecretValue } from "../../config/secret.js";
import type { FieldContext } from "../define/index.js";
import { encryptedPayloadPointers } from "./checks.js";
import { isObject, type Json } from "./filters.js";

export function declareFilters(value: Json, { ctx, pointer, item }: FieldContext): Json {
  const secretPointers = new Set(encryptedPayloadPointers(item));
  const filters = ctx.deep(pointer, value, secretPointers) as Json;
  if (secretPointers.size > 0 && isObject(value.payloads)) {
    const payloads: Json = {};
    for (const [key, payload] of Object.entries(value.payloads)) {
      const secret = payloadSecret(key, payload, ctx);
      if (secret !== undefined) payloads[key] = secret;
    }
    filters.payloads = payloads;
  }
  return filters;
}

/** An encrypted payload: one `${NAME}` reference (checks.ts reports anything else), read from the environment. */
function payloadSecret(key: string, value: unknown, ctx: FieldContext["ctx"]): SecretValue | undefined {
  const pointer = `/filters/payloads/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  const name = secretReference(value);
  if (name === undefined) return undefined;
  const field = `filters.payloads.${key}`;
  if (isToolVariable(name)) {
    ctx.error(
      pointer,
      `${field} of ${ctx.owner} refers to ${name}: this tool's own variables (POSTHOG_*) never go into a field`,
    );
    return undefined;
  }
  const set = envLookup(ctx.run.env)(name);
  if (set === undefined) noteMissingSecret(ctx, name, pointer, field);
  return new SecretValue(value as string, [name], set);
}
