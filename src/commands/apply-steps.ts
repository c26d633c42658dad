/**
 * What `apply` does once it has a plan, for one project or one environment (SPEC §9): derive a saved
 * plan again and check it, show the plan, confirm, apply, report; and the flags these read.
 */
import { duplicateMessage } from "../apply/duplicates.js";
import { APPLY_FORMAT_VERSION, type ApplyResult, applyAndCheck } from "../apply/result.js";
import { checkBinding, checkDerived, type SavedPlan, staleError, staleObjects } from "../apply/saved-plan.js";
import type { LoadResult } from "../config/index.js";
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
import { scrubValue } from "../scrub.js";
import { visible } from "../text.js";
import { VERSION } from "../version.js";
import { plural } from "../words.js";
import { confirmOrCancel } from "./confirm.js";
import type { Session } from "./connect.js";
import type { EnvironmentFlags } from "./environments.js";
import { failOnErrors } from "./reconcile.js";
import { warnIfPartial } from "./review.js";
import type { ScopeFlags } from "./scope.js";

export interface ApplyFlags extends ScopeFlags, EnvironmentFlags {
  plan?: string;
  autoApprove?: boolean;
  /** `json`: stdout is the result (schemas/apply.schema.json); the plan and lines go to stderr. */
  format?: "text" | "json";
  /** `--all`: every environment, in `promote_from` order (SPEC §9). */
  all?: boolean;
  /** `--allow-destructive`: destructive actions in a `protect` environment. */
  allowDestructive?: boolean;
}

/**
 * The saved plan, checked against everything that made it, then derived again from the same files and
 * live state at its own instant: what is sent is what the planner derives, never what the file says.
 * `decorate` adds what the command adds to a plan it makes (an environment's origins) before the two
 * are compared.
 */
export async function savedPlanAgain(
  session: Session,
  saved: SavedPlan,
  desired: LoadResult,
  project: number | undefined,
  decorate: (plan: Plan) => Plan = (plan) => plan,
  environment?: string,
): Promise<{ plan: Plan; live: LiveProject[] }> {
  checkBinding(saved, {
    version: VERSION,
    host: session.host,
    project,
    digests: desired.digests,
  });
  const live = await refetchLiveState(KINDS, session.client, saved.reads);
  const stale = staleObjects(KINDS, saved.plan, live);
  if (stale.length > 0) throw staleError(KINDS, stale);
  const options = { ...saved.options, now: new Date(Date.parse(saved.plan.created_at)) };
  const derived = await planFromLive(KINDS, session.client, desired.projects, live, options);
  failOnErrors(derived.errors, session.io, environment);
  // The saved plan's text was scrubbed when written (plan --out): compare like with like.
  checkDerived(saved.plan, scrubValue(session.io, decorate(derived.plan)));
  // The reviewer's annotations (people, drift labels) are kept as they were shown when it was made.
  const { base, people, scope } = saved.plan;
  const plan: Plan = {
    ...derived.plan,
    ...(base !== undefined ? { base } : {}),
    ...(scope !== undefined ? { scope } : {}),
    ...(people !== undefined ? { people } : {}),
    actions: decorate(derived.plan).actions.map((action, i) => {
      const { drift, modified } = saved.plan.actions[i]!;
      return { ...action, ...(drift ? { drift } : {}), ...(modified ? { modified } : {}) };
    }),
  };
  return { plan, live };
}

/** What `carryOut` did: the exit code, and the result document (`apply --format json`; none when cancelled). */
export interface CarriedOut {
  code: number;
  result?: ApplyResult;
}

/**
 * The part of apply after the plan is made: show it (to stdout, or with --format json to stderr),
 * check the secrets it sends, confirm, apply, report each action and the closing line. `question`
 * names where (an environment). The caller prints the JSON result.
 */
export async function carryOut(
  session: Session,
  made: { plan: Plan; live: LiveProject[] },
  flags: ApplyFlags,
  io: Io,
  stopped: AbortSignal,
  signal: () => StopSignalName | undefined,
  where?: string,
): Promise<CarriedOut> {
  const { client, progress, io: out } = session;
  const { plan, live } = made;
  // With --format json, stdout is the result document alone; the plan and the lines go to the log.
  const json = flags.format === "json";
  const log = json ? out.stderr : out.stdout;
  warnIfPartial(plan, log);
  const vocab = vocabulary(KINDS);
  // What is shown is scrubbed before it is rendered (scrub.ts); what is applied is the plan itself.
  const shown = scrubValue(io, plan);
  log.write(renderText(shown, { color: colorEnabled(io.env, log.isTTY === true), vocab }));
  const nothing: ApplyResult = {
    format_version: APPLY_FORMAT_VERSION,
    ok: true,
    results: [],
    duplicates: [],
  };
  if (plan.actions.length === 0) return { code: 0, result: nothing };
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
      question(plan.actions.length, where),
      "Apply",
      "Nothing was changed.",
    );
    if (cancelled !== undefined) return { code: cancelled };
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
  return { code: end.code, result: scrubValue(io, result) };
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

export function resultJson(result: ApplyResult | object): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

function question(changes: number, where?: string): string {
  const to = where === undefined ? "" : ` to ${where}`;
  return changes === 1 ? `Apply this change${to}?` : `Apply these ${changes} changes${to}?`;
}
