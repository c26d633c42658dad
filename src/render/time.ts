/**
 * The one way human output shows an instant: ISO-8601 in UTC to the second, with how long ago it was
 * (`2026-11-20T10:00:00Z (2h ago)`). JSON keeps the service's own instants; only people read these.
 * Pure: "now" is handed in (the plan's `created_at`, a document's `generated_at`, or the run's clock).
 */
import { ago } from "../time.js";

const DATE_ALONE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `2026-11-20T10:00:00Z`; text that is not an instant is returned as it is, and so is a date alone
 * (`2026-11-20`, a daily backfill's window): it names a day, not an instant.
 */
export function isoTime(iso: string): string {
  if (DATE_ALONE.test(iso)) return iso;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** `2026-11-20T10:00:00Z (2h ago)`; `-` when there is no time. */
export function humanTime(iso: string | null | undefined, now: Date | string): string {
  if (!iso) return "-";
  const at = isoTime(iso);
  if (Number.isNaN(Date.parse(iso))) return at;
  const reference = typeof now === "string" ? new Date(now) : now;
  if (Number.isNaN(reference.getTime())) return at;
  return `${at} (${ago(iso, reference)})`;
}
