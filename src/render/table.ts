/**
 * Plain-text tables for the operations commands: a header row, columns padded to their widest cell
 * (measured without colour codes), two spaces between columns. Colour is applied per cell by the
 * caller's `paint` and only when the caller enabled it (TTY, no NO_COLOR): see `colorEnabled`.
 */

import stringWidth from "string-width";
import { visible } from "../text.js";
import type { Paint, Style } from "./paint.js";

export { type Paint, painter, type Style } from "./paint.js";

export interface Cell {
  text: string;
  style?: Style | undefined;
}

export type Row = ReadonlyArray<string | Cell>;

/** Renders rows under `headers`; the last column is not padded (no trailing spaces). */
export function renderTable(headers: readonly string[], rows: readonly Row[], paint: Paint): string {
  const cells = rows.map((row) => row.map((c) => (typeof c === "string" ? { text: c } : c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => width(r[i]?.text ?? ""))));
  const line = (parts: Cell[]) =>
    parts
      .map((c, i) => {
        const pad = i === parts.length - 1 ? "" : " ".repeat(Math.max(0, (widths[i] ?? 0) - width(c.text)));
        return paint(c.style, oneLine(c.text)) + pad;
      })
      .join("  ");
  const head = line(headers.map((h) => ({ text: h, style: "bold" as const })));
  return `${[head, ...cells.map(line)].join("\n")}\n`;
}

/**
 * Runs, logs and events are one row each: line breaks and tabs in service text become spaces, other
 * control characters (ANSI escapes) are shown as `\uXXXX`.
 */
export function oneLine(text: string): string {
  return visible(text.replace(/[\r\n\t]+/g, " "));
}

/** Columns a cell takes on a terminal: wide (East Asian) characters and emoji count twice. */
function width(text: string): number {
  return stringWidth(oneLine(text));
}

/** Status words coloured by outcome. */
export function statusStyle(status: string | undefined | null): Style | undefined {
  if (!status) return undefined;
  if (FAILED_STATUSES.has(status)) return "red";
  if (status === "Completed") return "green";
  if (status === "Running" || status === "Starting") return "yellow";
  return "dim";
}

/** Run statuses that count as failures (status column, `--fail-on-error`, `retry --failed`). */
/** Run statuses that mean the run failed. */
export const FAILED_STATUSES: ReadonlySet<string> = new Set([
  "Failed",
  "FailedRetryable",
  "FailedBilling",
  "TimedOut",
]);

export function isFailed(status: string | undefined | null): boolean {
  return status !== undefined && status !== null && FAILED_STATUSES.has(status);
}

/** 1234567 → 1,234,567 (stable across locales). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
