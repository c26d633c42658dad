/**
 * Secret fields whose variable is unset: one diagnostic per variable, at its first use (in load
 * order), naming how many fields use it. A note for validate/plan, an error for apply. Aggregating
 * keeps a fleet of exports sharing AWS credentials from printing thousands of identical lines, and
 * means only one position has to be looked up per variable.
 */
import type { ObjectContext, RunContext } from "./context.js";

/** Records that the secret at `pointer` (relative to the object) refers to the unset variable `name`. */
export function noteMissingSecret(ctx: ObjectContext, name: string, pointer: string, field: string): void {
  ctx.run.missingSecrets.add(name);
  const first = ctx.run.missingSecretUses.get(name);
  if (first === undefined) ctx.run.missingSecretUses.set(name, { ctx, pointer, field, count: 1 });
  else first.count += 1;
}

/** Emits the aggregated diagnostics; call once, after every file is loaded. */
export function reportMissingSecrets(run: RunContext): void {
  const severity = run.mode === "apply" ? "error" : "note";
  const tail = run.mode === "apply" ? "" : "; apply will need it";
  for (const [name, { ctx, pointer, field, count }] of run.missingSecretUses) {
    const use =
      count === 1
        ? `secret ${field} of ${ctx.owner}`
        : `used by ${count} secret fields, first here: ${field} of ${ctx.owner}`;
    ctx.report(severity, pointer, `environment variable ${name} is not set (${use})${tail}`);
  }
  run.missingSecretUses.clear();
}
