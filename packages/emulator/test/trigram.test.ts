/**
 * pg_trgm as the emulator's list search uses it: the values PostgreSQL's documentation gives for
 * `similarity` and `word_similarity`, and the exact / similar tiers of `apply_trigram_search`.
 */
import { describe, expect, it } from "vitest";
import { similarity, trigramSearch, trigrams, wordSimilarity } from "../src/trigram.js";

describe("pg_trgm", () => {
  it("takes each word's trigrams, padded with two spaces before and one after, lowercased", () => {
    expect([...trigrams("Cat")].sort()).toEqual(["  c", " ca", "at ", "cat"]);
    expect([...trigrams("foo|bar")].sort()).toEqual(["  b", "  f", " ba", " fo", "ar ", "bar", "foo", "oo "]);
    expect(trigrams("!!").size).toBe(0);
  });

  it("gives PostgreSQL's documented values", () => {
    // https://www.postgresql.org/docs/current/pgtrgm.html: similarity('word', 'two words') = 0.36363637,
    // word_similarity('word', 'two words') = 0.8.
    expect(similarity("word", "two words")).toBeCloseTo(0.3636, 4);
    expect(wordSimilarity("word", "two words")).toBeCloseTo(0.8, 6);
    expect(wordSimilarity("word", "")).toBe(0);
    expect(similarity("Sales", "sales")).toBe(1);
  });

  it("matches a typo by word similarity and a literal substring as exact", () => {
    const names = ["dashboard overview", "dahsboard metrics", "Engineering metrics"];
    const fields = [{ value: (n: string) => n, weight: 1, threshold: 0.3, includeFull: true }];
    const hits = trigramSearch(names, "dashboard", fields).map((h) => [h.item, h.exact]);
    expect(hits).toEqual([
      ["dashboard overview", true],
      ["dahsboard metrics", false],
    ]);
  });
});
