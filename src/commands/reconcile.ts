/**
 * The part of `plan` and `apply` that is the same: options → build options, files → desired, live →
 * plan, and reporting the planner's errors and the safety guard. Output of the plan itself is left to
 * each command.
 */

import { appendFile } from "node:fs/promises";
import { nowDate } from "../clock.js";
import type { LoadResult } from "../config/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { type MadePlan, makePlan } from "../live/make-plan.js";
import { type BuildOptions, checkSafety, type PlanError } from "../plan/index.js";
import type { Plan } from "../plan/types.js";
import { renderMarkdown } from "../render/index.js";
import type { ServiceClient } from "../service/index.js";
import type { ConnectionFlags } from "./common.js";

export interface ReconcileFlags extends ConnectionFlags {
  args: string[];
  prune?: boolean;
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
  if (flags.target && flags.target.length > 0) options.targets = flags.target;
  return options;
}

/** Reads live state and plans; throws a UserError listing every planning error, each with its source. */
export async function planOrFail(
  client: ServiceClient,
  desired: LoadResult,
  flags: ReconcileFlags,
  io: Io,
): Promise<MadePlan> {
  const made = await makePlan(client, desired.projects, buildOptions(flags, io));
  failOnErrors(made.errors, io);
  return made;
}

export function failOnErrors(errors: readonly PlanError[], io: Io): void {
  if (errors.length === 0) return;
  for (const e of errors) {
    const where = e.source ? `${e.source.file}:${e.source.line}:${e.source.column}: ` : "";
    io.stderr.write(`${where}error: ${e.message}\n`);
  }
  throw new UserError(`the plan cannot be made (${errors.length} error${errors.length === 1 ? "" : "s"})`);
}

/** The prune guard: a refused plan is an error (exit 1) for plan and apply alike. */
export function failIfUnsafe(made: Pick<MadePlan, "plan" | "live">, flags: ReconcileFlags): void {
  const unsafe = checkSafety(made.plan, made.live, { force: flags.force === true });
  if (unsafe) throw new UserError(unsafe);
}

/** GitHub accepts up to 1 MiB of job summary per step: room for far more of a plan than a comment. */
const STEP_SUMMARY_LIMIT = 1_000_000;

/**
 * In GitHub Actions, the markdown plan also goes to the job summary, which holds much more than a
 * pull-request comment.
 */
export async function appendStepSummary(plan: Plan, io: Io): Promise<void> {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (io.env.GITHUB_ACTIONS !== "true" || !file) return;
  const markdown = renderMarkdown(plan, {
    maxLength: STEP_SUMMARY_LIMIT,
    fullPlanHint: "run `posthog-gitops plan` (text format) for the full plan",
  });
  await appendFile(file, `${markdown}\n`);
}

/**
 * Where a markdown plan cut to fit a comment tells readers to look: in GitHub Actions, the run's job
 * summary (which has room for the rest); elsewhere the renderer's default.
 */
export function fullPlanHint(io: Io): { fullPlanHint?: string } {
  const { GITHUB_ACTIONS, GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID } = io.env;
  if (GITHUB_ACTIONS !== "true" || !GITHUB_SERVER_URL || !GITHUB_REPOSITORY || !GITHUB_RUN_ID) return {};
  return {
    fullPlanHint: `the full plan is in the [job summary of this run](${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID})`,
  };
}
