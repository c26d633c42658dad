/**
 * Batch export schedules (service-api.md §4, newest): `timezone` (an IANA zone, stored "UTC" when null)
 * and `interval_offset` seconds, shown as `offset_day` (0 = Sunday, weekly) and `offset_hour` (daily and
 * weekly). Zone arithmetic goes through `Intl`, so no time zone data ships with the emulator.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `ms`, in minutes (east positive). */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** Epoch ms of a wall-clock time in `zone` (the earlier instant when ambiguous), and the offset used. */
export function zonedTime(
  zone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
): { ms: number; offsetMinutes: number } {
  const wall = Date.UTC(year, month - 1, day, hour);
  let offset = zoneOffsetMinutes(zone, wall);
  // Two passes settle the offset across a transition.
  for (let i = 0; i < 2; i++) {
    const next = zoneOffsetMinutes(zone, wall - offset * 60_000);
    if (next === offset) break;
    offset = next;
  }
  return { ms: wall - offset * 60_000, offsetMinutes: offset };
}

export const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The model's `offset_day` property: weekly only, Sunday (0) when no offset is stored. */
export function offsetDay(interval: string, intervalOffset: number | null): number | null {
  if (interval !== "week") return null;
  return intervalOffset === null ? 0 : Math.floor(intervalOffset / 86_400);
}

/** The model's `offset_hour` property: daily and weekly only, midnight (0) when no offset is stored. */
export function offsetHour(interval: string, intervalOffset: number | null): number | null {
  if (interval !== "day" && interval !== "week") return null;
  return intervalOffset === null ? 0 : Math.floor(intervalOffset / 3600) % 24;
}

/** Python's `datetime.isoformat()` of an instant shown at a UTC offset (minutes), microseconds kept. */
export function pyIsoFormat(ms: number, offsetMinutes: number, micros = 0): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const fraction = micros > 0 ? `.${String(micros).padStart(6, "0")}` : "";
  return `${local}${fraction}${zone}`;
}
