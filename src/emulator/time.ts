/**
 * Time parameters as the service reads them: ISO 8601 (a naive value is UTC) or relative to now
 * (`-7d`, `-3h`, `-30m`, `-2w`, `-1y`, `-1M`), plus `now`. Returns epoch ms, or undefined when unparsable.
 */
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  M: 30 * 86_400_000,
  y: 365 * 86_400_000,
};

export function parseTime(text: string, now: number): number | undefined {
  const value = text.trim();
  if (value === "now") return now;
  const relative = /^([-+]?)(\d+)([smhdwMy])$/.exec(value);
  if (relative) {
    const ms = Number(relative[2]) * (UNIT_MS[relative[3] ?? "d"] ?? 0);
    return relative[1] === "+" ? now + ms : now - ms;
  }
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
