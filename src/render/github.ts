/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`): validation diagnostics and plan
 * actions become annotations on the YAML lines they come from. Pure: returns text for stdout.
 *
 * Escaping follows the runner's parser for `::` commands: data escapes `%`, `\r`, `\n`; property values
 * also escape `:` and `,` (the property separators). `%` is escaped first so escapes never double up.
 * Other control characters are shown as `\uXXXX`: the runner would pass them to the log viewer, which
 * renders ANSI sequences. `;` is deliberately left alone: the runner does not unescape `%3B` in `::`
 * properties (only the legacy `##[` syntax did), so escaping it would corrupt a file name holding one.
 */
import type { Diagnostic, Severity } from "../config/types.js";
import type { Plan } from "../plan/types.js";
import { visible } from "../text.js";
import { type ObjectGroup, objectGroups } from "./group.js";
import type { Vocabulary } from "./kinds.js";
import {
  actionLabel,
  actionSymbol,
  DRIFT_WORDS,
  modifiedText,
  objectInProject,
  type People,
} from "./labels.js";

export type AnnotationLevel = "error" | "warning" | "notice";

export interface AnnotationTarget {
  file: string;
  line?: number;
  col?: number;
}

/**
 * Data of a command: `%`, CR and LF escaped as the runner unescapes them; other control characters
 * (ANSI escapes, which the log viewer would render) shown as `\uXXXX`.
 */
export function escapeData(text: string): string {
  return visible(text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A"));
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** One workflow command line, newline-terminated. A line/col that is not a positive integer is left out. */
export function annotation(level: AnnotationLevel, where: AnnotationTarget, message: string): string {
  const props: string[] = [];
  if (where.file !== "") props.push(`file=${escapeProperty(where.file)}`);
  if (isPosition(where.line)) {
    props.push(`line=${where.line}`);
    if (isPosition(where.col)) props.push(`col=${where.col}`);
  }
  const head = props.length > 0 ? `::${level} ${props.join(",")}` : `::${level}`;
  return `${head}::${escapeData(message)}\n`;
}

function isPosition(n: number | undefined): n is number {
  return n !== undefined && Number.isInteger(n) && n > 0;
}

const LEVEL: Record<Severity, AnnotationLevel> = { error: "error", warning: "warning", note: "notice" };

/**
 * How a file path is shown in an annotation. GitHub resolves `file=` against the repository root, so a
 * command run from a sub-folder passes a mapping from its own relative paths to root-relative ones.
 */
export type AnnotationPath = (file: string) => string;

const asIs: AnnotationPath = (file) => file;

/** One annotation per diagnostic, in the order given. */
export function diagnosticAnnotations(
  diagnostics: readonly Diagnostic[],
  path: AnnotationPath = asIs,
): string {
  return diagnostics
    .map((d) =>
      annotation(
        LEVEL[d.severity],
        { file: d.file === "" ? "" : path(d.file), line: d.line, col: d.column },
        d.message,
      ),
    )
    .join("");
}

/**
 * One annotation per object that will change, on the line that declares it: `::warning` when any of its
 * actions is destructive or it changed outside posthog-gitops (drift), else `::notice` (fewer lines
 * matter: GitHub shows only a few annotations per step). The message names the object, then one line per
 * action with the plan's symbol and label, then warnings. Objects with no source (pruned objects no file
 * declares) have no line to point at and are skipped; they are in the plan itself.
 */
export function planAnnotations(plan: Plan, vocab: Vocabulary, path: AnnotationPath = asIs): string {
  return objectGroups(plan.actions)
    .map((group) => objectAnnotation(group, plan, path, vocab))
    .join("");
}

function objectAnnotation(group: ObjectGroup, plan: Plan, path: AnnotationPath, vocab: Vocabulary): string {
  const source = group.object.source;
  if (source === undefined) return "";
  const drifted = group.actions.find((a) => a.drift === true);
  const destructive = group.actions.some((a) => a.destructive);
  const level: AnnotationLevel = destructive || drifted !== undefined ? "warning" : "notice";
  const people: People = plan.people;
  const head = `posthog-gitops plan: ${objectInProject(group.object, vocab)}`;
  const lines = [drifted === undefined ? head : `${head} · ${DRIFT_WORDS}`];
  const modified = drifted === undefined ? "" : modifiedText(drifted, plan);
  if (modified !== "") lines.push(modified);
  for (const a of group.actions) lines.push(`${actionSymbol(a, vocab)} ${actionLabel(a, people, vocab)}`);
  lines.push(...group.actions.flatMap((a) => a.warnings));
  return annotation(
    level,
    { file: path(source.file), line: source.line, col: source.column },
    lines.join("\n"),
  );
}
