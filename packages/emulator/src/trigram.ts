/**
 * PostgreSQL's pg_trgm as the service's list searches use it (posthog/helpers/trigram_search.py,
 * `apply_trigram_search`): a text's trigrams are those of each of its words (runs of letters and
 * digits, lowercased), each word padded with two spaces before and one after. `similarity` is the
 * share of trigrams two texts have in common (of all the trigrams of either); `wordSimilarity(a, b)`
 * is the greatest similarity between the trigrams of `a` and a continuous extent of the ordered
 * trigrams of `b`, which is how a search term matches a word or a prefix inside a longer name.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** The ordered trigrams of a text, word by word (a word's repeats kept: extents count positions). */
export function trigramSequence(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const padded = `  ${match[0]} `;
    const chars = [...padded];
    for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(""));
  }
  return out;
}

export function trigrams(text: string): Set<string> {
  return new Set(trigramSequence(text));
}

/** `similarity(a, b)`: common trigrams over all trigrams of either text (0 when neither has any). */
export function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  const all = ta.size + tb.size - common;
  return all === 0 ? 0 : common / all;
}

/**
 * `word_similarity(a, b)`: over the extents of `b`'s trigram sequence that end on a trigram of `a`,
 * the greatest common / (trigrams of `a` + distinct trigrams of the extent - common).
 */
export function wordSimilarity(a: string, b: string): number {
  const wanted = trigrams(a);
  if (wanted.size === 0) return 0;
  const sequence = trigramSequence(b);
  if (!sequence.some((t) => wanted.has(t))) return 0;
  let best = 0;
  for (let lower = 0; lower < sequence.length; lower++) {
    const seen = new Set<string>();
    let common = 0;
    for (let upper = lower; upper < sequence.length; upper++) {
      const t = sequence[upper] as string;
      if (!seen.has(t)) {
        seen.add(t);
        if (wanted.has(t)) common++;
      }
      if (!wanted.has(t)) continue;
      const score = common / (wanted.size + seen.size - common);
      if (score > best) best = score;
    }
  }
  return best;
}

/** One field a list search scores (`TrigramSearchField`). */
export interface SearchField<T> {
  value: (item: T) => string | null;
  weight: number;
  threshold: number;
  /** Adds the full-text similarity to the score (an exact name outranks one containing the word). */
  includeFull: boolean;
}

export const MIN_NAME_TRIGRAM_SIMILARITY = 0.3;
export const MIN_DESCRIPTION_TRIGRAM_SIMILARITY = 0.4;
export const DESCRIPTION_SCORE_WEIGHT = 0.5;

export interface SearchHit<T> {
  item: T;
  score: number;
  exact: boolean;
}

/**
 * `apply_trigram_search`: rows containing the term in a field (or, with `tags`, in a tag) are exact
 * matches, rows whose word similarity passes a field's threshold (strictly) similar ones; both are
 * returned, exact ones first (test_insight.py's
 * `test_list_filter_by_search_returns_union_exact_first_with_match_type`, newest stored revision; one
 * revision of the helper drops the similar rows whenever an exact one exists). Within each, the caller
 * ranks by the score (each field's weighted word similarity, plus the full similarity where asked).
 */
export function trigramSearch<T>(
  items: readonly T[],
  term: string,
  fields: readonly SearchField<T>[],
  tags?: (item: T) => readonly string[],
): SearchHit<T>[] {
  const needle = term.toLowerCase();
  const scored = items.map((item) => {
    let score = 0;
    let similar = false;
    let exact = false;
    for (const f of fields) {
      const value = f.value(item) ?? "";
      const word = wordSimilarity(term, value);
      score += word * f.weight + (f.includeFull ? similarity(value, term) : 0);
      if (word > f.threshold) similar = true;
      if (value.toLowerCase().includes(needle)) exact = true;
    }
    if (tags?.(item).some((t) => t.toLowerCase().includes(needle))) exact = true;
    return { item, score, exact, similar };
  });
  return scored.filter((s) => s.exact || s.similar).map(({ item, score, exact }) => ({ item, score, exact }));
}
