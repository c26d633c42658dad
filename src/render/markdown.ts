/**
 * The pull-request comment. Layout: a hidden marker line (so a workflow updates one comment in place),
 * a heading, the summary sentence and table, destructive actions first under a warning, one collapsible
 * section per object, then notes. Never longer than `maxLength` (GitHub caps a comment at 65,536
 * characters): whole object sections and notes are left out, never the marker, summary or destructive
 * list, and a closing note says how many were left out and where the full plan is.
 */
import type { Action, Plan } from "../plan/types.js";
import { objectGroups } from "./group.js";
import type { Vocabulary } from "./kinds.js";
import { ACTION_WORDS, actionCounts, summarySentence } from "./labels.js";
import { destructiveLine, noteLine, objectSection } from "./markdown-section.js";

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
  kind: string;
}

export function renderMarkdown(plan: Plan, options: MarkdownOptions): string {
  const { vocab } = options;
  const maxLength = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const hint = options.fullPlanHint ?? "run `posthog-gitops plan` for the full plan";
  const head = headPart(plan, options.projectLabel);
  const destructive = plan.actions.filter((a) => a.destructive);
  const sections: Piece[] = objectGroups(plan.actions).map((g) => ({
    text: objectSection(g, vocab),
    kind: vocab.words(g.object.kind).many,
  }));
  const notes: Piece[] = plan.notes.map((n) => ({ text: noteLine(n, vocab), kind: "notes" }));

  const whole = assemble(head, destructiveBlock(destructive, destructive.length, vocab), sections, notes, "");
  if (whole.length <= maxLength) return whole;

  // Too long: reserve room for the cut note (sized for the worst counts), keep the destructive list
  // (shortened only if it alone cannot fit), then add notes and sections while they fit.
  const reserve = cutNote([...sections, ...notes], sections.length + notes.length, hint).length + 64;
  let shown = destructive.length;
  let block = destructiveBlock(destructive, shown, vocab);
  while (shown > 0 && head.length + block.length + reserve > maxLength) {
    shown = Math.max(0, shown - Math.max(1, Math.ceil(shown / 10)));
    block = destructiveBlock(destructive, shown, vocab);
  }
  let budget =
    maxLength - head.length - block.length - reserve - CHANGES_HEADING.length - NOTES_HEADING.length;
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
    block,
    keptSections,
    keptNotes,
    cutNote(left, sections.length + notes.length, hint),
  );
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 2)}…\n`;
}

const CHANGES_HEADING = "#### Changes\n\n";
const NOTES_HEADING = "#### Notes\n\n";

function assemble(head: string, destructive: string, sections: Piece[], notes: Piece[], cut: string): string {
  const parts = [head];
  if (destructive !== "") parts.push(destructive);
  if (sections.length > 0) parts.push(CHANGES_HEADING + sections.map((s) => s.text).join("\n\n"));
  if (notes.length > 0) parts.push(NOTES_HEADING + notes.map((n) => n.text).join("\n"));
  if (cut !== "") parts.push(cut);
  return `${parts.join("\n\n")}\n`;
}

function headPart(plan: Plan, label: string | undefined): string {
  const projects = plan.projects.join(",");
  const title =
    label ?? (plan.projects.length === 1 ? `project ${projects}` : `projects ${plan.projects.join(", ")}`);
  const lines = [`<!-- posthog-gitops plan: ${projects} -->`, `### posthog-gitops plan for ${title}`, ""];
  if (plan.actions.length === 0) {
    lines.push("**No changes.** The live service matches the configuration.");
    return lines.join("\n");
  }
  lines.push(`**${summarySentence(plan.actions)}**`, "", "| Action | Count |", "| :-- | --: |");
  for (const [kind, n] of actionCounts(plan.actions)) {
    const word = ACTION_WORDS[kind];
    lines.push(
      plan.actions.some((a) => a.action === kind && a.destructive)
        ? `| **${word}** ⚠️ | ${n} |`
        : `| ${word} | ${n} |`,
    );
  }
  return lines.join("\n");
}

/** The warning block listing the first `shown` destructive actions and how many more there are. */
function destructiveBlock(destructive: readonly Action[], shown: number, vocab: Vocabulary): string {
  if (destructive.length === 0) return "";
  const n = destructive.length;
  const lines = [
    "> [!WARNING]",
    `> **${n} destructive ${n === 1 ? "action" : "actions"}**: review ${n === 1 ? "it" : "them"} before merging.`,
    ">",
    ...destructive.slice(0, shown).map((a) => `> ${destructiveLine(a, vocab)}`),
  ];
  if (shown < n) lines.push(`> - …and ${n - shown} more, listed in the full plan.`);
  return lines.join("\n");
}

function cutNote(all: readonly Piece[], total: number, hint: string): string {
  if (all.length === 0) return "";
  const byKind = new Map<string, number>();
  for (const p of all) byKind.set(p.kind, (byKind.get(p.kind) ?? 0) + 1);
  const detail = [...byKind].map(([kind, n]) => `${n} ${kind}`).join(", ");
  return [
    "> [!NOTE]",
    `> This comment is cut to stay under GitHub's limit: ${all.length} ${all.length === 1 ? "section was" : "sections were"} left out of ${total} (${detail}). ${capitalise(hint)}.`,
  ].join("\n");
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
