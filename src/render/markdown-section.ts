/**
 * The per-object pieces of the markdown plan: a `<details>` section with the object's actions and field
 * changes, a line of the destructive list, and a note line. Every user-controlled string goes through
 * `escapeInline` (HTML and markdown contexts) or `codeSpan` / `codeBlock` (literal contexts).
 */
import type { Action, FieldChange, PlanNote } from "../plan/types.js";
import type { ObjectGroup } from "./group.js";
import type { Vocabulary } from "./kinds.js";
import { ACTION_SYMBOL, ACTION_WORDS, changeSides, diffHunks, shownChanges } from "./labels.js";
import { clip, codeBlock, codeSpan, escapeInline } from "./markdown-escape.js";

/** `dashboard **Name** (id 42)` with the name escaped. */
function objectName(ref: ObjectGroup["object"], vocab: Vocabulary): string {
  const id = ref.id === undefined ? "" : ` (id ${escapeInline(String(ref.id))})`;
  return `${escapeInline(vocab.words(ref.kind).one)} <b>${escapeInline(clip(ref.name, 200))}</b>${id}`;
}

function where(ref: ObjectGroup["object"]): string {
  const source = ref.source;
  const declared =
    source === undefined ? "not declared in any file" : codeSpan(`${source.file}:${source.line}`);
  return `project ${ref.project} · ${declared}`;
}

export function objectSection(group: ObjectGroup, vocab: Vocabulary): string {
  const words = group.actions.map((a) => ACTION_WORDS[a.action]);
  const symbols = new Set(group.actions.map((a) => ACTION_SYMBOL[a.action]));
  const symbol = symbols.size === 1 ? [...symbols][0] : "~";
  const summary = `<code>${symbol}</code> ${objectName(group.object, vocab)}: ${[...new Set(words)].join(", ")}`;
  const parts = [`<details><summary>${summary}</summary>`, "", `In ${where(group.object)}.`];
  for (const action of group.actions) parts.push("", ...actionBody(action));
  parts.push("", "</details>");
  return parts.join("\n");
}

function actionBody(action: Action): string[] {
  const lines = [`**${ACTION_SYMBOL[action.action]} ${ACTION_WORDS[action.action]}**${actionDetail(action)}`];
  const changes = shownChanges(action);
  if (changes.length > 0) lines.push("");
  for (const change of changes) lines.push(...changeLines(change, action.action === "create"));
  for (const warning of action.warnings) lines.push("", `> ⚠️ ${escapeInline(warning)}`);
  return lines;
}

function actionDetail(action: Action): string {
  switch (action.action) {
    case "add_collaborator":
      return ` ${codeSpan(String(action.after?.user_uuid ?? "?"))}`;
    case "remove_collaborator":
      return ` ${codeSpan(String(action.before?.user_uuid ?? "?"))}`;
    case "unpause":
      return action.after?.backfill === true ? " (with backfill of the paused gap)" : "";
    default:
      return "";
  }
}

/** A list item; a unified diff closes the list and follows as a ```diff block. */
function changeLines(change: FieldChange, created: boolean): string[] {
  const path = codeSpan(change.path);
  if (change.diff === undefined || change.secret === true) {
    const sides = changeSides(change, created);
    if ("secret" in sides) return [`- ${path}: ${codeSpan(sides.secret)}`];
    const after = codeSpan(clip(sides.after));
    return [
      `- ${path}: ${sides.before === undefined ? after : `${codeSpan(clip(sides.before))} → ${after}`}`,
    ];
  }
  return [`- ${path}:`, "", codeBlock("diff", diffHunks(change.diff)), ""];
}

/** One item of the destructive list, with the action's warnings after it. */
export function destructiveLine(action: Action, vocab: Vocabulary): string {
  const warnings = action.warnings.map((w) => ` ⚠️ ${escapeInline(clip(w))}`).join("");
  const detail = actionDetail(action);
  return `- **${ACTION_WORDS[action.action]}**${detail} ${objectName(action.object, vocab)} in ${where(action.object)}${warnings}`;
}

export function noteLine(note: PlanNote, vocab: Vocabulary): string {
  const mark = note.severity === "warning" ? "⚠️ **warning:**" : "ℹ️ **note:**";
  const about = note.object === undefined ? "" : ` (${objectName(note.object, vocab)})`;
  return `- ${mark} ${escapeInline(note.message)}${about}`;
}
