/**
 * Commands printed for the user to copy (`follow it with: ...`, the planner's unpause warning) must
 * survive a POSIX shell and pass `backfill`'s own checks: an argument with anything but safe
 * characters is single-quoted, and the window has the form the export's interval needs (dates for
 * daily and weekly exports, UTC instants otherwise).
 */
export function quoteArg(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** The exact `backfill` command for an export and window, as given. */
export function backfillCommand(name: string, start: string, end: string): string {
  return `posthog-gitops backfill ${quoteArg(name)} --start ${quoteArg(start)} --end ${quoteArg(end)}`;
}

const STEP_MS: Record<string, number> = {
  "every 5 minutes": 300_000,
  "every 15 minutes": 900_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/**
 * The `backfill` command that exports what a pause left out, or undefined when no whole interval was
 * missed. The scheduled run of an interval happens at its end, so the interval during which the
 * export was paused was missed too: the window runs from the start of that interval to the start of
 * the current one (UTC). Daily and weekly exports get dates (weekly ones on `offsetDay`, 0 = Sunday,
 * the schedule's default); the others get instants to the second.
 */
export function gapBackfillCommand(
  name: string,
  interval: string,
  pausedSince: string,
  now: Date,
  offsetDay = 0,
): string | undefined {
  const paused = Date.parse(pausedSince);
  if (Number.isNaN(paused)) return undefined;
  const [start, end] =
    interval === "week"
      ? [weekStart(paused, offsetDay), weekStart(now.getTime(), offsetDay)]
      : [floor(paused, interval), floor(now.getTime(), interval)];
  if (start >= end) return undefined;
  const text =
    interval === "day" || interval === "week"
      ? (ms: number) => new Date(ms).toISOString().slice(0, 10)
      : (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
  return backfillCommand(name, text(start), text(end));
}

function floor(ms: number, interval: string): number {
  const step = STEP_MS[interval] ?? 3_600_000;
  return Math.floor(ms / step) * step;
}

/** Midnight UTC of the latest `offsetDay` weekday at or before `ms`. */
function weekStart(ms: number, offsetDay: number): number {
  const day = floor(ms, "day");
  const back = (new Date(day).getUTCDay() - offsetDay + 7) % 7;
  return day - back * 86_400_000;
}

/** Where to look after a backfill or retry whose answer was lost (it may have started). */
export function checkRunsHint(name: string): string {
  return `see whether it started with: posthog-gitops runs ${quoteArg(name)} --since -1h`;
}
