/**
 * `posthog-gitops apply [PATH...]`: plan, show the plan, confirm (a TTY prompt, or --auto-approve), then
 * make exactly those changes; or `--plan FILE` to apply a saved plan, refused when any object it touches
 * changed since. Prints one line per action and a summary; exit 1 when anything failed (independent work
 * is still done, and the next apply converges).
 *
 * Ctrl-C or SIGTERM: no new request starts, requests already sent finish, every action gets its line
 * (those not started say so), and the exit code is 130 / 143; a second Ctrl-C ends it at once.
 */
import { resolve } from "node:path";
import { nowDate } from "posthog-gitops-shared/clock";
import { readSavedPlans } from "../apply/saved-plan.js";
import { UserError } from "../errors.js";
import { exitCodeForSignal, type Io, type StopSignalName } from "../io.js";
import { KINDS } from "../kinds/index.js";
import type { LiveProject, Plan } from "../plan/types.js";
import { humanTime } from "../render/time.js";
import { plural } from "../words.js";
import { type ApplyFlags, carryOut, resultJson, savedPlanAgain } from "./apply-steps.js";
import { readConfig } from "./config.js";
import { type Session, withConnection } from "./connect.js";
import { selectEnvironments } from "./environments.js";
import { parseProjectId } from "./project.js";
import { failIfUnsafe } from "./reconcile.js";
import { reviewPlan } from "./review.js";
import { chooseBase, planChosen } from "./scope.js";

export type { ApplyFlags } from "./apply-steps.js";

export async function run(flags: ApplyFlags, io: Io): Promise<number> {
  if (!flags.autoApprove && !io.confirm) {
    throw new UserError("apply asks for confirmation on a terminal; without one, pass --auto-approve");
  }
  if (flags.plan !== undefined && flags.args.length > 0) {
    throw new UserError("apply --plan FILE applies the saved plan only: give no paths with it");
  }
  if (flags.plan !== undefined && (flags.base !== undefined || flags.changedOnly)) {
    throw new UserError(
      "apply --plan FILE applies the saved plan as it was made: give --base to plan instead",
    );
  }
  const savedPlans =
    flags.plan !== undefined ? await readSavedPlans(resolve(io.cwd, flags.plan), KINDS) : undefined;
  if (
    savedPlans !== undefined &&
    (savedPlans.length > 1 || savedPlans.some((s) => s.environment !== undefined))
  ) {
    const { applyEnvironments } = await import("./apply-environments.js");
    return applyEnvironments(flags, io, savedPlans);
  }
  const saved = savedPlans?.[0];
  // A saved plan is planned again from the files it was made from, which must not have changed.
  const desired = await readConfig(saved ? saved.config.paths : flags.args, flags, io, "plan");
  if (desired.environments !== undefined) {
    // Without an environment, a saved plan is of single-project files beside the environments.
    const { applyEnvironments } = await import("./apply-environments.js");
    return applyEnvironments(flags, io, savedPlans, desired);
  }
  if (flags.all) throw new UserError("--all applies every environment, and the files declare none");
  selectEnvironments(desired, flags);
  const choice = saved ? {} : await chooseBase(flags, desired, io, "apply");
  return withConnection(flags, io, async (session) => {
    const stop = new AbortController();
    let signal: StopSignalName | undefined;
    const unsubscribe = io.onTerminate?.((received) => {
      signal = received;
      stop.abort();
      session.client.stop();
      session.io.stderr.write(
        "\nStopping: no new request is sent; waiting for those already sent (press Ctrl-C again to quit at once).\n",
      );
    });
    try {
      return await plannedApply(session, flags, stop.signal, () => signal);
    } catch (error) {
      // Stopped before any change: nothing was applied, so there is nothing to report but that.
      if (signal === undefined) throw error;
      session.io.stderr.write("Apply stopped before any change was made.\n");
      return exitCodeForSignal(signal);
    } finally {
      unsubscribe?.();
    }
  });

  async function plannedApply(
    session: Session,
    flags: ApplyFlags,
    stopped: AbortSignal,
    signal: () => StopSignalName | undefined,
  ): Promise<number> {
    const { client, progress, io: out } = session;
    let plan: Plan;
    let live: LiveProject[];
    progress.step("reading live state");
    if (saved) {
      const explicit = flags.project === undefined ? undefined : parseProjectId(flags.project, "--project");
      ({ plan, live } = await savedPlanAgain(session, saved, desired, explicit));
      const projects = plural(plan.projects.length, "project");
      out.stderr.write(
        `Applying the plan made ${humanTime(plan.created_at, nowDate(io.clock))} against ${saved.host}, ${projects} ${plan.projects.join(", ")}.\n`,
      );
    } else {
      const made = await planChosen(client, desired, flags, choice, out);
      failIfUnsafe(made, flags);
      plan = await reviewPlan(made, flags, choice.commit, out);
      live = made.live;
    }
    progress.stop();
    const end = await carryOut(session, { plan, live }, flags, io, stopped, signal);
    if (flags.format === "json" && end.result !== undefined) out.stdout.write(resultJson(end.result));
    return end.code;
  }
}
