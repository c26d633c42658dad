/**
 * The rate budget across runs (issue 12 item 7). A CI job runs `plan` then `apply` within a minute;
 * the service counts both processes' requests against one key, so the second must start from what
 * the first spent. The client reads this file when it starts (seeding its budgets) and writes it
 * back on `close()`.
 *
 * One file per host and key, named by a hash: `rate-budget-<id>.json`, where `<id>` is the first
 * 16 hex digits of sha256("posthog-gitops rate budget\n" + host + "\n" + key). The key itself is
 * never stored; the prefix keeps the hash from matching the plain sha256 of the key that the
 * service stores. Contents (times are the clock's epoch milliseconds, comparable across processes):
 *
 *   { "format": "posthog-gitops/rate-budget", "version": 1, "id": "<id>",
 *     "budgets": { "general": { "answers": [1763640000123, ...], "paused_until": 0 },
 *                  "events":  { "answers": [], "paused_until": 0 } } }
 *
 * `answers` are the times answers arrived, kept while inside the budget's longest window (an hour by
 * default); `paused_until` is a pause a 429 asked for (at most MAX_RETRY_AFTER_MS ahead is believed).
 *
 * Never an error: a file that is missing, unreadable, too large, not a plain file, corrupt or for
 * another host or key is ignored; a directory that cannot be written is ignored. Writes are atomic
 * (a temporary file with mode 0600, then a rename). Two processes writing at once are merged: for
 * each time, the larger number of answers of the file and of this run is kept, so a run that
 * started from the file does not count the file's answers twice. Answers of two processes in the
 * same millisecond may then be counted once; the service's own 429 and Retry-After cover that rest.
 */
import { createHash, randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { MAX_RETRY_AFTER_MS } from "./outcome.js";

const FORMAT = "posthog-gitops/rate-budget";
const VERSION = 1;
/** Twice what 4,800 + 1,200 answers take; anything larger is not ours. */
const MAX_FILE_BYTES = 1_000_000;
const MAX_ANSWERS = 50_000;

export type BudgetName = "general" | "events";

export interface SavedBudget {
  answers: number[];
  pausedUntil: number;
}

export type SavedBudgets = Record<BudgetName, SavedBudget>;

const NAMES: BudgetName[] = ["general", "events"];

/** The hash naming a host's and key's file (16 hex digits); never the key. */
export function budgetFileId(host: string, apiKey: string): string {
  return createHash("sha256")
    .update(`posthog-gitops rate budget\n${host}\n${apiKey}`)
    .digest("hex")
    .slice(0, 16);
}

/** The saved budgets, or undefined when there is nothing usable. Never throws. */
export function readBudgetFile(path: string, id: string, now: number): SavedBudgets | undefined {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    return parse(JSON.parse(readFileSync(path, "utf8")), id, now);
  } catch {
    return undefined;
  }
}

function parse(value: unknown, id: string, now: number): SavedBudgets | undefined {
  const file = value as { format?: unknown; version?: unknown; id?: unknown; budgets?: unknown };
  if (typeof file !== "object" || file === null) return undefined;
  if (file.format !== FORMAT || file.version !== VERSION || file.id !== id) return undefined;
  const budgets = file.budgets as Record<string, { answers?: unknown; paused_until?: unknown }> | undefined;
  if (typeof budgets !== "object" || budgets === null) return undefined;
  const out = {} as SavedBudgets;
  for (const name of NAMES) {
    const saved = budgets[name] ?? { answers: [], paused_until: 0 };
    const { answers, paused_until: paused } = saved;
    if (!Array.isArray(answers) || answers.length > MAX_ANSWERS) return undefined;
    if (!answers.every((t) => typeof t === "number" && Number.isFinite(t))) return undefined;
    if (typeof paused !== "number" || !Number.isFinite(paused)) return undefined;
    out[name] = { answers: answers as number[], pausedUntil: Math.min(paused, now + MAX_RETRY_AFTER_MS) };
  }
  return out;
}

/**
 * Writes this run's budgets, merged with what the file holds now (another process may have written
 * since this one started). `horizons` says how far back each budget's answers matter. Never throws.
 */
export function writeBudgetFile(
  path: string,
  id: string,
  now: number,
  ours: SavedBudgets,
  horizons: Record<BudgetName, number>,
): void {
  const theirs = readBudgetFile(path, id, now);
  const budgets: Record<string, { answers: number[]; paused_until: number }> = {};
  for (const name of NAMES) {
    const since = now - horizons[name];
    const answers = merge(theirs?.[name].answers ?? [], ours[name].answers)
      .filter((t) => t > since)
      .slice(-MAX_ANSWERS);
    const paused = Math.max(theirs?.[name].pausedUntil ?? 0, ours[name].pausedUntil);
    budgets[name] = { answers, paused_until: paused > now ? paused : 0 };
  }
  const text = JSON.stringify({ format: FORMAT, version: VERSION, id, budgets });
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // A directory we cannot write to: nothing was left behind either.
    }
  }
}

/** Both lists as one sorted multiset, each time as often as the list that has it more often. */
function merge(a: readonly number[], b: readonly number[]): number[] {
  const count = (list: readonly number[]) => {
    const counts = new Map<number, number>();
    for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
    return counts;
  };
  const ca = count(a);
  const cb = count(b);
  const out: number[] = [];
  for (const t of new Set([...ca.keys(), ...cb.keys()])) {
    const n = Math.max(ca.get(t) ?? 0, cb.get(t) ?? 0);
    for (let i = 0; i < n; i++) out.push(t);
  }
  return out.sort((x, y) => x - y);
}
