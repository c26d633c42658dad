/**
 * Per-key throttling like the service's DRF throttles: each window keeps the timestamps of the requests
 * it let through; a request is refused when a window is full, with a wait of the time until the oldest
 * entry leaves it (rounded up, at least 1 s). Refused requests are not counted.
 */

export interface Window {
  requests: number;
  windowMs: number;
}

export type Bucket = "default" | "events";

export const DEFAULT_LIMITS: Record<Bucket, Window[]> = {
  default: [
    { requests: 480, windowMs: 60_000 },
    { requests: 4800, windowMs: 3_600_000 },
  ],
  events: [
    { requests: 240, windowMs: 60_000 },
    { requests: 1200, windowMs: 3_600_000 },
  ],
};

const UNITS: Record<string, number> = {
  s: 1000,
  second: 1000,
  m: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

/** Parses `480/minute,4800/hour` (units second|minute|hour|day or s|m|h|d); `none` or `off` → no limit. */
export function parseRateLimit(spec: string): Window[] {
  if (/^(none|off|0)$/i.test(spec.trim())) return [];
  return spec.split(",").map((part) => {
    const m = /^\s*(\d+)\s*\/\s*(\d*)\s*([a-z]+)\s*$/i.exec(part);
    const unit = m ? UNITS[(m[3] ?? "").toLowerCase()] : undefined;
    if (!m || unit === undefined || Number(m[1]) <= 0) {
      throw new Error(`invalid rate limit "${part.trim()}" (expected e.g. 480/minute,4800/hour)`);
    }
    return { requests: Number(m[1]), windowMs: unit * (m[2] ? Number(m[2]) : 1) };
  });
}

export class RateLimiter {
  private history = new Map<string, number[]>();

  /** Returns 0 when allowed (and records it), else the wait in whole seconds. */
  check(key: string, bucket: Bucket, windows: Window[], now: number): number {
    let wait = 0;
    const lists: number[][] = [];
    windows.forEach((w, i) => {
      const id = `${bucket}\u0000${i}\u0000${w.requests}/${w.windowMs}\u0000${key}`;
      let list = this.history.get(id);
      if (!list) {
        list = [];
        this.history.set(id, list);
      }
      while (list.length > 0 && (list[0] ?? 0) <= now - w.windowMs) list.shift();
      if (list.length >= w.requests) {
        wait = Math.max(wait, Math.max(1, Math.ceil(((list[0] ?? now) + w.windowMs - now) / 1000)));
      }
      lists.push(list);
    });
    if (wait > 0) return wait;
    for (const list of lists) list.push(now);
    return 0;
  }

  clear(): void {
    this.history.clear();
  }
}
