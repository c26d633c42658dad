/**
 * Time parameters as the service reads them (posthog/utils.py, relative_date_parse): ISO 8601 (a naive
 * value is UTC here; the service reads it in the project's timezone) or relative to now, always into the
 * past whatever the sign (`-7d`, `3h`, `+2w`), with the service's units: h hours, d days, w weeks,
 * m months, q quarters, y years, M minutes (note the case of m and M). Months are 30 days here. Returns
 * epoch ms, or undefined when unparsable (the runs and events routes answer 400 then; the service
 * falls back to now).
 */
const UNIT_MS: Record<string, number> = {
  M: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  m: 30 * 86_400_000,
  q: 91 * 86_400_000,
  y: 365 * 86_400_000,
};

export function parseTime(text: string, now: number): number | undefined {
  const value = text.trim();
  if (value === "now") return now;
  const relative = /^[-+]?(\d+)([Mhdwmqy])$/.exec(value);
  if (relative) return now - Number(relative[1]) * (UNIT_MS[relative[2] ?? "d"] ?? 0);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) || value.length === 10 ? value : `${value}Z`;
  const ms = Date.parse(zoned.replace(" ", "T"));
  return Number.isNaN(ms) ? undefined : ms;
}

/** `2026-01-02T03:04:05.678000+00:00`: the service's event timestamp form. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

export const INTERVAL_MS: Record<string, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  "every 5 minutes": 300_000,
  "every 15 minutes": 900_000,
};
