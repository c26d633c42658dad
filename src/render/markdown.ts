/**
 * The pull-request comment. Layout: a hidden marker line (so a workflow updates one comment in place),
 * a heading, a warning when `--target` made the plan partial, the summary sentence and table (a row per
 * project when the plan spans several), destructive actions first under a warning, then the objects
 * changed outside posthog-gitops (drift, with `--base`), one collapsible section per object, then notes.
 * Never longer than `maxLength` (GitHub caps a comment at 65,536 characters): whole object sections and
 * notes are left out, never the marker, summary, destructive or drift list (those are shortened only if
 * they alone cannot fit), and a closing note says how many were left out and where the full plan is.
 */
import type { KindWords } from "../config/kinds.js";
import type { Action, ActionKind, Plan } from "../plan/types.js";
import { cut } from "../text.js";
import { count } from "../words.js";
import { type ObjectGroup, objectGroups } from "./group.js";
import type { Vocabulary } from "./kinds.js";
import {
  actionCounts,
  actionWord,
  DRIFT_WORDS,
  driftedObjects,
  summaryPhrases,
  summarySentence,
  UNDECLARED_ADVICE,
  undeclaredHeading,
} from "./labels.js";
import { clip, codeSpan, escapeInline } from "./markdown-escape.js";
import {
  destructiveLine,
  driftLine,
  noteLine,
  objectName,
  objectSection,
  type SectionContext,
} from "./markdown-section.js";
import { scopeSentences } from "./scope.js";

export const GITHUB_COMMENT_LIMIT = 65_536;

export interface MarkdownOptions {
  vocab: Vocabulary;
  maxLength?: number;
  /** Where the full plan is, e.g. "the full plan is in the job summary and the artifact `plan.txt`". */
  fullPlanHint?: string;
  /** Heading label, e.g. "Production (12345)"; defaults to the project ids. Trusted text. */
  projectLabel?: string;
}

interface Piece {
  text: string;
  /** What the piece is, for the cut note: `dashboard` / `dashboards`. */
  kind: KindWords;
}

export function renderMarkdown(plan: Plan, options: MarkdownOptions): string {
  const { vocab } = options;
  const maxLength = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const hint = options.fullPlanHint ?? "run `posthog-gitops plan` for the full plan";
  const manyProjects = new Set([...plan.projects, ...plan.actions.map((a) => a.object.project)]).size > 1;
  const ctx: SectionContext = { vocab, plan, manyProjects };
  const head = headPart(plan, options.projectLabel, manyProjects, vocab);
  const destructive = plan.actions.filter((a) => a.destructive);
  const groups = objectGroups(plan.actions);
  const drifted = groups.filter((g) => g.actions.some((a) => a.drift === true));
  const sections: Piece[] = groups.map((g) => ({
    text: objectSection(g, ctx),
    kind: vocab.words(g.object.kind),
  }));
  const notes: Piece[] = plan.notes.map((n) => ({ text: noteLine(n, vocab), kind: NOTE_WORDS }));
  const lists = (shownDestructive: number, shownDrift: number) =>
    [
      destructiveBlock(destructive, shownDestructive, ctx),
      driftBlock(plan, drifted, shownDrift, ctx),
      undeclaredBlock(plan, ctx),
    ].filter((b) => b !== "");

  const whole = assemble(head, lists(destructive.length, drifted.length), sections, notes, "");
  if (whole.length <= maxLength) return whole;

  // Too long: reserve room for the cut note (sized for the worst counts), keep the destructive and drift
  // lists (shortened only if they alone cannot fit), then add notes and sections while they fit.
  const reserve = cutNote([...sections, ...notes], sections.length + notes.length, hint).length + 64;
  let shown = destructive.length;
  let shownDrift = drifted.length;
  const size = (blocks: string[]) => blocks.reduce((n, b) => n + b.length + 2, 0);
  let blocks = lists(shown, shownDrift);
  while ((shown > 0 || shownDrift > 0) && head.length + size(blocks) + reserve > maxLength) {
    if (shownDrift > 0) shownDrift = Math.max(0, shownDrift - Math.max(1, Math.ceil(shownDrift / 10)));
    else shown = Math.max(0, shown - Math.max(1, Math.ceil(shown / 10)));
    blocks = lists(shown, shownDrift);
  }
  let budget =
    maxLength - head.length - size(blocks) - reserve - CHANGES_HEADING.length - NOTES_HEADING.length;
  const fitting = (pieces: Piece[]): Piece[] =>
    pieces.filter((p) => {
      const cost = p.text.length + 2;
      if (cost > budget) return false;
      budget -= cost;
      return true;
    });
  const keptNotes = fitting(notes);
  const keptSections = fitting(sections);
  const kept = new Set([...keptSections, ...keptNotes]);
  const left = [...sections, ...notes].filter((p) => !kept.has(p));
  const text = assemble(
    head,
    blocks,
    keptSections,
    keptNotes,
    cutNote(left, sections.length + notes.length, hint),
  );
  return text.length <= maxLength ? text : `${cut(text, maxLength - 1)}\n`;
}

const NOTE_WORDS: KindWords = { one: "note", many: "notes" };

const CHANGES_HEADING = "#### Changes\n\n";
const NOTES_HEADING = "#### Notes\n\n";

function assemble(head: string, lists: string[], sections: Piece[], notes: Piece[], cut: string): string {
  const parts = [head, ...lists];
  if (sections.length > 0) parts.push(CHANGES_HEADING + sections.map((s) => s.text).join("\n\n"));
  if (notes.length > 0) parts.push(NOTES_HEADING + notes.map((n) => n.text).join("\n"));
  if (cut !== "") parts.push(cut);
  return `${parts.join("\n\n")}\n`;
}

function headPart(plan: Plan, label: string | undefined, manyProjects: boolean, vocab: Vocabulary): string {
  const projects = plan.projects.join(",");
  const title =
    label ?? (plan.projects.length === 1 ? `project ${projects}` : `projects ${plan.projects.join(", ")}`);
  const lines = [`<!-- posthog-gitops plan: ${projects} -->`, `### posthog-gitops plan for ${title}`, ""];
  const scope = scopeSentences(plan, vocab, {
    name: (n) => `<b>${escapeInline(clip(n, 200))}</b>`,
    revision: codeSpan,
    text: escapeInline,
  });
  if (scope.length > 0)
    lines.push(["> [!NOTE]", ...scope.map((l, i) => `${i > 0 ? ">\n" : ""}> ${l}`)].join("\n"), "");
  if (plan.targets !== undefined && plan.targets.length > 0) lines.push(partialBlock(plan.targets), "");
  if (plan.actions.length === 0) {
    lines.push("**No changes.** The live service matches the configuration.");
    return lines.join("\n");
  }
  lines.push(`**${summarySentence(plan.actions, vocab)}**`, "");
  lines.push(...(manyProjects ? projectTable(plan, vocab) : actionTable(plan.actions, vocab)));
  return lines.join("\n");
}

/** The table's heading word for an action kind: bold with ⚠️ when some of its actions are destructive. */
function columnWord(actions: readonly Action[], kind: ActionKind, vocab: Vocabulary): string {
  const word = actionWord({ action: kind }, vocab);
  return actions.some((a) => a.action === kind && a.destructive) ? `**${word}** ⚠️` : word;
}

function actionTable(actions: readonly Action[], vocab: Vocabulary): string[] {
  const lines = ["| Action | Count |", "| :-- | --: |"];
  for (const [kind, n] of actionCounts(actions, vocab)) {
    lines.push(`| ${columnWord(actions, kind, vocab)} | ${n} |`);
  }
  return lines;
}

/** A row per project: what the plan does there, in the summary's words, and how many actions. */
function projectTable(plan: Plan, vocab: Vocabulary): string[] {
  const projects = [...new Set([...plan.projects, ...plan.actions.map((a) => a.object.project)])];
  const lines = ["| Project | Changes | Actions |", "| :-- | :-- | --: |"];
  for (const project of projects) {
    const own = plan.actions.filter((a) => a.object.project === project);
    const phrases = summaryPhrases(own, vocab).map((p) => (p.destructive ? `**${p.text}** ⚠️` : p.text));
    lines.push(
      `| ${project} | ${phrases.length === 0 ? "no changes" : phrases.join(", ")} | ${own.length} |`,
    );
  }
  return lines;
}

/** Terraform warns that a targeted plan is partial; so does the comment. */
function partialBlock(targets: readonly string[]): string {
  return [
    "> [!WARNING]",
    `> **Partial plan:** narrowed with ${targets.map((t) => codeSpan(`--target ${t}`)).join(", ")}. Changes to other objects are not shown, and apply with the same targets leaves them as they are.`,
  ].join("\n");
}

/** The warning block listing the first `shown` destructive actions and how many more there are. */
function destructiveBlock(destructive: readonly Action[], shown: number, ctx: SectionContext): string {
  if (destructive.length === 0) return "";
  const n = destructive.length;
  const lines = [
    "> [!WARNING]",
    `> **${count(n, "destructive action")}**: review ${n === 1 ? "it" : "them"} before merging.`,
    ">",
    ...destructive.slice(0, shown).map((a) => `> ${destructiveLine(a, ctx)}`),
  ];
  if (shown < n) lines.push(`> - …and ${n - shown} more, listed in the full plan.`);
  return lines.join("\n");
}

/** The objects changed outside posthog-gitops (`--base`): after the destructive list, before the rest. */
function driftBlock(plan: Plan, drifted: readonly ObjectGroup[], shown: number, ctx: SectionContext): string {
  if (drifted.length === 0) return "";
  const n = driftedObjects(plan.actions);
  const their = n === 1 ? "its declaration is" : "their declarations are";
  const base = plan.base === undefined ? "" : ` at ${codeSpan(plan.base)}`;
  const lines = [
    "> [!IMPORTANT]",
    `> **${count(n, "object")} ${DRIFT_WORDS}**: ${their} the same${base} and in this change, so the plan reverts edits made in PostHog. Keep them by writing them into the files instead.`,
    ">",
    ...drifted.slice(0, shown).map((g) => `> ${driftLine(g, ctx)}`),
  ];
  if (shown < drifted.length) lines.push(`> - …and ${drifted.length - shown} more, listed in the full plan.`);
  return lines.join("\n");
}

/** How many undeclared objects the comment names; the rest are counted. */
const UNDECLARED_SHOWN = 50;

/** `plan --undeclared`: the live objects no file declares, after the drift list. */
function undeclaredBlock(plan: Plan, ctx: SectionContext): string {
  const undeclared = plan.undeclared ?? [];
  if (undeclared.length === 0) return "";
  const lines = [
    "> [!NOTE]",
    `> **${undeclaredHeading(undeclared.length)}**: ${escapeInline(UNDECLARED_ADVICE)}.`,
    ">",
    ...undeclared
      .slice(0, UNDECLARED_SHOWN)
      .map((ref) => `> - ${objectName(ref, ctx.vocab)} in project ${ref.project}`),
  ];
  if (undeclared.length > UNDECLARED_SHOWN) {
    lines.push(`> - …and ${undeclared.length - UNDECLARED_SHOWN} more, listed in the full plan.`);
  }
  return lines.join("\n");
}

function cutNote(all: readonly Piece[], total: number, hint: string): string {
  if (all.length === 0) return "";
  const byKind = new Map<string, { words: KindWords; n: number }>();
  for (const p of all) {
    const seen = byKind.get(p.kind.one) ?? { words: p.kind, n: 0 };
    byKind.set(p.kind.one, { ...seen, n: seen.n + 1 });
  }
  const detail = [...byKind.values()].map(({ words, n }) => count(n, words.one, words.many)).join(", ");
  return [
    "> [!NOTE]",
    `> This comment is cut to stay under GitHub's limit: ${all.length} ${all.length === 1 ? "section was" : "sections were"} left out of ${total} (${detail}). ${capitalise(hint)}.`,
  ].join("\n");
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
