/**
 * Apply's output: one line per action result, in the plan's own words (the same symbols and labels as
 * the text plan, from labels.ts), and the closing summary. The line says how it went (✓ done, ✗ failed,
 * ⧗ pending approval, ○ skipped, · not started), then what was done to which object, then why it failed
 * or was not tried (a pending change names its change request).
 * Pure; service text (errors, names) is made visible like everything else the terminal shows.
 */
import type { ActionResult } from "../apply/apply.js";
import type { ApplyResult } from "../apply/result.js";
import { visible } from "../text.js";
import type { Vocabulary } from "./kinds.js";
import { actionLabel, actionSymbol, objectInProject, type People } from "./labels.js";

const MARK: Record<ActionResult["outcome"], string> = {
  ok: "✓",
  failed: "✗",
  skipped: "○",
  not_started: "·",
  pending: "⧗",
};

export interface ResultContext {
  vocab: Vocabulary;
  /** The plan's people (`Plan.people`), so collaborators read as they did in the plan. */
  people: People;
}

/** `✓ + add collaborator Ana Lima <ana@acme.com> (can_edit) · dashboard "Weekly KPIs" (id 42) in project 12345` */
export function formatResult(result: ActionResult, ctx: ResultContext): string {
  const { action } = result;
  const label = `${actionSymbol(action, ctx.vocab)} ${actionLabel(action, ctx.people, ctx.vocab)}`;
  const object = objectInProject(action.object, ctx.vocab, result.id);
  const head = `${MARK[result.outcome]} ${visible(label)} · ${visible(object)}`;
  const tail = result.error ? ` — ${visible(result.error)}` : "";
  const notes = result.notes.map((n) => `\n    note: ${visible(n)}`).join("");
  return `${head}${tail}${notes}`;
}

/**
 * The closing line: "complete" only when every action succeeded and no name was created twice;
 * "stopped" whenever a signal came, even after the last action finished (the exit code is then 130 /
 * 143, and the line must not say otherwise).
 */
export function formatSummary(
  result: Pick<ApplyResult, "ok" | "results" | "duplicates" | "unchecked">,
  signal?: string,
): string {
  const { results } = result;
  const count = (o: ActionResult["outcome"]) => results.filter((r) => r.outcome === o).length;
  const failed = count("failed");
  const notStarted = count("not_started");
  const pending = count("pending");
  const held = pending > 0 ? `, ${pending} pending approval (not live until approved)` : "";
  const counts = `${count("ok")} succeeded, ${failed} failed${held}, ${count("skipped")} skipped`;
  if (signal !== undefined || notStarted > 0) {
    if (notStarted > 0)
      return `Apply stopped: ${counts}, ${notStarted} not started (run apply again to finish).`;
    const unchecked =
      result.unchecked !== undefined
        ? ", but the created names were not checked for duplicates (run plan to check)"
        : "";
    return `Apply stopped: ${counts}; every action had finished when ${signal ?? "the stop"} came${unchecked}.`;
  }
  const twice = result.duplicates.length;
  if (twice > 0) {
    const names = twice === 1 ? "1 name now has" : `${twice} names now have`;
    return `Apply failed: ${counts}; ${names} several live objects.`;
  }
  // Held for approval and nothing else wrong: incomplete, not failed (it goes live once approved).
  const head = result.ok
    ? "Apply complete"
    : failed === 0 && pending > 0
      ? "Apply incomplete"
      : "Apply failed";
  return `${head}: ${counts}.`;
}
