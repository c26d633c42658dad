/**
 * The per-object pieces of the markdown plan: a `<details>` section with the object's actions and field
 * changes, a line of the destructive list, a line of the drift list, and a note line. Every
 * user-controlled string (names, values, people, times from the service) goes through `escapeInline`
 * (HTML and markdown contexts) or `codeSpan` / `codeBlock` (literal contexts).
 */
import { originsOf, originWords } from "../plan/origins.js";
import type { Action, FieldChange, Plan, PlanNote } from "../plan/types.js";
import type { ObjectGroup } from "./group.js";
import type { Vocabulary } from "./kinds.js";
import {
  actionDetail,
  actionSymbol,
  actionWord,
  changeSides,
  createdFirstText,
  DRIFT_WORDS,
  diffHunks,
  headSymbol,
  modifiedText,
  type People,
  shownChanges,
  userText,
  type ValueWord,
  valueWords,
} from "./labels.js";
import { clip, codeBlock, codeSpan, escapeInline } from "./markdown-escape.js";

/** `dashboard **Name** (id 42)` with the name escaped. */
export function objectName(ref: ObjectGroup["object"], vocab: Vocabulary): string {
  const id = ref.id === undefined ? "" : ` (id ${escapeInline(String(ref.id))})`;
  return `${escapeInline(vocab.words(ref.kind).one)} <b>${escapeInline(clip(ref.name, 200))}</b>${id}`;
}

function where(ref: ObjectGroup["object"]): string {
  const source = ref.source;
  const declared =
    source === undefined ? "not declared in any file" : codeSpan(`${source.file}:${source.line}`);
  return `project ${ref.project} · ${declared}`;
}

/** What a section's reader needs besides the object: the plan (people, time) and whether to name projects. */
export interface SectionContext {
  vocab: Vocabulary;
  plan: Pick<Plan, "created_at" | "people">;
  /** The plan spans several projects: summaries name the project. */
  manyProjects: boolean;
}

export function objectSection(group: ObjectGroup, ctx: SectionContext): string {
  const { vocab } = ctx;
  const words = group.actions.map((a) => actionWord(a, vocab));
  const symbol = headSymbol(group.actions, vocab);
  const project = ctx.manyProjects ? ` in project ${group.object.project}` : "";
  const drifted = group.actions.find((a) => a.drift === true);
  const drift = drifted === undefined ? "" : ` · ⚠️ ${DRIFT_WORDS}`;
  const summary = `<code>${symbol}</code> ${objectName(group.object, vocab)}${project}: ${[...new Set(words)].join(", ")}${drift}`;
  const parts = [`<details><summary>${summary}</summary>`, "", `In ${where(group.object)}.`];
  if (drifted !== undefined) parts.push("", `> ⚠️ **${DRIFT_WORDS}**${modifiedSuffix(drifted, ctx)}`);
  else {
    const modified = group.actions.find((a) => a.modified !== undefined);
    const text = modified === undefined ? "" : modifiedText(modified, ctx.plan);
    if (text !== "") parts.push("", `${escapeInline(text.charAt(0).toUpperCase() + text.slice(1))}.`);
  }
  const valueWord = valueWords(vocab, group.object.kind);
  for (const action of group.actions)
    parts.push("", ...actionBody(action, ctx.plan.people, valueWord, vocab));
  parts.push("", "</details>");
  return parts.join("\n");
}

function modifiedSuffix(action: Action, ctx: SectionContext): string {
  const modified = modifiedText(action, ctx.plan);
  return modified === "" ? "" : `: ${escapeInline(modified)}`;
}

function actionBody(action: Action, people: People, words: ValueWord, vocab: Vocabulary): string[] {
  const lines = [
    `**${actionSymbol(action, vocab)} ${actionWord(action, vocab)}**${detail(action, people, vocab)}`,
  ];
  const changes = shownChanges(action);
  if (changes.length > 0) lines.push("");
  for (const change of changes) {
    const shown = changeLines(change, action.action === "create", words);
    // An environment's value says where its overlay or variable set it (SPEC §9).
    const from = originWords(originsOf(action.origins, change.path, change));
    if (from !== "" && shown[0] !== undefined) shown[0] += ` · _${escapeInline(from)}_`;
    lines.push(...shown);
  }
  const first = createdFirstText(action, vocab);
  if (first !== "") lines.push(...(changes.length > 0 ? [] : [""]), `- ${escapeInline(first)}`);
  // A diff block ends with a blank line for a list item after it; the section adds its own.
  while (lines[lines.length - 1] === "") lines.pop();
  if (action.guard !== undefined) lines.push("", `> ⛔ needs \`--force\`: ${escapeInline(action.guard)}`);
  for (const warning of action.warnings) lines.push("", `> ⚠️ ${escapeInline(warning)}`);
  return lines;
}

/**
 * The action's detail (the collaborator and access, the backfill), escaped, after a space; or "". An
 * unknown collaborator's UUID and the access word are code, as in the YAML.
 */
function detail(action: Action, people: People, vocab: Vocabulary): string {
  const user = userText(action, people, vocab);
  if (user !== undefined) {
    const who = user.known ? escapeInline(user.who) : codeSpan(user.who);
    return user.access === undefined ? ` ${who}` : ` ${who} (${codeSpan(user.access)})`;
  }
  const text = actionDetail(action, people, vocab);
  return text === "" ? "" : ` ${escapeInline(text)}`;
}

/** A list item; a unified diff closes the list and follows as a ```diff block. */
function changeLines(change: FieldChange, created: boolean, words: ValueWord): string[] {
  const path = codeSpan(change.path);
  if (change.says !== undefined && change.says.length > 0) {
    if (change.says.length === 1) return [`- ${path}: ${escapeInline(clip(change.says[0] ?? ""))}`];
    return [`- ${path}:`, ...change.says.map((line) => `  - ${escapeInline(clip(line))}`)];
  }
  if (change.diff === undefined || change.secret === true) {
    const sides = changeSides(change, created, words);
    if ("secret" in sides) return [`- ${path}: ${codeSpan(sides.secret)}`];
    const after = codeSpan(clip(sides.after));
    return [
      `- ${path}: ${sides.before === undefined ? after : `${codeSpan(clip(sides.before))} → ${after}`}`,
    ];
  }
  return [`- ${path}:`, "", codeBlock("diff", diffHunks(change.diff)), ""];
}

/** One item of the destructive list, with the action's warnings after it. */
export function destructiveLine(action: Action, ctx: SectionContext): string {
  const guard =
    action.guard === undefined ? "" : ` ⛔ needs \`--force\`: ${escapeInline(clip(action.guard))}`;
  const warnings = guard + action.warnings.map((w) => ` ⚠️ ${escapeInline(clip(w))}`).join("");
  const drift = action.drift === true ? ` · ${DRIFT_WORDS}` : "";
  const more = detail(action, ctx.plan.people, ctx.vocab);
  const object = `${objectName(action.object, ctx.vocab)} in ${where(action.object)}`;
  return `- **${actionWord(action, ctx.vocab)}**${more === "" ? ` ${object}` : `${more} · ${object}`}${drift}${warnings}`;
}

/** One item of the drift list: the object, what the plan does to it, and when it was modified. */
export function driftLine(group: ObjectGroup, ctx: SectionContext): string {
  const words = [...new Set(group.actions.map((a) => actionWord(a, ctx.vocab)))].join(", ");
  const drifted = group.actions.find((a) => a.drift === true);
  const modified = drifted === undefined ? "" : modifiedText(drifted, ctx.plan);
  const when = modified === "" ? "" : ` · ${escapeInline(modified)}`;
  return `- ${objectName(group.object, ctx.vocab)} in ${where(group.object)}: ${words}${when}`;
}

export function noteLine(note: PlanNote, vocab: Vocabulary): string {
  const mark = note.severity === "warning" ? "⚠️ **warning:**" : "ℹ️ **note:**";
  const about = note.object === undefined ? "" : ` (${objectName(note.object, vocab)})`;
  return `- ${mark} ${escapeInline(note.message)}${about}`;
}
