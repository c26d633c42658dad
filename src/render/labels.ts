/**
 * Words, symbols and value formatting shared by every human-readable renderer, so text, markdown and
 * annotations name the same action the same way. Pure functions of plan data.
 *
 * Secret rule: a `SecretRef`, wherever it sits in a value, prints as `(secret from $NAME)`; a change
 * marked `secret: true` never prints its `before`/`after` values, whatever they hold. A `SecretValue` that
 * reached a plan by mistake prints its own description, never its value.
 */
import { SecretValue } from "../config/secret.js";
import type { SourceRef } from "../config/types.js";
import { isSecretRef } from "../plan/secrets.js";
import type { Action, ActionKind, FieldChange, ObjectRef, SecretRef } from "../plan/types.js";
import { ACTION_KINDS } from "../plan/types.js";
import type { Vocabulary } from "./kinds.js";

/** Symbols in the terraform style; destructive actions read as `-` or `⏸`. */
export const ACTION_SYMBOL: Record<ActionKind, string> = {
  create: "+",
  update: "~",
  soft_delete: "-",
  delete: "-",
  restore: "↺",
  pause: "⏸",
  unpause: "▶",
  add_collaborator: "+",
  remove_collaborator: "-",
  enable_sharing: "+",
  disable_sharing: "-",
};

/** Plain words for an action, used as its label everywhere. */
export const ACTION_WORDS: Record<ActionKind, string> = {
  create: "create",
  update: "update",
  soft_delete: "soft delete",
  delete: "delete",
  restore: "restore",
  pause: "pause",
  unpause: "unpause",
  add_collaborator: "add collaborator",
  remove_collaborator: "remove collaborator",
  enable_sharing: "sharing on",
  disable_sharing: "sharing off",
};

/** Phrases of the summary sentence, e.g. `2 to create`. */
const SUMMARY_PHRASE: Record<ActionKind, (n: number) => string> = {
  create: (n) => `${n} to create`,
  restore: (n) => `${n} to restore`,
  update: (n) => `${n} to update`,
  remove_collaborator: (n) => `${n} ${plural(n, "collaborator")} to remove`,
  add_collaborator: (n) => `${n} ${plural(n, "collaborator")} to add`,
  enable_sharing: (n) => `${n} to share`,
  disable_sharing: (n) => `${n} to stop sharing`,
  pause: (n) => `${n} to pause`,
  unpause: (n) => `${n} to unpause`,
  soft_delete: (n) => `${n} to soft-delete`,
  delete: (n) => `${n} to delete`,
};

export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/** Count per action kind, in the canonical action order; kinds absent from the plan are left out. */
export function actionCounts(actions: readonly Action[]): Array<[ActionKind, number]> {
  const counts = new Map<ActionKind, number>();
  for (const a of actions) counts.set(a.action, (counts.get(a.action) ?? 0) + 1);
  return ACTION_KINDS.filter((k) => counts.has(k)).map((k) => [k, counts.get(k) ?? 0]);
}

/** `Plan: 2 to create, 3 to update, 1 to delete.` */
export function summarySentence(actions: readonly Action[]): string {
  const parts = actionCounts(actions).map(([kind, n]) => SUMMARY_PHRASE[kind](n));
  return `Plan: ${parts.join(", ")}.`;
}

/** A secret in either form: a plan's `SecretRef`, or a config `SecretValue` that should not be here. */
function isSecret(value: unknown): value is SecretRef | SecretValue {
  return value instanceof SecretValue || isSecretRef(value);
}

export function secretText(ref: SecretRef | SecretValue | undefined): string {
  if (ref instanceof SecretValue) return ref.describe();
  const names = (ref?.variables ?? []).filter((v): v is string => typeof v === "string");
  return names.length === 0 ? "(secret)" : `(secret from ${names.map((n) => `$${n}`).join(", ")})`;
}

/** A value as one line of JSON, with every nested SecretRef replaced by its description. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "(none)";
  if (isSecret(value)) return secretText(value);
  return JSON.stringify(value, (_key, v: unknown) => (isSecretRef(v) ? secretText(v) : v)) ?? "(none)";
}

/**
 * The two sides of a change, formatted. A secret change has only its source; a field shown for a create
 * (or newly set) has no `before`.
 */
export type ChangeSides = { secret: string } | { before?: string; after: string };

export function changeSides(change: FieldChange, created: boolean): ChangeSides {
  if (change.secret === true || isSecret(change.after) || isSecret(change.before)) {
    return { secret: isSecret(change.after) ? secretText(change.after) : "(secret)" };
  }
  const after = formatValue(change.after);
  return created ? { after } : { before: formatValue(change.before), after };
}

/** A change as one line: `before → after`, the bare value for a create, or the secret's source. */
export function changeText(change: FieldChange, created: boolean): string {
  const sides = changeSides(change, created);
  if ("secret" in sides) return sides.secret;
  return sides.before === undefined ? sides.after : `${sides.before} → ${sides.after}`;
}

/**
 * The fields of a create's body as dotted paths, for actions whose planner gave no field changes.
 * Objects are walked; arrays and SecretRefs are leaves.
 */
export function flattenFields(value: Record<string, unknown>, prefix = ""): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [key, v] of Object.entries(value)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (typeof v === "object" && v !== null && !Array.isArray(v) && !isSecret(v)) {
      out.push(...flattenFields(v as Record<string, unknown>, path));
    } else {
      out.push({ path, after: v, ...(isSecret(v) ? { secret: true } : {}) });
    }
  }
  return out;
}

/** The changes to show under an action: the planner's, or for a create without them, its body. */
export function shownChanges(action: Action): FieldChange[] {
  if (action.changes.length > 0) return action.changes;
  if (action.action === "create" && action.after !== undefined) return flattenFields(action.after);
  return [];
}

/** The hunks of a unified diff, without the `Index:`/`===`/`---`/`+++` file header lines. */
export function diffHunks(diff: string): string[] {
  const lines = diff.replace(/\n$/, "").split("\n");
  const start = lines.findIndex((l) => l.startsWith("@@"));
  return start < 0 ? lines : lines.slice(start);
}

/** Control characters (ANSI escapes included) made visible, so user text cannot drive a terminal. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

export function sourceText(source: SourceRef | undefined): string {
  return source === undefined ? "not declared in any file" : `${source.file}:${source.line}`;
}

/** `dashboard "Weekly KPIs" (id 42)`; the name is quoted as JSON so control characters stay visible. */
export function objectLabel(ref: ObjectRef, vocab: Vocabulary): string {
  const id = ref.id === undefined ? "" : ` (id ${ref.id})`;
  return `${vocab.words(ref.kind).one} ${JSON.stringify(ref.name)}${id}`;
}

/** What the action does, as one line of prose (used in annotations and the destructive list). */
export function actionSentence(action: Action, vocab: Vocabulary): string {
  const target = `${objectLabel(action.object, vocab)} in project ${action.object.project}`;
  switch (action.action) {
    case "add_collaborator":
      return `add collaborator ${String(action.after?.user_uuid ?? "?")} to ${target}`;
    case "remove_collaborator":
      return `remove collaborator ${String(action.before?.user_uuid ?? "?")} from ${target}`;
    case "enable_sharing":
      return `turn sharing on for ${target}`;
    case "disable_sharing":
      return `turn sharing off for ${target}`;
    default:
      return `${ACTION_WORDS[action.action]} ${target}`;
  }
}
