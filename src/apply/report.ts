/** One line per action result and the closing summary of an apply. */
import { describeObject } from "../plan/context.js";
import type { ActionResult } from "./apply.js";

const MARK = { ok: "✓", failed: "✗", skipped: "-" } as const;

export function formatResult(result: ActionResult): string {
  const { action } = result;
  const who = action.action.includes("collaborator")
    ? ` ${String(action.after?.user_uuid ?? action.before?.user_uuid ?? "")}`
    : "";
  const id = result.id !== undefined ? `, id ${result.id}` : "";
  const where = ` (project ${action.object.project}${id})`;
  const head = `${MARK[result.outcome]} ${action.action}${who} ${describeObject(action.object)}${where}`;
  const tail = result.error ? `: ${result.error}` : "";
  const notes = result.notes.map((n) => `\n    note: ${n}`).join("");
  return `${head}${tail}${notes}`;
}

export function formatSummary(results: readonly ActionResult[]): string {
  const count = (o: ActionResult["outcome"]) => results.filter((r) => r.outcome === o).length;
  const failed = count("failed");
  const head = failed > 0 ? "Apply failed" : "Apply complete";
  return `${head}: ${count("ok")} succeeded, ${failed} failed, ${count("skipped")} skipped.`;
}
