/**
 * Words, symbols and value formatting shared by every human-readable output, so the text plan, the
 * markdown plan, annotations and apply's result lines name the same action the same way: each verb's
 * symbol, word and summary phrase, declared by the kind that plans it (`Vocabulary.verb`). JSON keeps
 * the stable action names. Pure functions of plan data.
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
import { asciiLower, escapeNonAscii, flat, visible } from "../text.js";
import { count } from "../words.js";
import type { Vocabulary } from "./kinds.js";
import { humanTime } from "./time.js";

/** Users by UUID, as a plan names them (`Plan.people`). */
export type People = Readonly<Record<string, Person>> | undefined;

/**
 * A user as people read them: `Ana Lima <ana@acme.com>`, the email or the name alone when that is all
 * the service said, the UUID only when the user is unknown.
 */
export function personText(uuid: string, people: People): string {
  const key = asciiLower(uuid);
  const person = people !== undefined && Object.hasOwn(people, key) ? people[key] : undefined;
  const name = flat(person?.name ?? "");
  // An email is an identifier: any character outside ASCII shows as `\uXXXX`, so a look-alike
  // (a Kelvin sign for a K) cannot pass for the address it imitates.
  const email = escapeNonAscii((person?.email ?? "").trim());
  if (name !== "" && email !== "") return `${name} <${email}>`;
  return email || name || flat(uuid);
}

/** The user an action names (a collaborator): who (raw), whether they are known, and their access. */
export interface UserText {
  who: string;
  /** False when only the UUID is known. */
  known: boolean;
  /** Their access in the YAML's words (`can_edit`); absent when not given. */
  access?: string;
}

/** The user an action's verb says it names, as people read them; undefined when it names none. */
export function userText(action: Action, people: People, vocab: Vocabulary): UserText | undefined {
  const detail = vocab.verb(action.action).detail?.(action);
  if (detail === undefined || !("user" in detail)) return undefined;
  const who = personText(detail.user, people);
  const text: UserText = { who, known: who !== flat(detail.user) };
  if (detail.access !== undefined) text.access = detail.access;
  return text;
}

/**
 * What an action does beyond its label, raw: the user and their access (collaborator actions), or the
 * verb's phrase (the backfill of an unpause); "" for the others.
 */
export function actionDetail(action: Action, people: People, vocab: Vocabulary): string {
  const user = userText(action, people, vocab);
  if (user !== undefined) return user.access === undefined ? user.who : `${user.who} (${user.access})`;
  const detail = vocab.verb(action.action).detail?.(action);
  return detail !== undefined && "text" in detail ? detail.text : "";
}

/** The action's word, e.g. `sharing on`. */
export function actionWord(action: Pick<Action, "action">, vocab: Vocabulary): string {
  return vocab.verb(action.action).word;
}

/** The action's symbol, e.g. `+`. */
export function actionSymbol(action: Pick<Action, "action">, vocab: Vocabulary): string {
  return vocab.verb(action.action).symbol;
}

/**
 * The symbol heading an object's actions: theirs when they all share one, except that `+` and `-` head
 * only an object made or removed (a dashboard that gains a collaborator is `~`, not `+`); else `~`.
 */
export function headSymbol(actions: readonly Pick<Action, "action">[], vocab: Vocabulary): string {
  const symbols = new Set(actions.map((a) => actionSymbol(a, vocab)));
  const [symbol] = symbols;
  if (symbols.size !== 1 || symbol === undefined) return "~";
  // A new dashboard shared at once is still new: one of its actions makes it.
  const whole = actions.some((a) => vocab.verb(a.action).object === true);
  return (symbol === "+" || symbol === "-") && !whole ? "~" : symbol;
}

/** The action's label and detail, raw: `add collaborator Ana Lima <ana@acme.com> (can_edit)`. */
export function actionLabel(action: Action, people: People, vocab: Vocabulary): string {
  const detail = actionDetail(action, people, vocab);
  const word = actionWord(action, vocab);
  return detail === "" ? word : `${word} ${detail}`;
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

/** Count per action kind, in the verbs' order (by step); kinds absent from the plan are left out. */
export function actionCounts(actions: readonly Action[], vocab: Vocabulary): Array<[ActionKind, number]> {
  const counts = new Map<ActionKind, number>();
  for (const a of actions) counts.set(a.action, (counts.get(a.action) ?? 0) + 1);
  const known = vocab.verbs.map((v) => v.name).filter((k) => counts.has(k));
  const unknown = [...counts.keys()].filter((k) => !known.includes(k));
  return [...known, ...unknown].map((k) => [k, counts.get(k) ?? 0]);
}

/** The summary's phrases, each with whether its actions are destructive: `2 to create`, `1 to delete`. */
export function summaryPhrases(
  actions: readonly Action[],
  vocab: Vocabulary,
): Array<{ text: string; destructive: boolean }> {
  return actionCounts(actions, vocab).map(([kind, n]) => ({
    text: vocab.verb(kind).phrase(n),
    destructive: actions.some((a) => a.action === kind && a.destructive),
  }));
}

/** `Plan: 2 to create, 3 to update, 1 to delete.` */
export function summarySentence(actions: readonly Action[], vocab: Vocabulary): string {
  return `Plan: ${summaryPhrases(actions, vocab)
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

/**
 * What an action needs that this same apply creates first (plan data `requires` without an id), in a
 * reviewer's words: `needs cohort "Beta testers" (created in this apply)`; "" when it needs none.
 */
export function createdFirstText(action: Action, vocab: Vocabulary): string {
  const created = (action.requires ?? []).filter((link) => link.id === undefined);
  if (created.length === 0) return "";
  const named = created.map(
    (link) => `${vocab.words(link.kind).one} ${visible(JSON.stringify(link.name))} (created in this apply)`,
  );
  return `needs ${named.join(", ")}`;
}

/** What a plan says after the live objects no file declares (`--undeclared`), in every format. */
export const UNDECLARED_ADVICE =
  "declare them (posthog-gitops pull writes their YAML), list them under ignore:, or delete them with apply --prune";

/** `2 live objects no file declares (created in PostHog?)`. */
export function undeclaredHeading(n: number): string {
  return `${n} live ${n === 1 ? "object" : "objects"} no file declares (created in PostHog?)`;
}
