/**
 * Words, symbols and value formatting shared by every human-readable output, so the text plan, the
 * markdown plan, annotations and apply's result lines name the same action the same way (one label
 * table: ACTION_SYMBOL and ACTION_WORDS). JSON keeps the stable action names. Pure functions of plan data.
 *
 * Secret rule: a `SecretRef`, wherever it sits in a value, prints as `(secret from $NAME)`; a change
 * marked `secret: true` never prints its `before`/`after` values, whatever they hold. A `SecretValue` that
 * reached a plan by mistake prints its own description, never its value.
 *
 * The text these helpers return is raw: each output escapes it for its own medium (`visible` for a
 * terminal, `escapeInline` for markdown, `escapeData` for annotations).
 */
import { SecretValue } from "../config/secret.js";
import type { SourceRef } from "../config/types.js";
import { isSecretRef } from "../plan/secrets.js";
import type { Action, ActionKind, FieldChange, ObjectRef, Person, Plan, SecretRef } from "../plan/types.js";
import { ACTION_KINDS } from "../plan/types.js";
import { flat, visible } from "../text.js";
import { count, plural } from "../words.js";
import type { Vocabulary } from "./kinds.js";
import { humanTime } from "./time.js";

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

/** A collaborator's access, in the words the YAML uses. */
export const COLLABORATOR_LEVEL: Readonly<Record<number, string>> = { 21: "can_view", 37: "can_edit" };

/** Users by UUID, as a plan names them (`Plan.people`). */
export type People = Readonly<Record<string, Person>> | undefined;

/**
 * A user as people read them: `Ana Lima <ana@acme.com>`, the email or the name alone when that is all
 * the service said, the UUID only when the user is unknown.
 */
export function personText(uuid: string, people: People): string {
  const key = uuid.toLowerCase();
  const person = people !== undefined && Object.hasOwn(people, key) ? people[key] : undefined;
  const name = flat(person?.name ?? "");
  const email = flat(person?.email ?? "");
  if (name !== "" && email !== "") return `${name} <${email}>`;
  return email || name || flat(uuid);
}

/** The collaborator a collaborator action names: who (raw), whether they are known, and their access. */
export interface CollaboratorText {
  who: string;
  /** False when only the UUID is known. */
  known: boolean;
  /** `can_edit`, `can_view`, or `level N` for a level without a word; absent when not given. */
  access?: string;
}

export function collaboratorText(action: Action, people: People): CollaboratorText | undefined {
  if (action.action !== "add_collaborator" && action.action !== "remove_collaborator") return undefined;
  const side = action.action === "add_collaborator" ? action.after : action.before;
  const uuid = typeof side?.user_uuid === "string" ? side.user_uuid : "?";
  const who = personText(uuid, people);
  const level = typeof side?.level === "number" ? side.level : undefined;
  const text: CollaboratorText = { who, known: who !== flat(uuid) };
  if (level !== undefined) text.access = COLLABORATOR_LEVEL[level] ?? `level ${level}`;
  return text;
}

/**
 * What an action does beyond its label, raw: the collaborator and their access for collaborator
 * actions, the backfill of an unpause; "" for the others.
 */
export function actionDetail(action: Action, people: People): string {
  const collaborator = collaboratorText(action, people);
  if (collaborator !== undefined) {
    return collaborator.access === undefined
      ? collaborator.who
      : `${collaborator.who} (${collaborator.access})`;
  }
  return action.action === "unpause" && action.after?.backfill === true
    ? "(with backfill of the paused gap)"
    : "";
}

/** The action's label and detail, raw: `add collaborator Ana Lima <ana@acme.com> (can_edit)`. */
export function actionLabel(action: Action, people: People): string {
  const detail = actionDetail(action, people);
  return detail === "" ? ACTION_WORDS[action.action] : `${ACTION_WORDS[action.action]} ${detail}`;
}

/** `dashboard "Weekly KPIs" (id 42) in project 12345`; `id` overrides the plan's (a create's new id). */
export function objectInProject(ref: ObjectRef, vocab: Vocabulary, id?: number | string): string {
  const withId: ObjectRef = id === undefined ? ref : { ...ref, id };
  return `${objectLabel(withId, vocab)} in project ${ref.project}`;
}

/** The words a drifted object's heading carries. */
export const DRIFT_WORDS = "changed outside posthog-gitops";

/**
 * When and by whom the service last saw a drifted object modified, raw, or "" when it does not say:
 * `last modified 2026-11-20T10:00:00Z (2h ago) by Ana Lima <ana@acme.com>` (relative to the plan's time).
 */
export function modifiedText(
  action: Pick<Action, "modified">,
  plan: Pick<Plan, "created_at" | "people">,
): string {
  const modified = action.modified;
  if (modified === undefined || (modified.at === undefined && modified.by === undefined)) return "";
  const at = modified.at === undefined ? "" : ` ${flat(humanTime(modified.at, plan.created_at))}`;
  const by = modified.by === undefined ? "" : ` by ${personText(modified.by, plan.people)}`;
  return `last modified${at}${by}`;
}

/** The number of distinct objects with drifted actions. */
export function driftedObjects(actions: readonly Action[]): number {
  const keys = new Set<string>();
  for (const a of actions) {
    if (a.drift === true)
      keys.add(`${a.object.project}/${a.object.kind}/${a.object.name}/${a.object.id ?? ""}`);
  }
  return keys.size;
}

/** `2 objects changed outside posthog-gitops: their declarations are the same at main.` */
export function driftSentence(plan: Pick<Plan, "actions" | "base">): string {
  const n = driftedObjects(plan.actions);
  const their = n === 1 ? "its declaration is" : "their declarations are";
  const base = plan.base === undefined ? "" : ` at ${plan.base}`;
  return `${count(n, "object")} ${DRIFT_WORDS}: ${their} the same${base} and in the working tree, so applying reverts ${n === 1 ? "that live edit" : "those live edits"}.`;
}

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

/** Count per action kind, in the canonical action order; kinds absent from the plan are left out. */
export function actionCounts(actions: readonly Action[]): Array<[ActionKind, number]> {
  const counts = new Map<ActionKind, number>();
  for (const a of actions) counts.set(a.action, (counts.get(a.action) ?? 0) + 1);
  return ACTION_KINDS.filter((k) => counts.has(k)).map((k) => [k, counts.get(k) ?? 0]);
}

/** The summary's phrases, each with whether its actions are destructive: `2 to create`, `1 to delete`. */
export function summaryPhrases(actions: readonly Action[]): Array<{ text: string; destructive: boolean }> {
  return actionCounts(actions).map(([kind, n]) => ({
    text: SUMMARY_PHRASE[kind](n),
    destructive: actions.some((a) => a.action === kind && a.destructive),
  }));
}

/** `Plan: 2 to create, 3 to update, 1 to delete.` */
export function summarySentence(actions: readonly Action[]): string {
  return `Plan: ${summaryPhrases(actions)
    .map((p) => p.text)
    .join(", ")}.`;
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

/** A field's value in a kind's words when it has one (`restriction_level` 37 → `only_collaborators`). */
export type ValueWord = (path: string, value: unknown) => string | undefined;

const noWords: ValueWord = () => undefined;

/** The value words of one kind, for `changeSides`. */
export function valueWords(vocab: Vocabulary, kind: string): ValueWord {
  return (path, value) => vocab.value(kind, path, value);
}

export function changeSides(change: FieldChange, created: boolean, words: ValueWord = noWords): ChangeSides {
  if (change.secret === true || isSecret(change.after) || isSecret(change.before)) {
    return { secret: isSecret(change.after) ? secretText(change.after) : "(secret)" };
  }
  const shown = (value: unknown) => words(change.path, value) ?? formatValue(value);
  const after = shown(change.after);
  return created ? { after } : { before: shown(change.before), after };
}

/** A change as one line: `before → after`, the bare value for a create, or the secret's source. */
export function changeText(change: FieldChange, created: boolean, words: ValueWord = noWords): string {
  const sides = changeSides(change, created, words);
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

export function sourceText(source: SourceRef | undefined): string {
  return source === undefined ? "not declared in any file" : `${source.file}:${source.line}`;
}

/** `dashboard "Weekly KPIs" (id 42)`; the name is quoted as JSON so control characters stay visible. */
export function objectLabel(ref: ObjectRef, vocab: Vocabulary): string {
  const id = ref.id === undefined ? "" : ` (id ${ref.id})`;
  return `${vocab.words(ref.kind).one} ${visible(JSON.stringify(ref.name))}${id}`;
}
