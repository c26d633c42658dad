/**
 * What the renderers need of a resource kind: its name, the words that name it and its values, and its
 * action verbs' symbols and words.
 */
import type { KindWords } from "../config/kinds.js";
import type { Action } from "../plan/types.js";

/**
 * Words for a field's coded values, by field path then by the value as JSON: e.g. a dashboard's
 * `{ restriction_level: { "21": "everyone", "37": "only_collaborators" } }`. Human output shows the
 * word; JSON keeps the service's value.
 */
export type ValueWords = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** What an action names beyond its verb: a user (by UUID, with their access in YAML words), or a phrase. */
export type VerbDetail = { user: string; access?: string } | { text: string };

/** How every human output shows an action verb. */
export interface RenderVerb {
  readonly name: string;
  /** Terraform-style symbol: `+`, `~`, `-`, `↺`, `⏸`, `▶`. */
  readonly symbol: string;
  /** Its label in plans and apply results, e.g. `add collaborator`. */
  readonly word: string;
  /** Its phrase in the summary sentence, e.g. n → `2 collaborators to add`. */
  readonly phrase: (n: number) => string;
  /** Its place among one object's actions; also the order of the summary's phrases. */
  readonly step: number;
  readonly destructive: boolean | "depends";
  /**
   * The action makes, removes or restores the object itself (create, delete): only such a verb's
   * `+` or `-` may head an object's section; an object that exists before and after (a collaborator
   * added) is headed `~`.
   */
  readonly object?: boolean;
  /** What the action names beyond the verb; absent: nothing. */
  readonly detail?: (action: Action) => VerbDetail | undefined;
}

export interface RenderKind {
  readonly name: string;
  readonly words: KindWords;
  /** Words for coded values of this kind's fields, the same words its YAML accepts. */
  readonly values?: ValueWords;
  readonly verbs: readonly RenderVerb[];
}

/** How renderers name kinds and order them: from the kinds a plan was made with. */
export interface Vocabulary {
  words(kind: string): KindWords;
  /** A kind's place in outputs (the registry's order; unknown kinds last). */
  order(kind: string): number;
  /** The word for a field's value (`restriction_level` 37 → `only_collaborators`), when the kind has one. */
  value(kind: string, path: string, value: unknown): string | undefined;
  /** How an action's verb is shown (a verb no kind declares shows its name). */
  verb(name: string): RenderVerb;
  /** Every verb of the kinds, in summary order (by step, then as the kinds list them). */
  readonly verbs: readonly RenderVerb[];
}

/** Composes the kinds' verbs: one per name (the first kind's), sorted by step, stable. */
export function verbsOf<V extends { readonly name: string; readonly step: number }>(
  kinds: readonly { readonly verbs: readonly V[] }[],
): V[] {
  const byName = new Map<string, V>();
  for (const kind of kinds)
    for (const verb of kind.verbs) if (!byName.has(verb.name)) byName.set(verb.name, verb);
  return [...byName.values()].sort((a, b) => a.step - b.step);
}

export function vocabulary(kinds: readonly RenderKind[]): Vocabulary {
  const byName = new Map(kinds.map((k, i) => [k.name, { kind: k, index: i }]));
  const verbs = verbsOf(kinds);
  const verbByName = new Map(verbs.map((v) => [v.name, v]));
  return {
    verbs,
    verb: (name) =>
      verbByName.get(name) ?? {
        name,
        symbol: "~",
        word: name,
        phrase: (n) => `${n} to ${name}`,
        step: Number.MAX_SAFE_INTEGER,
        destructive: "depends",
      },
    words: (kind) => byName.get(kind)?.kind.words ?? { one: kind, many: kind },
    order: (kind) => byName.get(kind)?.index ?? kinds.length,
    value: (kind, path, value) => {
      const words = byName.get(kind)?.kind.values?.[path];
      if (words === undefined || value === undefined) return undefined;
      const key = JSON.stringify(value);
      return Object.hasOwn(words, key) ? words[key] : undefined;
    },
  };
}
