/**
 * Collecting diagnostics: every stage appends here instead of throwing, so one run reports every problem.
 * Line and column are 1-based; 0 means "the whole file or path" (a missing folder, an unreadable file).
 */
import { flat } from "../text.js";
import type { Diagnostic, Severity } from "./types.js";

export class Diagnostics {
  readonly list: Diagnostic[] = [];

  add(severity: Severity, file: string, line: number, column: number, message: string): void {
    this.list.push({ severity, file, line, column, message });
  }

  error(file: string, line: number, column: number, message: string): void {
    this.add("error", file, line, column, message);
  }

  get hasErrors(): boolean {
    return this.list.some((d) => d.severity === "error");
  }

  /** Sorted by file, then position, then message, without exact repeats: the same input gives the same output. */
  sorted(): Diagnostic[] {
    const seen = new Set<string>();
    const unique = this.list.filter((d) => {
      const key = `${d.file}\0${d.line}\0${d.column}\0${d.severity}\0${d.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return unique.sort(
      (a, b) =>
        compare(a.file, b.file) || a.line - b.line || a.column - b.column || compare(a.message, b.message),
    );
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `file:line:column: severity: message`, or `file: severity: message` when there is no position, or
 * `severity: message` when there is no file (a note about the environment, not about a file).
 */
export function formatDiagnostic(d: Diagnostic): string {
  // One line: a file name or a quoted value with a line break must not start a line of its own.
  if (d.file === "") return `${d.severity}: ${flat(d.message)}`;
  const where = d.line > 0 ? `${flat(d.file)}:${d.line}:${d.column}` : flat(d.file);
  return `${where}: ${d.severity}: ${flat(d.message)}`;
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const d of diagnostics) counts[d.severity] += 1;
  return counts;
}
