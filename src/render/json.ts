/**
 * The machine-readable plan: exactly the `Plan` value, 2-space indented, newline-terminated. This is the
 * contract described by `schemas/plan.schema.json` and read back by `apply --plan`. Secrets are
 * `SecretRef`s in the plan already, so nothing here can reveal a value.
 */
import type { Plan } from "../plan/types.js";

export function renderJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
