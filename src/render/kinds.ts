/** What the renderers need of a resource kind: its name and the words that name it. */
import type { KindWords } from "../config/kinds.js";

export interface RenderKind {
  readonly name: string;
  readonly words: KindWords;
}

/** How renderers name kinds and order them: from the kinds a plan was made with. */
export interface Vocabulary {
  words(kind: string): KindWords;
  /** A kind's place in outputs (the registry's order; unknown kinds last). */
  order(kind: string): number;
}

export function vocabulary(kinds: readonly RenderKind[]): Vocabulary {
  const byName = new Map(kinds.map((k, i) => [k.name, { words: k.words, index: i }]));
  return {
    words: (kind) => byName.get(kind)?.words ?? { one: kind, many: kind },
    order: (kind) => byName.get(kind)?.index ?? kinds.length,
  };
}
