/**
 * The terminal plan: terraform-like symbols, grouped by project and kind, one block per object with its
 * actions, field changes (`path: before → after`, unified diffs for long text), warnings, then the plan's
 * notes and a summary line. Pure; colour only when the caller asks for it (paint.ts).
 */
import { originsOf, originWords } from "../plan/origins.js";
import type { Action, FieldChange, Plan } from "../plan/types.js";
import { visible } from "../text.js";
import type { ObjectGroup } from "./group.js";
import { projectGroups } from "./group.js";
import type { Vocabulary } from "./kinds.js";
import {
  actionLabel,
  actionSymbol,
  changeText,
  createdFirstText,
  DRIFT_WORDS,
  diffHunks,
  driftSentence,
  headSymbol,
  modifiedText,
  objectLabel,
  type People,
  shownChanges,
  sourceText,
  summarySentence,
  UNDECLARED_ADVICE,
  undeclaredHeading,
  type ValueWord,
  valueWords,
} from "./labels.js";
import { type Paint, painter, type Style } from "./paint.js";
import { scopeSentences } from "./scope.js";

export const NO_CHANGES = "No changes. The live service matches the configuration.";

export interface TextOptions {
  color: boolean;
  vocab: Vocabulary;
}

export { colorEnabled } from "./paint.js";

/** Destructive actions are red, changes (`~`) yellow, the others green. */
function actionStyle(action: Action, vocab: Vocabulary): Style {
  const verb = vocab.verb(action.action);
  const destructive = verb.destructive === "depends" ? action.destructive : verb.destructive;
  return destructive ? "red" : verb.symbol === "~" ? "yellow" : "green";
}

export function renderText(plan: Plan, options: TextOptions): string {
  const paint = painter(options.color);
  const { vocab } = options;
  const scope = scopeSentences(plan, vocab, {
    name: (n) => visible(JSON.stringify(n)),
    revision: visible,
    text: visible,
  });
  const lead = scope.length === 0 ? "" : `${scope.map((line) => paint("cyan", line)).join("\n")}\n\n`;
  const undeclared = plan.undeclared ?? [];
  if (plan.actions.length === 0 && plan.notes.length === 0 && undeclared.length === 0) {
    return `${lead}${NO_CHANGES}\n`;
  }
  const out: string[] = [];
  for (const project of projectGroups(plan, vocab)) {
    for (const kind of project.kinds) {
      out.push(paint("bold", `Project ${project.project} · ${vocab.words(kind.kind).many}`), "");
      for (const group of kind.objects) out.push(...objectBlock(group, plan, paint, vocab), "");
    }
  }
  if (plan.notes.length > 0) {
    out.push(paint("bold", "Notes:"));
    for (const note of plan.notes) {
      const about = note.object === undefined ? "" : ` (${objectLabel(note.object, vocab)})`;
      const mark = note.severity === "warning" ? paint("yellow", "! warning:") : paint("cyan", "· note:");
      out.push(`  ${mark} ${visible(note.message)}${visible(about)}`);
    }
    out.push("");
  }
  if (undeclared.length > 0) {
    out.push(paint("bold", `${undeclaredHeading(undeclared.length)}:`));
    for (const ref of undeclared)
      out.push(`  ${paint("yellow", "?")} ${objectLabel(ref, vocab)} in project ${ref.project}`);
    out.push(`  ${UNDECLARED_ADVICE}.`, "");
  }
  if (plan.actions.some((a) => a.drift === true)) out.push(paint("yellow", visible(driftSentence(plan))));
  out.push(plan.actions.length === 0 ? NO_CHANGES : paint("bold", summarySentence(plan.actions, vocab)));
  return `${lead}${out.join("\n")}\n`;
}

function objectBlock(group: ObjectGroup, plan: Plan, paint: Paint, vocab: Vocabulary): string[] {
  const first = group.actions[0];
  const symbol = headSymbol(group.actions, vocab);
  const alike = new Set(group.actions.map((a) => actionSymbol(a, vocab))).size === 1;
  const style = alike && first ? actionStyle(first, vocab) : "yellow";
  const drifted = group.actions.find((a) => a.drift === true);
  const head = `  ${paint(style, symbol)} ${paint("bold", visible(objectLabel(group.object, vocab)))}`;
  const drift = drifted === undefined ? "" : ` ${paint("yellow", `· ${DRIFT_WORDS}`)}`;
  const lines = [`${head} ${paint("dim", `· ${visible(sourceText(group.object.source))}`)}${drift}`];
  const modifiedBy = drifted ?? group.actions.find((a) => a.modified !== undefined);
  const modified = modifiedBy === undefined ? "" : modifiedText(modifiedBy, plan);
  if (modified !== "") lines.push(`      ${paint("yellow", `! ${modified}`)}`);
  const words = valueWords(vocab, group.object.kind);
  for (const action of group.actions) lines.push(...actionBlock(action, plan.people, words, paint, vocab));
  return lines;
}

function actionBlock(
  action: Action,
  people: People,
  words: ValueWord,
  paint: Paint,
  vocab: Vocabulary,
): string[] {
  const style = actionStyle(action, vocab);
  const label = visible(actionLabel(action, people, vocab));
  const lines = [`      ${paint(style, `${actionSymbol(action, vocab)} ${label}`)}`];
  const created = action.action === "create";
  for (const change of shownChanges(action)) {
    const shown = changeLines(change, created, words, paint);
    // An environment's value says where its overlay or variable set it (SPEC §9).
    const from = originWords(originsOf(action.origins, change.path, change));
    if (from !== "" && shown[0] !== undefined) shown[0] += ` ${paint("dim", `· ${visible(from)}`)}`;
    lines.push(...shown);
  }
  const first = createdFirstText(action, vocab);
  if (first !== "") lines.push(`          ${paint("dim", first)}`);
  if (action.guard !== undefined)
    lines.push(`          ${paint("red", `! needs --force: ${visible(action.guard)}`)}`);
  for (const warning of action.warnings) lines.push(`          ${paint("yellow", `! ${visible(warning)}`)}`);
  return lines;
}

function changeLines(change: FieldChange, created: boolean, words: ValueWord, paint: Paint): string[] {
  const path = visible(change.path);
  if (change.says !== undefined && change.says.length > 0) {
    if (change.says.length === 1) return [`          ${path}: ${visible(change.says[0] ?? "")}`];
    return [`          ${path}:`, ...change.says.map((line) => `            ${visible(line)}`)];
  }
  if (change.diff === undefined || change.secret === true) {
    return [`          ${path}: ${visible(changeText(change, created, words))}`];
  }
  const lines = [`          ${path}:`];
  for (const line of diffHunks(change.diff)) {
    const style: Style | undefined = line.startsWith("+")
      ? "green"
      : line.startsWith("-")
        ? "red"
        : line.startsWith("@@")
          ? "cyan"
          : undefined;
    const text = visible(line);
    lines.push(`            ${style === undefined ? text : paint(style, text)}`);
  }
  return lines;
}
