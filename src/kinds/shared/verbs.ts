/**
 * The verbs several kinds share (SPEC §3): how they plan, show and send is the same for every kind; the
 * request that carries them out is the kind's (`{ ...SOFT_DELETE, send }`). A kind's own verbs
 * (pause, add_collaborator, …) are declared in its folder the same way.
 */
import { resolveSecrets } from "../../plan/secrets.js";
import { isPlainObject } from "../../plan/values.js";
import type { Verb } from "../kind.js";

/**
 * Create and update send their planned `after` with what they `send` besides laid over it (secrets,
 * companions), secrets resolved from the environment at that moment.
 */
const planned: Verb["body"] = (action, env, owner) =>
  resolveSecrets(deepMerge(action.after ?? {}, action.sends ?? {}), env, owner);

/** `over` laid over `base`, mapping into mapping (a `sends` over an `after`). */
export function deepMerge(
  base: Readonly<Record<string, unknown>>,
  over: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const here = out[key];
    out[key] = isPlainObject(here) && isPlainObject(value) ? deepMerge(here, value) : value;
  }
  return out;
}

export const CREATE = {
  name: "create",
  object: true,
  symbol: "+",
  word: "create",
  phrase: (n: number) => `${n} to create`,
  step: 0,
  destructive: false,
  sides: { before: "absent", after: "required" },
  absentBefore: true,
  shared: true,
  body: planned,
} as const satisfies Verb;

export const UPDATE = {
  name: "update",
  symbol: "~",
  word: "update",
  phrase: (n: number) => `${n} to update`,
  step: 1,
  destructive: false,
  sides: { before: "required", after: "required" },
  shared: true,
  body: planned,
  // The declared fields whose live values differ (secrets are never written back).
  refreshes: (action) => action.changes.filter((c) => !c.secret).map((c) => c.path.split(".")),
} as const satisfies Verb;

/** PATCH `deleted: true` (dashboards, insights, flags: DELETE answers 405). */
export const SOFT_DELETE = {
  name: "soft_delete",
  object: true,
  symbol: "-",
  word: "soft delete",
  phrase: (n: number) => `${n} to soft-delete`,
  step: 6,
  destructive: true,
  sides: { before: "required", after: "absent" },
  deletes: true,
  shared: true,
  body: () => ({ deleted: true }),
} as const satisfies Verb;

/** A pinned, soft-deleted object declared again: exactly `{"deleted": false}`. */
export const RESTORE = {
  name: "restore",
  object: true,
  symbol: "↺",
  word: "restore",
  phrase: (n: number) => `${n} to restore`,
  step: 0,
  destructive: false,
  sides: { before: "required", after: "required" },
  absentBefore: true,
  shared: true,
  body: () => ({ deleted: false }),
} as const satisfies Verb;

/** DELETE (batch exports). */
export const DELETE = {
  name: "delete",
  object: true,
  symbol: "-",
  word: "delete",
  phrase: (n: number) => `${n} to delete`,
  step: 6,
  destructive: true,
  sides: { before: "required", after: "absent" },
  deletes: true,
  shared: true,
} as const satisfies Verb;
