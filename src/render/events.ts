/**
 * `events` output: JSON (schemas/events.schema.json), CSV (RFC 4180: every field quoted when it holds
 * a comma, quote or line break; `properties` as one JSON field) and a terminal table. Pure.
 */
import type { EventItem } from "../service/types.js";
import { cut } from "../text.js";
import { type Paint, type Row, renderTable } from "./table.js";
import { humanTime } from "./time.js";

/** An exact-match event property filter, as the events list's `properties` parameter takes it. */
export interface PropertyFilter {
  key: string;
  value: string;
  operator: "exact";
  type: "event";
}

export interface EventsDocument {
  format_version: "1";
  generated_at: string;
  project: number;
  filters: {
    event: string | null;
    distinct_id: string | null;
    after: string | null;
    before: string | null;
    properties: PropertyFilter[];
  };
  events: EventRow[];
}

export interface EventRow {
  id: string;
  event: string;
  timestamp: string;
  distinct_id: string;
  properties: Record<string, unknown>;
}

export function eventRow(e: EventItem): EventRow {
  return {
    id: e.id,
    event: e.event,
    timestamp: e.timestamp,
    distinct_id: e.distinct_id,
    properties: e.properties ?? {},
  };
}

const CSV_COLUMNS = ["id", "event", "timestamp", "distinct_id", "properties"] as const;

export function renderEventsCsv(events: readonly EventRow[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const e of events) {
    lines.push(
      [e.id, e.event, e.timestamp, e.distinct_id, JSON.stringify(e.properties)].map(csvField).join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function renderEventsText(doc: EventsDocument, paint: Paint): string {
  if (doc.events.length === 0) return "No events match.\n";
  const rows: Row[] = doc.events.map((e) => [
    humanTime(e.timestamp, doc.generated_at),
    e.event,
    e.distinct_id,
    propertiesPreview(e.properties),
  ]);
  return renderTable(["TIMESTAMP", "EVENT", "DISTINCT ID", "PROPERTIES"], rows, paint);
}

/** `$browser=Chrome $os=Mac OS X …`, cut to 100 characters. */
function propertiesPreview(properties: Record<string, unknown>): string {
  const text = Object.entries(properties)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  return cut(text, 100);
}
