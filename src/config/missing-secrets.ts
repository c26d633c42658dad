/**
 * Secret fields whose variable is unset. For validate and plan that is no problem of the files, only of
 * the environment they run in: ONE note, after every positioned diagnostic, lists the variables (a fleet
 * of exports sharing credentials, or a checkout without any secrets, must not bury the real errors under
 * one line per variable). For apply it is fatal: one error per variable at its first use (in load order),
 * naming how many fields use it, so an annotation points at a line that needs it.
 */
import { count, plural } from "../words.js";
import type { ObjectContext, RunContext } from "./context.js";
import type { Diagnostic } from "./types.js";

/** Records that the secret at `pointer` (relative to the object) refers to the unset variable `name`. */
export function noteMissingSecret(ctx: ObjectContext, name: string, pointer: string, field: string): void {
  ctx.run.missingSecrets.add(name);
  const first = ctx.run.missingSecretUses.get(name);
  if (first === undefined) ctx.run.missingSecretUses.set(name, { ctx, pointer, field, count: 1 });
  else first.count += 1;
}

/**
 * Call once, after every file is loaded. In apply mode, adds one positioned error per variable; else
 * returns the one note (no file, no position) for the caller to put after the sorted diagnostics.
 */
export function reportMissingSecrets(run: RunContext): Diagnostic | undefined {
  const uses = [...run.missingSecretUses];
  run.missingSecretUses.clear();
  if (run.mode !== "apply") return missingSecretsNote(uses.map(([name, use]) => [name, use.count]));
  for (const [name, { ctx, pointer, field, count: n }] of uses) {
    const use =
      n === 1
        ? `secret ${field} of ${ctx.owner}`
        : `used by ${n} secret fields, first here: ${field} of ${ctx.owner}`;
    ctx.report("error", pointer, `environment variable ${name} is not set (${use})`);
  }
  return undefined;
}

/**
 * `3 secret variables are not set in this environment: $A, $B, $C (used by 7 secret fields); apply will
 * need them`, the variables sorted; undefined when none is missing.
 */
export function missingSecretsNote(
  uses: Array<[name: string, fields: number]>,
  by = "used by",
): Diagnostic | undefined {
  if (uses.length === 0) return undefined;
  const names = uses.map(([name]) => `$${name}`).sort();
  const fields = uses.reduce((sum, [, n]) => sum + n, 0);
  const head =
    names.length === 1
      ? `secret variable ${names[0]} is not set in this environment`
      : `${names.length} secret variables are not set in this environment: ${names.join(", ")}`;
  const them = plural(names.length, "it", "them");
  return {
    severity: "note",
    file: "",
    line: 0,
    column: 0,
    message: `${head} (${by} ${count(fields, "secret field")}); apply will need ${them}`,
  };
}
