/**
 * `logs` output: the JSON document (schemas/logs.schema.json) and the terminal lines. Pure.
 * Entries stay newest first, as the service sends them; times read as everywhere in human output
 * (`2026-11-20T10:00:00Z (2h ago)`, relative to when the entries were read).
 */

import { flat } from "../text.js";
import type { ExportRef } from "./runs.js";
import { oneLine, type Paint, type Style } from "./table.js";
import { humanTime } from "./time.js";

export interface LogsDocument {
  format_version: "1";
  generated_at: string;
  export: ExportRef;
  filters: { run: string | null; level: string[]; search: string | null; since: string | null };
  entries: LogItem[];
}

/** One log entry: the run it belongs to (`instance_id`), when, how severe and what it says. */
export interface LogItem {
  log_source_id: string;
  instance_id: string;
  timestamp: string;
  level: string;
  message: string;
}

const LEVEL_STYLE: Record<string, Style> = { ERROR: "red", WARNING: "yellow", DEBUG: "dim" };

/** One line per entry, columns padded to their widest cell (times, levels and run ids vary in length). */
export function renderLogsText(doc: LogsDocument, paint: Paint): string {
  if (doc.entries.length === 0) return `No log entries of "${flat(doc.export.name)}" match.\n`;
  const rows = doc.entries.map((e) => ({
    time: humanTime(e.timestamp, doc.generated_at),
    level: e.level,
    run: oneLine(e.instance_id || "-"),
    message: oneLine(e.message),
  }));
  const widest = (cells: string[]) => Math.max(...cells.map((c) => c.length));
  const time = widest(rows.map((r) => r.time));
  const level = widest(rows.map((r) => r.level));
  const run = widest(rows.map((r) => r.run));
  return rows
    .map((r) => {
      const runs = doc.filters.run ? "" : `  ${paint("dim", r.run.padEnd(run))}`;
      const head = `${r.time.padEnd(time)}  ${paint(LEVEL_STYLE[r.level], r.level.padEnd(level))}${runs}`;
      return `${head}  ${r.message}\n`;
    })
    .join("");
}
