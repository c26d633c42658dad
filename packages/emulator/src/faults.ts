/**
 * Injected faults (docs/architecture.md, "The emulator"): latency, a seeded random error rate, ordered
 * rules (status / lose_response / reset, each with optional `times`) and a replacement rate limit.
 * `parseFaults` validates a posted body; `FaultState.decide` picks what happens to one API request.
 */
import { isDict } from "./fields.js";
import type { Window } from "./rate-limit.js";

export interface FaultRule {
  method?: string;
  path?: string;
  status?: number;
  retry_after?: number;
  lose_response?: boolean;
  reset?: boolean;
  times?: number;
}

export interface Faults {
  latency_ms?: number;
  error_rate?: number;
  error_status?: number;
  seed?: number;
  rate_limit?: { requests: number; window_seconds: number };
  rules?: FaultRule[];
}

export type Decision =
  | { kind: "none" }
  | { kind: "status"; status: number; retryAfter: number }
  | { kind: "lose_response" }
  | { kind: "reset" };

function num(
  body: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  integer = false,
): number | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new Error(
      `faults: "${key}" must be a${integer ? "n integer" : " number"} between ${min} and ${max}`,
    );
  }
  return value;
}

export function parseFaults(input: unknown): Faults {
  if (!isDict(input)) throw new Error("faults: the body must be a JSON object");
  const faults: Faults = {};
  const latency = num(input, "latency_ms", 0, 60_000);
  if (latency !== undefined) faults.latency_ms = latency;
  const rate = num(input, "error_rate", 0, 1);
  if (rate !== undefined) faults.error_rate = rate;
  const status = num(input, "error_status", 400, 599, true);
  if (status !== undefined) faults.error_status = status;
  const seed = num(input, "seed", 0, 2 ** 32 - 1, true);
  if (seed !== undefined) faults.seed = seed;
  if (input.rate_limit !== undefined) {
    const rl = input.rate_limit;
    if (!isDict(rl)) throw new Error('faults: "rate_limit" must be {requests, window_seconds}');
    const requests = num(rl, "requests", 1, 1e9, true);
    const window = num(rl, "window_seconds", 0.001, 86_400 * 7);
    if (requests === undefined || window === undefined) {
      throw new Error('faults: "rate_limit" needs "requests" and "window_seconds"');
    }
    faults.rate_limit = { requests, window_seconds: window };
  }
  if (input.rules !== undefined) {
    if (!Array.isArray(input.rules)) throw new Error('faults: "rules" must be a list');
    faults.rules = input.rules.map((raw, i) => parseRule(raw, i));
  }
  return faults;
}

function parseRule(raw: unknown, index: number): FaultRule {
  if (!isDict(raw)) throw new Error(`faults: rules[${index}] must be an object`);
  const rule: FaultRule = {};
  if (raw.method !== undefined) {
    if (typeof raw.method !== "string") throw new Error(`faults: rules[${index}].method must be a string`);
    rule.method = raw.method.toUpperCase();
  }
  if (raw.path !== undefined) {
    if (typeof raw.path !== "string") throw new Error(`faults: rules[${index}].path must be a string`);
    try {
      new RegExp(raw.path);
    } catch {
      throw new Error(`faults: rules[${index}].path is not a valid regular expression`);
    }
    rule.path = raw.path;
  }
  const status = num(raw, "status", 100, 599, true);
  if (status !== undefined) rule.status = status;
  const retryAfter = num(raw, "retry_after", 0, 86_400, true);
  if (retryAfter !== undefined) rule.retry_after = retryAfter;
  const times = num(raw, "times", 0, 1e9, true);
  if (times !== undefined) rule.times = times;
  if (raw.lose_response === true) rule.lose_response = true;
  if (raw.reset === true) rule.reset = true;
  if (rule.status === undefined && !rule.lose_response && !rule.reset) {
    throw new Error(`faults: rules[${index}] needs one of "status", "lose_response" or "reset"`);
  }
  return rule;
}

/** Deterministic PRNG (mulberry32) so a seeded error rate picks the same requests on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultState {
  private random: () => number;
  private used: number[] = [];
  private regexes: Array<RegExp | undefined> = [];

  constructor(readonly faults: Faults) {
    this.random = mulberry32(faults.seed ?? 0);
    this.regexes = (faults.rules ?? []).map((r) => (r.path === undefined ? undefined : new RegExp(r.path)));
    this.used = (faults.rules ?? []).map(() => 0);
  }

  get latencyMs(): number {
    return this.faults.latency_ms ?? 0;
  }

  /** The replacement per-key limit, if any. */
  get rateLimit(): Window[] | undefined {
    const rl = this.faults.rate_limit;
    return rl ? [{ requests: rl.requests, windowMs: rl.window_seconds * 1000 }] : undefined;
  }

  decide(method: string, path: string): Decision {
    const rules = this.faults.rules ?? [];
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i] as FaultRule;
      if (rule.method !== undefined && rule.method !== method) continue;
      if (!(this.regexes[i]?.test(path) ?? true)) continue;
      if (rule.times !== undefined && (this.used[i] ?? 0) >= rule.times) continue;
      this.used[i] = (this.used[i] ?? 0) + 1;
      if (rule.reset) return { kind: "reset" };
      if (rule.lose_response) return { kind: "lose_response" };
      return { kind: "status", status: rule.status ?? 500, retryAfter: rule.retry_after ?? 1 };
    }
    const rate = this.faults.error_rate ?? 0;
    if (rate > 0 && this.random() < rate) {
      return { kind: "status", status: this.faults.error_status ?? 502, retryAfter: 1 };
    }
    return { kind: "none" };
  }
}
