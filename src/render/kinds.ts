/** What the renderers need of a resource kind: its name and the words that name it and its values. */
import type { KindWords } from "../config/kinds.js";

/**
 * Words for a field's coded values, by field path then by the value as JSON: e.g. a dashboard's
 * `{ restriction_level: { "21": "everyone", "37": "only_collaborators" } }`. Human output shows the
 * word; JSON keeps the service's value.
 */
export type ValueWords = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface RenderKind {
  readonly name: string;
  readonly words: KindWords;
  /** Words for coded values of this kind's fields, the same words its YAML accepts. */
  readonly values?: ValueWords;
}

/** How renderers name kinds and order them: from the kinds a plan was made with. */
export interface Vocabulary {
  words(kind: string): KindWords;
  /** A kind's place in outputs (the registry's order; unknown kinds last). */
  order(kind: string): number;
  /** The word for a field's value (`restriction_level` 37 → `only_collaborators`), when the kind has one. */
  value(kind: string, path: string, value: unknown): string | undefined;
}

export function vocabulary(kinds: readonly RenderKind[]): Vocabulary {
  const byName = new Map(kinds.map((k, i) => [k.name, { kind: k, index: i }]));
  return {
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
