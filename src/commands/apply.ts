/**
 * `posthog-gitops apply [PATH...]`: plan, show the plan, confirm (a TTY prompt, or --auto-approve), then
 * make exactly those changes; or `--plan FILE` to apply a saved plan, refused when any object it touches
 * changed since. Prints one line per action and a summary; exit 1 when anything failed (independent work
 * is still done, and the next apply converges).
 */
import { resolve } from "node:path";
import { applyPlan } from "../apply/apply.js";
import { formatResult, formatSummary } from "../apply/report.js";
import { readSavedPlan, staleError, staleObjects } from "../apply/saved-plan.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { missingSecretVariables } from "../plan/secrets.js";
import type { Plan } from "../plan/types.js";
import { refetchLiveState } from "../read/fetch.js";
import { colorEnabled, renderText, vocabulary } from "../render/index.js";
import type { ServiceClient } from "../service/index.js";
import { readConfig } from "./config.js";
import { withConnection } from "./connect.js";
import { failIfUnsafe, planOrFail, type ReconcileFlags } from "./reconcile.js";

export interface ApplyFlags extends ReconcileFlags {
  plan?: string;
  autoApprove?: boolean;
}

export async function run(flags: ApplyFlags, io: Io): Promise<number> {
  if (!flags.autoApprove && !io.confirm) {
    throw new UserError("apply asks for confirmation on a terminal; without one, pass --auto-approve");
  }
  if (flags.plan !== undefined && flags.args.length > 0) {
    throw new UserError("apply --plan FILE applies the saved plan only: give no paths with it");
  }
  const saved = flags.plan !== undefined ? await readSavedPlan(resolve(io.cwd, flags.plan)) : undefined;
  const desired = saved ? undefined : await readConfig(flags.args, flags, io, "plan");
  return withConnection(flags, io, async ({ client }) => {
    let plan: Plan;
    if (saved) {
      const stale = staleObjects(KINDS, saved.plan, await refetchLiveState(KINDS, client, saved.reads));
      if (stale.length > 0) throw staleError(KINDS, stale);
      plan = saved.plan;
    } else {
      const made = await planOrFail(client, desired!, flags, io);
      failIfUnsafe(made, flags);
      plan = made.plan;
    }
    const vocab = vocabulary(KINDS);
    io.stdout.write(renderText(plan, { color: colorEnabled(io.env, io.stdout.isTTY === true), vocab }));
    if (plan.actions.length === 0) return 0;
    const missing = missingSecretVariables(plan.actions, io.env);
    if (missing.length > 0) {
      throw new UserError(
        `the plan sends secrets from ${missing.map((v) => `$${v}`).join(", ")}, which ${missing.length === 1 ? "is" : "are"} not set; nothing was applied`,
        "missing_secret",
      );
    }
    if (!flags.autoApprove && !(await io.confirm!(question(plan.actions.length)))) {
      io.stderr.write("Apply cancelled; nothing was changed.\n");
      return 1;
    }
    return execute(plan, client, flags, io);
  });
}

async function execute(plan: Plan, client: ServiceClient, flags: ApplyFlags, io: Io): Promise<number> {
  io.stdout.write("\n");
  const results = await applyPlan(plan, {
    kinds: KINDS,
    client,
    env: io.env,
    concurrency: Number(flags.concurrency ?? 4),
    onResult: (result) => io.stdout.write(`${formatResult(result, KINDS)}\n`),
  });
  io.stdout.write(`\n${formatSummary(results)}\n`);
  return results.some((r) => r.outcome === "failed") ? 1 : 0;
}

function question(changes: number): string {
  return changes === 1 ? "Apply this change?" : `Apply these ${changes} changes?`;
}
