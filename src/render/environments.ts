/**
 * The plan of several environments (SPEC §9): one section per environment naming it, its project and
 * host, then that environment's plan as the single-project renderers show it, or why it could not be
 * planned; after them, a section for the single-project files of each project that is no
 * environment's. Markdown is one pull-request comment (one marker, a table of the sections, a section
 * each, all within GitHub's limit); JSON is the envelope `{format_version, environments: [...]}`
 * (schemas/plan-environments.schema.json) with each section's plan in the single-project shape. Pure,
 * like every renderer.
 */
import type { Plan } from "../plan/types.js";
import { visible } from "../text.js";
import { count } from "../words.js";
import type { Vocabulary } from "./kinds.js";
import { summaryPhrases } from "./labels.js";
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from "./markdown.js";
import { clip, escapeInline } from "./markdown-escape.js";
import { type Paint, painter } from "./paint.js";
import { renderText } from "./text.js";

/** One environment's outcome: its plan, or why there is none; and what its apply would refuse. */
export interface EnvironmentSection {
  /** The environment's name; `project N` for single-project files. */
  name: string;
  project: number;
  /** The single-project files of a project that is no environment's (SPEC §9), not an environment. */
  singleProject?: boolean;
  /** The host it was planned against (absent when it could not be reached). */
  host?: string;
  plan?: Plan;
  /** Why it could not be planned. */
  error?: string;
  /** Why `apply` would refuse this plan here (`protect`, `limits`). */
  refusal?: string;
  /**
   * Where this environment and the one it is promoted from disagree in ways that change what the
   * shared declarations mean (SPEC §9: group type indexes, static cohorts).
   */
  warnings?: string[];
}

export function sectionHeading(
  section: Pick<EnvironmentSection, "name" | "project" | "host" | "singleProject">,
): string {
  const what = section.singleProject ? "Single-project files" : `Environment ${section.name}`;
  return `${what} · project ${section.project}${section.host ? ` · ${section.host}` : ""}`;
}

export function renderEnvironmentsText(
  sections: readonly EnvironmentSection[],
  options: { color: boolean; vocab: Vocabulary },
): string {
  const paint: Paint = painter(options.color);
  const out: string[] = [];
  for (const section of sections) {
    out.push(paint("bold", visible(`══ ${sectionHeading(section)}`)), "");
    if (section.plan !== undefined) out.push(renderText(section.plan, options).replace(/\n$/, ""));
    if (section.error !== undefined) out.push(paint("red", `✗ not planned: ${visible(section.error)}`));
    if (section.refusal !== undefined)
      out.push(paint("yellow", `! apply will refuse: ${visible(section.refusal)}`));
    for (const warning of section.warnings ?? []) out.push(paint("yellow", `! warning: ${visible(warning)}`));
    out.push("");
  }
  out.push(paint("bold", overview(sections, options.vocab)));
  return `${out.join("\n")}\n`;
}

/**
 * `2 environments: staging 1 to add; production no changes; eu not planned`; with single-project
 * files, `2 environments and project 42: …; project 42 no changes`.
 */
function overview(sections: readonly EnvironmentSection[], vocab: Vocabulary): string {
  const parts = sections.map((s) => {
    if (s.plan === undefined) return `${s.name} not planned`;
    const phrases = summaryPhrases(s.plan.actions, vocab).map((p) => p.text);
    return `${s.name} ${phrases.length === 0 ? "no changes" : phrases.join(", ")}`;
  });
  return `${sectionsPhrase(sections)}: ${parts.join("; ")}.`;
}

/** `2 environments`, `2 environments and project 42`, `project 42`. */
export function sectionsPhrase(
  sections: readonly Pick<EnvironmentSection, "name" | "singleProject">[],
): string {
  const environments = sections.filter((s) => !s.singleProject).length;
  const projects = sections.filter((s) => s.singleProject).map((s) => s.name);
  return [
    ...(environments > 0 || projects.length === 0 ? [count(environments, "environment")] : []),
    ...(projects.length > 0 ? [projects.join(", ")] : []),
  ].join(" and ");
}

export interface EnvironmentsMarkdownOptions {
  vocab: Vocabulary;
  maxLength?: number;
  fullPlanHint?: string;
}

/**
 * One comment: a hidden marker naming the environments (a workflow updates this one comment), a table
 * of the environments, then each environment's plan as its own section, each given an equal share of
 * the length left (a plan cut to its share says so, as a single plan does).
 */
export function renderEnvironmentsMarkdown(
  sections: readonly EnvironmentSection[],
  options: EnvironmentsMarkdownOptions,
): string {
  const maxLength = options.maxLength ?? GITHUB_COMMENT_LIMIT;
  const names = sections
    .filter((s) => !s.singleProject)
    .map((s) => s.name)
    .join(",");
  const projects = sections.filter((s) => s.singleProject).map((s) => s.project);
  const head = [
    `<!-- posthog-gitops plan: environments ${names}${projects.length > 0 ? `; single-project files ${projects.join(",")}` : ""} -->`,
    `### posthog-gitops plan for ${sectionsPhrase(sections)}`,
    "",
    "| Environment | Project | Changes | Actions |",
    "| :-- | --: | :-- | --: |",
    ...sections.map((s) => {
      const name = s.singleProject ? "single-project files" : escapeInline(clip(s.name, 64));
      if (s.plan === undefined) return `| ${name} | ${s.project} | **not planned** ⚠️ | - |`;
      const phrases = summaryPhrases(s.plan.actions, options.vocab).map((p) =>
        p.destructive ? `**${p.text}** ⚠️` : p.text,
      );
      return `| ${name} | ${s.project} | ${phrases.length === 0 ? "no changes" : phrases.join(", ")} | ${s.plan.actions.length} |`;
    }),
  ].join("\n");
  const parts: string[] = [];
  const notes = sections.map((s) => sectionNotes(s).length);
  const share = Math.max(
    2048,
    Math.floor(
      (maxLength - head.length - notes.reduce((a, b) => a + b, 0) - 64 * sections.length) /
        Math.max(1, sections.length),
    ),
  );
  for (const section of sections) {
    const label = `${section.singleProject ? "single-project files" : section.name} (project ${section.project})`;
    let body: string;
    if (section.plan === undefined) {
      body = `### ${escapeInline(clip(label, 120))}\n\n> [!CAUTION]\n> Not planned: ${escapeInline(clip(section.error ?? "", 2000))}\n`;
    } else {
      const markdown = renderMarkdown(section.plan, {
        vocab: options.vocab,
        maxLength: share,
        projectLabel: escapeInline(clip(label, 120)),
        ...(options.fullPlanHint !== undefined ? { fullPlanHint: options.fullPlanHint } : {}),
      });
      // One marker for the whole comment: each section's own first line is left out.
      body = markdown.slice(markdown.indexOf("\n") + 1);
    }
    parts.push(`${body.replace(/\n$/, "")}${sectionNotes(section)}`);
  }
  return `${[head, ...parts].join("\n\n")}\n`;
}

function sectionNotes(section: EnvironmentSection): string {
  const warnings = (section.warnings ?? []).slice(0, MAX_WARNINGS);
  const more = (section.warnings?.length ?? 0) - warnings.length;
  const lines = [
    ...(section.refusal === undefined
      ? []
      : [`> **apply will refuse this plan here:** ${escapeInline(clip(section.refusal, 1000))}`]),
    ...warnings.map((w) => `> ${escapeInline(clip(w, 1000))}`),
    ...(more > 0 ? [`> …and ${count(more, "more warning")} (the text plan lists them all)`] : []),
  ];
  return lines.length === 0 ? "" : `\n\n> [!WARNING]\n${lines.join("\n>\n")}`;
}

/** How many of an environment's warnings the comment shows; the rest are counted. */
const MAX_WARNINGS = 20;

/**
 * The envelope's version (schemas/plan-environments.schema.json and apply-environments.schema.json):
 * bumped on any incompatible change. 2: each section's plan is in the plan's format 2 (and its apply
 * result in the apply result's format 2); sections of single-project files (`single_project`).
 */
export const ENVELOPE_FORMAT_VERSION = "2";

/** `{ format_version, environments: [{ name, project, single_project, host, plan | error, refusal, warnings }] }`. */
export function renderEnvironmentsJson(sections: readonly EnvironmentSection[]): string {
  const document = {
    format_version: ENVELOPE_FORMAT_VERSION,
    environments: sections.map((s) => ({
      name: s.name,
      project: s.project,
      ...(s.singleProject ? { single_project: true } : {}),
      ...(s.host !== undefined ? { host: s.host } : {}),
      ...(s.plan !== undefined ? { plan: s.plan } : {}),
      ...(s.error !== undefined ? { error: s.error } : {}),
      ...(s.refusal !== undefined ? { refusal: s.refusal } : {}),
      ...(s.warnings !== undefined && s.warnings.length > 0 ? { warnings: s.warnings } : {}),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
