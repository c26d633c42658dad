/**
 * `promote`'s outputs (SPEC §9 "Promotion"), pure: text for a terminal, markdown for a pull request's
 * body (what the promote workflow opens), and JSON (`schemas/promote.schema.json`, the document as it
 * is). Each shows, in this order: where the environments disagree (warnings), what stays in the
 * source's own files (kept), what `--adopt` brought or left out, the unified diff of the shared files,
 * and the destination's plan from the edited files as `plan` shows it.
 */
import type { PromoteResult } from "../promote/result.js";
import { cut, visible } from "../text.js";
import { count } from "../words.js";
import { type RenderKind, vocabulary } from "./kinds.js";
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from "./markdown.js";
import { clip, codeBlock, escapeInline } from "./markdown-escape.js";
import { painter } from "./paint.js";
import { renderText } from "./text.js";

export type PromoteFormat = "text" | "markdown" | "json";

export interface PromoteRenderOptions {
  kinds: readonly RenderKind[];
  color: boolean;
  /** Markdown only: the longest body (GitHub's limit for a pull request's body by default). */
  maxLength?: number;
}

export function renderPromote(
  result: PromoteResult,
  format: PromoteFormat,
  options: PromoteRenderOptions,
): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(result, null, 2)}\n`;
    case "markdown":
      return promoteMarkdown(result, options);
    default:
      return promoteText(result, options);
  }
}

function route(result: PromoteResult): string {
  const { source: s, destination: d } = result;
  return `${s.name} (project ${s.project}) → ${d.name} (project ${d.project})`;
}

/** `1 file to edit, 2 fields kept, 1 object adopted`. */
export function promoteSummary(result: PromoteResult): string {
  const parts = [
    result.files.length === 0
      ? "nothing to promote"
      : `${count(result.files.length, "shared file")} ${result.written ? "edited" : "to edit"} (${count(result.promoted.length, "field")}${result.adopted.length > 0 ? `, ${count(result.adopted.length, "object")} adopted` : ""})`,
    ...(result.kept.length > 0
      ? [`${count(result.kept.length, "difference")} kept in ${result.source.name}`]
      : []),
    ...(result.warnings.length > 0 ? [count(result.warnings.length, "warning")] : []),
  ];
  return parts.join("; ");
}

function promoteText(result: PromoteResult, options: PromoteRenderOptions): string {
  const paint = painter(options.color);
  const out: string[] = [paint("bold", visible(`Promote ${route(result)}: ${promoteSummary(result)}`)), ""];
  if (result.warnings.length > 0) {
    out.push(paint("bold", "Warnings:"));
    for (const w of result.warnings) out.push(paint("yellow", `  ! ${visible(w.message)}`));
    out.push("");
  }
  if (result.kept.length > 0) {
    out.push(paint("bold", `Kept in ${visible(result.source.name)} (not promoted):`));
    for (const k of result.kept) out.push(`  = ${visible(`${k.field} of ${k.owner}: ${k.why}`)}`);
    out.push("");
  }
  if (result.adopted.length > 0) {
    out.push(paint("bold", "Adopted:"));
    for (const a of result.adopted)
      out.push(paint("green", `  + ${visible(`${a.kind} "${a.name}" into ${a.file}`)}`));
    out.push("");
  }
  if (result.left_out.length > 0) {
    out.push(paint("bold", "Not adopted:"));
    for (const l of result.left_out) out.push(`  - ${visible(`${l.kind} "${l.name}": ${l.why}`)}`);
    out.push("");
  }
  if (result.variables.length > 0) {
    out.push(`Secret variables the adopted objects read: ${result.variables.join(", ")}`, "");
  }
  if (result.files.length > 0) {
    out.push(
      paint(
        "bold",
        result.written ? "Written to the shared files:" : "Edits to the shared files (not written):",
      ),
    );
    for (const f of result.files) {
      for (const line of f.diff.replace(/\n$/, "").split("\n")) {
        const style =
          line.startsWith("+") && !line.startsWith("+++")
            ? "green"
            : line.startsWith("-") && !line.startsWith("---")
              ? "red"
              : line.startsWith("@@")
                ? "cyan"
                : undefined;
        out.push(paint(style, visible(line)));
      }
    }
    out.push("");
  }
  const heading = `══ Plan of ${result.destination.name} · project ${result.destination.project}${result.destination.host ? ` · ${result.destination.host}` : ""}`;
  out.push(paint("bold", visible(heading)), "");
  if (result.plan !== undefined) {
    out.push(
      renderText(result.plan, { color: options.color, vocab: vocabulary(options.kinds) }).replace(/\n$/, ""),
    );
  }
  if (result.error !== undefined) out.push(paint("red", `✗ not planned: ${visible(result.error)}`));
  if (result.refusal !== undefined)
    out.push(paint("yellow", `! apply will refuse: ${visible(result.refusal)}`));
  return `${out.join("\n")}\n`;
}

/** The most lines of a list the body shows; the rest are counted. */
const MAX_LIST = 50;

function list<T>(items: readonly T[], line: (item: T) => string): string[] {
  const shown = items.slice(0, MAX_LIST).map((i) => `- ${line(i)}`);
  if (items.length > MAX_LIST)
    shown.push(`- …and ${items.length - MAX_LIST} more (the text output lists them all)`);
  return shown;
}

/**
 * A pull request's body: a hidden marker, the summary, the warnings, what stays, what was adopted, each
 * file's diff, and the destination's plan (its own markdown, given what room is left); within `maxLength`.
 */
function promoteMarkdown(result: PromoteResult, options: PromoteRenderOptions): string {
  const maxLength = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const head: string[] = [
    `<!-- posthog-gitops promote: ${escapeInline(clip(result.source.name, 64))} -> ${escapeInline(clip(result.destination.name, 64))} -->`,
    `### posthog-gitops promote: ${escapeInline(clip(route(result), 300))}`,
    "",
    escapeInline(promoteSummary(result)),
  ];
  if (result.warnings.length > 0) {
    head.push(
      "",
      "> [!WARNING]",
      ...result.warnings
        .slice(0, MAX_LIST)
        .flatMap((w, i) => [...(i > 0 ? [">"] : []), `> ${escapeInline(clip(w.message, 1000))}`]),
    );
    if (result.warnings.length > MAX_LIST)
      head.push(">", `> …and ${result.warnings.length - MAX_LIST} more warnings`);
  }
  if (result.kept.length > 0) {
    head.push("", `**Kept in ${escapeInline(clip(result.source.name, 64))}** (not promoted):`, "");
    head.push(
      ...list(
        result.kept,
        (k) =>
          `${escapeInline(clip(k.field, 200))} of ${escapeInline(clip(k.owner, 240))}: ${escapeInline(clip(k.why, 600))}`,
      ),
    );
  }
  if (result.adopted.length > 0) {
    head.push("", "**Adopted**:", "");
    head.push(
      ...list(
        result.adopted,
        (a) =>
          `${escapeInline(a.kind)} “${escapeInline(clip(a.name, 200))}” into ${escapeInline(clip(a.file, 200))}`,
      ),
    );
  }
  if (result.left_out.length > 0) {
    head.push("", "**Not adopted**:", "");
    head.push(
      ...list(
        result.left_out,
        (l) =>
          `${escapeInline(l.kind)} “${escapeInline(clip(l.name, 200))}”: ${escapeInline(clip(l.why, 600))}`,
      ),
    );
  }
  if (result.variables.length > 0) {
    head.push(
      "",
      `Secret variables the adopted objects read: ${result.variables.map((v) => escapeInline(v)).join(", ")}`,
    );
  }
  const top = `${head.join("\n")}\n`;
  // The plan first gets what it needs up to half of the room; the diffs get the rest.
  const planRoom = Math.max(2048, Math.floor((maxLength - top.length) / 2));
  const plan = planMarkdown(result, options, planRoom);
  let room = maxLength - top.length - plan.length - 256;
  const diffs: string[] = [];
  if (result.files.length > 0)
    diffs.push(`#### ${result.written ? "Shared files edited" : "Edits to the shared files"}`);
  result.files.forEach((f, i) => {
    const share = Math.floor(room / (result.files.length - i));
    const label = `${escapeInline(clip(f.path, 200))}${f.created ? " (new)" : ""}`;
    let block = `${label}\n\n${codeBlock("diff", f.diff.replace(/\n$/, "").split("\n"))}`;
    if (block.length > share) {
      const lines = f.diff.split("\n");
      let kept = lines.length;
      while (kept > 0 && codeBlock("diff", lines.slice(0, kept)).length + label.length + 120 > share)
        kept = Math.floor(kept * 0.8);
      block = `${label}\n\n${codeBlock("diff", lines.slice(0, kept))}\n\n_…cut: ${lines.length - kept} more lines of this diff (the text output shows it whole)._`;
    }
    room -= block.length + 2;
    diffs.push(block);
  });
  return cut(
    `${[top, ...diffs, plan]
      .filter((p) => p !== "")
      .join("\n\n")
      .replace(/\n+$/, "")}\n`,
    maxLength,
  );
}

function planMarkdown(result: PromoteResult, options: PromoteRenderOptions, maxLength: number): string {
  const label = `${result.destination.name} (project ${result.destination.project})`;
  if (result.plan === undefined) {
    return `#### Plan of ${escapeInline(clip(label, 120))}\n\n> [!CAUTION]\n> Not planned: ${escapeInline(clip(result.error ?? "", 2000))}\n`;
  }
  const markdown = renderMarkdown(result.plan, {
    vocab: vocabulary(options.kinds),
    maxLength,
    projectLabel: `${escapeInline(clip(label, 120))} from the edited files`,
    fullPlanHint: "run `posthog-gitops promote` (text format) for the full plan",
  });
  // The body has one marker: the plan's own first line (its marker) is left out.
  const body = markdown.slice(markdown.indexOf("\n") + 1);
  const refusal =
    result.refusal === undefined
      ? ""
      : `\n\n> [!WARNING]\n> **apply will refuse this plan there:** ${escapeInline(clip(result.refusal, 1000))}`;
  return `${body.replace(/\n$/, "")}${refusal}`;
}
