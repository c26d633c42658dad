/**
 * Times on the command line: ISO-8601 with a timezone (`2026-11-20T06:00:00Z`, `...+02:00`) or relative
 * to now (`-7d`, `-12h`, `-30m`, `-2w`, `now`). A time without a timezone is refused: the same wall-clock
 * time names different instants on different machines, and the service refuses naive times too.
 * Dates alone (`2026-11-20`) are returned as dates: only daily and weekly backfills take them.
 */
import { UserError } from "./errors.js";

export type CliTime =
  | { kind: "instant"; ms: number; text: string }
  | { kind: "date"; ms: number; text: string };

const RELATIVE = /^-(\d+)\s*(s|m|h|d|w)$/i;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses `raw` for the option `flag` (named in messages). Dates are UTC midnight in `ms`.
 * Throws a UserError naming the option and showing an accepted form.
 */
export function parseCliTime(raw: string, flag: string, now: Date): CliTime {
  const text = raw.trim();
  if (text.toLowerCase() === "now") return { kind: "instant", ms: now.getTime(), text: now.toISOString() };
  const relative = RELATIVE.exec(text);
  if (relative) {
    const ms = now.getTime() - Number(relative[1]) * (UNIT_MS[(relative[2] ?? "").toLowerCase()] ?? 0);
    return { kind: "instant", ms, text: new Date(ms).toISOString() };
  }
  const date = DATE.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    if (new Date(ms).toISOString().slice(0, 10) !== text) throw badTime(raw, flag);
    return { kind: "date", ms, text };
  }
  const match = DATE_TIME.exec(text);
  if (!match) throw badTime(raw, flag);
  if (!match[1]) {
    throw new UserError(
      `${flag} ${raw} has no timezone: add Z or an offset, e.g. ${text.replace(" ", "T")}Z or ${text.replace(" ", "T")}+02:00`,
    );
  }
  const ms = Date.parse(text.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  if (Number.isNaN(ms)) throw badTime(raw, flag);
  return { kind: "instant", ms, text: new Date(ms).toISOString() };
}

/** Like `parseCliTime` but a date alone counts as its UTC midnight (filters, not backfills). */
export function parseInstant(raw: string, flag: string, now: Date): string {
  const t = parseCliTime(raw, flag, now);
  return new Date(t.ms).toISOString();
}

function badTime(raw: string, flag: string): UserError {
  return new UserError(
    `${flag} ${raw} is not a time: use ISO-8601 with a timezone (2026-11-20T06:00:00Z) or a relative time (-7d, -12h, -30m)`,
  );
}

let relativeTime: Intl.RelativeTimeFormat | undefined;

/** Each unit of `ago`, and the count from which the next unit reads better. */
const AGO_UNITS: Array<[size: number, unit: Intl.RelativeTimeFormatUnit, below: number]> = [
  [1000, "second", 60],
  [60_000, "minute", 60],
  [3_600_000, "hour", 48],
  [86_400_000, "day", Number.POSITIVE_INFINITY],
];

/**
 * `3m ago`, `5h ago`, `2d ago`; `in 4m` for the future (Intl's narrow English form). The unit is the
 * largest that reads well: seconds under a minute, minutes under an hour, hours under two days, chosen
 * after rounding (59.9 s is `1m ago`, never `60s ago`). For tables only (JSON keeps ISO instants).
 */
export function ago(iso: string | null | undefined, now: Date): string {
  if (!iso) return "-";
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const diff = ms - now.getTime();
  const abs = Math.abs(diff);
  let n = 0;
  let unit: Intl.RelativeTimeFormatUnit = "second";
  for (const [size, name, below] of AGO_UNITS) {
    n = Math.round(abs / size);
    unit = name;
    if (n < below) break;
  }
  // Made on first use: building it loads locale data, which costs start-up time of commands that never
  // print a relative time.
  relativeTime ??= new Intl.RelativeTimeFormat("en", { style: "narrow", numeric: "always" });
  // Intl reads -0 as the past ("0s ago"), 0 as the future.
  return relativeTime.format(diff > 0 ? n : -n, unit);
}
