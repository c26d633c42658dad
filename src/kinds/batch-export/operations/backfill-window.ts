/**
 * Checks a backfill window before anything is sent, with the rules the service applies
 * (service-api.md §4 Backfills), so a mistake costs no request and gets a message naming the option:
 * - hourly and sub-hourly exports take instants with a timezone (or relative times);
 * - daily and weekly exports take dates only (YYYY-MM-DD), on the export's offset day when it has one;
 * - start before end, end not in the future.
 * `checkWindowSyntax` needs no network (run it before resolving NAME); `checkWindowForInterval` needs
 * the export's interval.
 */
import { UserError } from "../../../errors.js";
import { isoTime } from "../../../render/time.js";
import { type CliTime, parseCliTime } from "../../../time.js";

export interface BackfillWindow {
  /** What is sent as `start_at` / `end_at`: ISO instants (UTC) or dates. */
  start_at: string;
  end_at: string;
}

export interface ParsedWindow {
  start: CliTime;
  end: CliTime;
}

const DATE_INTERVALS = new Set(["day", "week"]);
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export function checkWindowSyntax(
  start: string | undefined,
  end: string | undefined,
  now: Date,
): ParsedWindow {
  if (!start || !end) {
    throw new UserError(
      "backfill needs both --start and --end, e.g. --start 2026-11-20T00:00:00Z --end 2026-11-20T06:00:00Z",
    );
  }
  const s = parseCliTime(start, "--start", now);
  const e = parseCliTime(end, "--end", now);
  if (s.kind !== e.kind) {
    throw new UserError(
      `--start and --end must both be dates (YYYY-MM-DD, for daily and weekly exports) or both times with a timezone; got ${start} and ${end}`,
    );
  }
  if (s.ms >= e.ms) throw new UserError(`--start ${start} must be before --end ${end}`);
  if (e.ms > now.getTime()) {
    throw new UserError(
      `--end ${end} is in the future (now is ${isoTime(now.toISOString())}): a backfill can only export the past`,
    );
  }
  return { start: s, end: e };
}

/**
 * `offsetDay` (0 = Sunday) is the weekly export's schedule day when the service reports one.
 * Returns the body to send.
 */
export function checkWindowForInterval(
  window: ParsedWindow,
  exportName: string,
  interval: string,
  offsetDay?: number | null,
): BackfillWindow {
  const { start, end } = window;
  if (DATE_INTERVALS.has(interval)) {
    if (start.kind !== "date") {
      throw new UserError(
        `"${exportName}" runs every ${interval}: give dates only, e.g. --start ${isoDate(start.ms)} --end ${isoDate(end.ms)}`,
      );
    }
    if (interval === "week" && typeof offsetDay === "number") {
      for (const [flag, t] of [
        ["--start", start],
        ["--end", end],
      ] as const) {
        if (new Date(t.ms).getUTCDay() !== offsetDay) {
          throw new UserError(
            `"${exportName}" runs weekly on ${WEEKDAYS[offsetDay] ?? offsetDay}: ${flag} ${t.text} is a ${WEEKDAYS[new Date(t.ms).getUTCDay()]}`,
          );
        }
      }
    }
    return { start_at: start.text, end_at: end.text };
  }
  if (start.kind === "date") {
    throw new UserError(
      `"${exportName}" runs every ${interval}: give times with a timezone, e.g. --start ${start.text}T00:00:00Z --end ${end.text}T00:00:00Z`,
    );
  }
  return { start_at: start.text, end_at: end.text };
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
