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
import { duplicateMessage } from "../apply/duplicates.js";
import { APPLY_FORMAT_VERSION, type ApplyResult, applyAndCheck } from "../apply/result.js";
import {
  checkBinding,
  checkDerived,
  readSavedPlan,
  type SavedPlan,
  staleError,
  staleObjects,
} from "../apply/saved-plan.js";
import { UserError } from "../errors.js";
import { exitCodeForSignal, type Io, type StopSignalName } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { missingSecretVariables } from "../plan/secrets.js";
import type { LiveProject, Plan } from "../plan/types.js";
import { refetchLiveState } from "../read/fetch.js";
import { planFromLive } from "../read/make-plan.js";
import { formatResult, formatSummary } from "../render/apply.js";
import { colorEnabled, renderText, vocabulary } from "../render/index.js";
import { appliedScopeSentence } from "../render/scope.js";
import { humanTime } from "../render/time.js";
import { scrubValue } from "../scrub.js";
import { visible } from "../text.js";
import { VERSION } from "../version.js";
import { plural } from "../words.js";
import { readConfig } from "./config.js";
import { confirmOrCancel } from "./confirm.js";
import { type Session, withConnection } from "./connect.js";
import { parseProjectId } from "./project.js";
import { failIfUnsafe, failOnErrors } from "./reconcile.js";
import { reviewPlan, warnIfPartial } from "./review.js";
import { chooseBase, planChosen, type ScopeFlags } from "./scope.js";

export interface ApplyFlags extends ScopeFlags {
  plan?: string;
  autoApprove?: boolean;
  /** `json`: stdout is the result (schemas/apply.schema.json); the plan and lines go to stderr. */
  format?: "text" | "json";
}

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
  const saved =
    flags.plan !== undefined ? await readSavedPlan(resolve(io.cwd, flags.plan), KINDS) : undefined;
  // A saved plan is planned again from the files it was made from, which must not have changed.
  const desired = await readConfig(saved ? saved.config.paths : flags.args, flags, io, "plan", "apply");
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
      ({ plan, live } = await savedPlanAgain(session, saved));
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
    // With --format json, stdout is the result document alone; the plan and the lines go to the log.
    const json = flags.format === "json";
    const log = json ? out.stderr : out.stdout;
    warnIfPartial(plan, log);
    const vocab = vocabulary(KINDS);
    // What is shown is scrubbed before it is rendered (scrub.ts); what is applied is the plan itself.
    const shown = scrubValue(io, plan);
    log.write(renderText(shown, { color: colorEnabled(io.env, log.isTTY === true), vocab }));
    if (plan.actions.length === 0) {
      if (json)
        out.stdout.write(
          resultJson({ format_version: APPLY_FORMAT_VERSION, ok: true, results: [], duplicates: [] }),
        );
      return 0;
    }
    const missing = missingSecretVariables(plan.actions, io.env);
    if (missing.length > 0) {
      throw new UserError(
        `the plan sends secrets from ${missing.map((v) => `$${v}`).join(", ")}, which ${plural(missing.length, "is", "are")} not set; nothing was applied`,
        "missing_secret",
      );
    }
    if (!flags.autoApprove) {
      const cancelled = await confirmOrCancel(
        io,
        question(plan.actions.length),
        "Apply",
        "Nothing was changed.",
      );
      if (cancelled !== undefined) return cancelled;
    }
    if (stopped.aborted) throw new UserError("stopped", "interrupted");
    log.write("\n");
    progress.step("applying", plan.actions.length);
    const result = await applyAndCheck(plan, {
      kinds: KINDS,
      client,
      env: io.env,
      concurrency: Number(flags.concurrency ?? 4),
      signal: stopped,
      live,
      onResult: (one) => {
        progress.advance();
        log.write(`${formatResult(scrubValue(io, one), { vocab, people: shown.people })}\n`);
      },
    });
    progress.stop();
    const received = signal();
    if (received === undefined) reportDuplicates(out, result);
    const end = closing(result, received);
    log.write(`\n${end.line}\n`);
    const untouched = appliedScopeSentence(plan.scope);
    if (untouched !== undefined) log.write(`${untouched}\n`);
    if (json) out.stdout.write(resultJson(scrubValue(io, result)));
    return end.code;
  }

  /**
   * The saved plan, checked against everything that made it, then derived again from the same files and
   * live state at its own instant: what is sent is what the planner derives, never what the file says.
   */
  async function savedPlanAgain(
    session: Session,
    saved: SavedPlan,
  ): Promise<{ plan: Plan; live: LiveProject[] }> {
    const explicit = flags.project === undefined ? undefined : parseProjectId(flags.project, "--project");
    checkBinding(saved, {
      version: VERSION,
      host: session.host,
      project: explicit,
      digests: desired.digests,
    });
    const live = await refetchLiveState(KINDS, session.client, saved.reads);
    const stale = staleObjects(KINDS, saved.plan, live);
    if (stale.length > 0) throw staleError(KINDS, stale);
    const options = { ...saved.options, now: new Date(Date.parse(saved.plan.created_at)) };
    const derived = await planFromLive(KINDS, session.client, desired.projects, live, options);
    failOnErrors(derived.errors, session.io);
    // The saved plan's text was scrubbed when written (plan --out): compare like with like.
    checkDerived(saved.plan, scrubValue(session.io, derived.plan));
    // The reviewer's annotations (people, drift labels) are kept as they were shown when it was made.
    const { base, people, scope } = saved.plan;
    const plan: Plan = {
      ...derived.plan,
      ...(base !== undefined ? { base } : {}),
      ...(scope !== undefined ? { scope } : {}),
      ...(people !== undefined ? { people } : {}),
      actions: derived.plan.actions.map((action, i) => {
        const { drift, modified } = saved.plan.actions[i]!;
        return { ...action, ...(drift ? { drift } : {}), ...(modified ? { modified } : {}) };
      }),
    };
    return { plan, live };
  }
}

/**
 * Names this apply created that now have several live objects (another apply created the same at the
 * same moment): one error each, naming the ids; and why the check could not be made, if so.
 */
function reportDuplicates(out: Io, result: ApplyResult): void {
  if (result.unchecked !== undefined) {
    out.stderr.write(
      `warning: could not check the created names for duplicates (${visible(result.unchecked)}); run plan to check\n`,
    );
  }
  for (const duplicate of result.duplicates) {
    const word = KINDS.find((k) => k.name === duplicate.kind)?.words.one ?? duplicate.kind;
    out.stderr.write(`error: ${visible(duplicateMessage(duplicate, word))}\n`);
  }
}

/**
 * The closing line and the exit code, from the same facts, so the line never says "complete" when
 * the exit code says stopped or failed: a signal wins (130 / 143), then any action that did not
 * succeed or any name created twice (1).
 */
export function closing(
  result: ApplyResult,
  signal: StopSignalName | undefined,
): { line: string; code: number } {
  const line = formatSummary(result, signal);
  if (signal !== undefined) return { line, code: exitCodeForSignal(signal) };
  return { line, code: result.ok ? 0 : 1 };
}

function resultJson(result: ApplyResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

function question(changes: number): string {
  return changes === 1 ? "Apply this change?" : `Apply these ${changes} changes?`;
}
