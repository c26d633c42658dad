/**
 * The renderers behind one entry point, for commands that take `--format`. Each format is pure
 * `Plan → string`; the text format's colour is decided by the caller (see `colorEnabled`).
 */
import type { Plan } from "../plan/types.js";
import { renderJson } from "./json.js";
import { type RenderKind, vocabulary } from "./kinds.js";
import { type MarkdownOptions, renderMarkdown } from "./markdown.js";
import { renderText } from "./text.js";

export type PlanFormat = "text" | "markdown" | "json";
export const PLAN_FORMATS: readonly PlanFormat[] = ["text", "markdown", "json"];

export interface RenderOptions extends Omit<MarkdownOptions, "vocab"> {
  /** The kinds the plan was made with (their words and order). */
  kinds: readonly RenderKind[];
  /** Text format only. */
  color?: boolean;
}

export function renderPlan(plan: Plan, format: PlanFormat, options: RenderOptions): string {
  const vocab = vocabulary(options.kinds);
  switch (format) {
    case "text":
      return renderText(plan, { color: options.color ?? false, vocab });
    case "markdown":
      return renderMarkdown(plan, { ...options, vocab });
    case "json":
      return renderJson(plan);
  }
}

export { annotation, diagnosticAnnotations, planAnnotations } from "./github.js";
export { renderJson } from "./json.js";
export { type RenderKind, type Vocabulary, vocabulary } from "./kinds.js";
export { GITHUB_COMMENT_LIMIT, renderMarkdown } from "./markdown.js";
export { colorEnabled, NO_CHANGES, renderText } from "./text.js";
