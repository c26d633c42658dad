/** One line per action result and the closing summary of an apply. */
import type { RenderKind } from "../render/kinds.js";
import type { ActionResult } from "./apply.js";

const MARK = { ok: "✓", failed: "✗", skipped: "-", not_started: "·" } as const;

export function formatResult(result: ActionResult, kinds: readonly RenderKind[]): string {
  const { action } = result;
  const who = action.action.includes("collaborator")
    ? ` ${String(action.after?.user_uuid ?? action.before?.user_uuid ?? "")}`
    : "";
  const id = result.id !== undefined ? `, id ${result.id}` : "";
  const where = ` (project ${action.object.project}${id})`;
  const word = kinds.find((k) => k.name === action.object.kind)?.words.one ?? action.object.kind;
  const head = `${MARK[result.outcome]} ${action.action}${who} ${word} "${action.object.name}"${where}`;
  const tail = result.error ? `: ${result.error}` : "";
  const notes = result.notes.map((n) => `\n    note: ${n}`).join("");
  return `${head}${tail}${notes}`;
}

export function formatSummary(results: readonly ActionResult[]): string {
  const count = (o: ActionResult["outcome"]) => results.filter((r) => r.outcome === o).length;
  const failed = count("failed");
  const notStarted = count("not_started");
  const head = notStarted > 0 ? "Apply stopped" : failed > 0 ? "Apply failed" : "Apply complete";
  const tail = notStarted > 0 ? `, ${notStarted} not started (run apply again to finish)` : "";
  return `${head}: ${count("ok")} succeeded, ${failed} failed, ${count("skipped")} skipped${tail}.`;
}
