/**
 * `logs` output: the JSON document (schemas/logs.schema.json) and the terminal lines. Pure.
 * Entries stay newest first, as the service sends them; times read as everywhere in human output
 * (`2026-11-20T10:00:00Z (2h ago)`, relative to when the entries were read).
 */

import type { LogEntry } from "../service/types.js";
import { flat } from "../text.js";
import type { ExportRef } from "./runs.js";
import { oneLine, type Paint, type Style } from "./table.js";
import { humanTime } from "./time.js";

export interface LogsDocument {
  format_version: "1";
  generated_at: string;
  export: ExportRef;
  filters: { run: string | null; level: string[]; search: string | null; since: string | null };
  entries: LogEntry[];
}

const LEVEL_STYLE: Record<string, Style> = { ERROR: "red", WARNING: "yellow", DEBUG: "dim" };

export function renderLogsText(doc: LogsDocument, paint: Paint): string {
  if (doc.entries.length === 0) return `No log entries of "${flat(doc.export.name)}" match.\n`;
  const width = Math.max(...doc.entries.map((e) => e.level.length));
  return doc.entries
    .map((e) => {
      const level = paint(LEVEL_STYLE[e.level], e.level.padEnd(width));
      const run = doc.filters.run ? "" : `  ${paint("dim", e.instance_id || "-")}`;
      return `${humanTime(e.timestamp, doc.generated_at)}  ${level}${run}  ${oneLine(e.message)}\n`;
    })
    .join("");
}
