/**
 * The part of `plan` and `apply` that is the same: options → build options, files → desired, live →
 * plan, and reporting the planner's errors and the safety guard. Output of the plan itself is left to
 * each command.
 */

import { nowDate } from "posthog-gitops-shared/clock";
import type { SavedOptions } from "../apply/saved-plan.js";
import type { LoadResult } from "../config/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { type BuildOptions, checkSafety, type PlanError } from "../plan/index.js";
import { type MadePlan, readAndPlan } from "../read/make-plan.js";
import type { ServiceClient } from "../service/index.js";
import { count } from "../words.js";
import type { ConnectionFlags } from "./connect.js";

export interface ReconcileFlags extends ConnectionFlags {
  args: string[];
  prune?: boolean;
  /** `plan --undeclared`: list the live objects no file declares, read-only. */
  undeclared?: boolean;
  force?: boolean;
  rotateSecrets?: boolean;
  target?: string[];
}

export function buildOptions(flags: ReconcileFlags, io: Io): BuildOptions {
  const options: BuildOptions = {
    prune: flags.prune === true,
    force: flags.force === true,
    rotateSecrets: flags.rotateSecrets === true,
    now: nowDate(io.clock),
  };
  if (flags.undeclared === true) options.undeclared = true;
  if (flags.target && flags.target.length > 0) options.targets = flags.target;
  return options;
}

/** The options a saved plan records, so `apply --plan` plans again with the same. */
export function savedOptions(flags: ReconcileFlags): SavedOptions {
  const options: SavedOptions = {
    prune: flags.prune === true,
    force: flags.force === true,
    rotateSecrets: flags.rotateSecrets === true,
  };
  if (flags.target && flags.target.length > 0) options.targets = [...flags.target];
  return options;
}

/** Reads live state and plans; throws a UserError listing every planning error, each with its source. */
export async function planOrFail(
  client: ServiceClient,
  desired: LoadResult,
  flags: ReconcileFlags,
  io: Io,
  environment?: string,
): Promise<MadePlan> {
  const made = await readAndPlan(KINDS, client, desired.projects, buildOptions(flags, io));
  failOnErrors(made.errors, io, environment);
  return made;
}

/** Each planning error on stderr (naming the environment, when there is one), then one UserError. */
export function failOnErrors(errors: readonly PlanError[], io: Io, environment?: string): void {
  if (errors.length === 0) return;
  const of = environment === undefined ? "" : ` (environment ${environment})`;
  for (const e of errors) {
    const where = e.source ? `${e.source.file}:${e.source.line}:${e.source.column}: ` : "";
    io.stderr.write(`${where}error: ${e.message}${of}\n`);
  }
  throw new UserError(`the plan cannot be made (${count(errors.length, "error")})`, "plan_refused");
}

/** The prune guard: a refused plan is an error (exit 1) for plan and apply alike. */
export function failIfUnsafe(made: Pick<MadePlan, "plan" | "live">, flags: ReconcileFlags): void {
  const unsafe = checkSafety(KINDS, made.plan, made.live, { force: flags.force === true });
  if (unsafe) throw new UserError(unsafe, "plan_refused");
}
