/**
 * Checks of command-line values that commander leaves as strings: counts, formats, run statuses and
 * log levels. Every refusal is a UserError naming the option and what it accepts.
 */
import { UserError } from "../errors.js";
import { type LogLevel, RUN_STATUSES, type RunStatus } from "../kinds/batch-export/operations/index.js";

export function parseLimit(
  raw: string | number | undefined,
  flag: string,
  fallback: number,
  max: number,
): number {
  if (raw === undefined || raw === "") return fallback;
  const text = String(raw).trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > max) {
    throw new UserError(`${flag} must be a whole number from 1 to ${max}, got "${text}"`);
  }
  return n;
}

export function parseFormat<F extends string>(
  raw: string | undefined,
  allowed: readonly F[],
  fallback: F,
): F {
  if (raw === undefined) return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as F;
  throw new UserError(`--format must be one of ${allowed.join(", ")}, got "${raw}"`);
}

const LOG_LEVELS: readonly LogLevel[] = ["DEBUG", "LOG", "INFO", "WARNING", "ERROR"];

/** `failed,completed` → ["Failed", "Completed"] (any case, comma-separated or repeated). */
export function parseStatuses(raw: string | readonly string[] | undefined): RunStatus[] {
  return splitList(raw).map((s) => {
    const hit = RUN_STATUSES.find((r) => r.toLowerCase() === s.toLowerCase());
    if (!hit) throw new UserError(`--status ${s} is not a run status: use one of ${RUN_STATUSES.join(", ")}`);
    return hit;
  });
}

/** `error,warning` → ["ERROR", "WARNING"]. */
export function parseLevels(raw: string | readonly string[] | undefined): LogLevel[] {
  return splitList(raw).map((l) => {
    const hit = LOG_LEVELS.find((level) => level === l.toUpperCase());
    if (!hit) throw new UserError(`--level ${l} is not a log level: use one of ${LOG_LEVELS.join(", ")}`);
    return hit;
  });
}

function splitList(raw: string | readonly string[] | undefined): string[] {
  const parts = raw === undefined ? [] : typeof raw === "string" ? [raw] : raw;
  return [
    ...new Set(
      parts
        .flatMap((p) => p.split(","))
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
}
