/**
 * Apply order across flags (SPEC §3), as the verbs' `references`: a flag others depend on is created,
 * restored or turned on before them (the service refuses a dependency on a flag that is missing or
 * disabled), and they are turned off, archived or deleted before it (it refuses to disable or delete a
 * flag active flags depend on). An action that brings a flag up refers to the flags it depends on: the
 * filters it writes, and `depends_on`, what the live flag depended on when the plan was made. An action
 * that takes a flag down refers to `dependents`, the live flags that depended on it then. Apply runs an
 * object after the objects its actions refer to, and skips an action when their work failed.
 */
import type { Reference } from "../../apply/kinds.js";
import type { Action } from "../../plan/types.js";
import { flagReferences } from "./dependencies.js";
import { FEATURE_FLAG } from "./name.js";

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

const asReferences = (keys: Iterable<string>): Reference[] =>
  [...new Set(keys)].map((name) => ({ kind: FEATURE_FLAG, name }));

/** Whether the action takes the flag down: turns it off, archives or deletes it. */
export function goesDown(action: Action): boolean {
  return action.action === "archive" || action.action === "soft_delete" || action.after?.active === false;
}

/** Up: the flags it depends on, after the action and before it. */
export function dependencies(action: Action): Reference[] {
  return asReferences([
    ...flagReferences(action.after?.filters).map((r) => r.key),
    ...strings(action.before?.depends_on),
  ]);
}

/** Down: the flags that depended on it when the plan was made. */
export function dependents(action: Action): Reference[] {
  return asReferences(strings(action.before?.dependents));
}

/** An action of either direction (an update may bring a flag up or take it down). */
export function flagOrder(action: Action): Reference[] {
  return goesDown(action) ? dependents(action) : dependencies(action);
}
