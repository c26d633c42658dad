/**
 * The registry is the one list of kinds: the CLI's light copy of its keys (src/kinds/keys.ts, loaded
 * by `--help` without any kind) stays equal to it, and every verb name is declared once per meaning.
 */
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/index.js";
import { KIND_KEYS } from "../../src/kinds/keys.js";

describe("the kinds registry", () => {
  it("is what the CLI offers to pull --kind, in its order", () => {
    expect(KIND_KEYS).toEqual(KINDS.map((k) => k.key));
  });

  it("gives each verb name one meaning across kinds (step, sides, symbol, words)", () => {
    const seen = new Map<string, string>();
    for (const verb of KINDS.flatMap((k) => k.verbs)) {
      const meaning = JSON.stringify([
        verb.step,
        verb.sides,
        verb.symbol,
        verb.word,
        verb.phrase(2),
        verb.deletes,
      ]);
      expect(seen.get(verb.name) ?? meaning, verb.name).toBe(meaning);
      seen.set(verb.name, meaning);
    }
  });

  it("refuses in shared files the raw ids each kind's reference declarations allow, besides its pin", () => {
    const ids = Object.fromEntries(KINDS.map((k) => [k.name, k.environments?.projectIds ?? []]));
    expect(ids.dashboard).toContainEqual({ path: "/tiles/*/insight_id" });
    expect(ids.feature_flag).toContainEqual({
      path: "/filters/groups/*/properties/*/value",
      where: { type: "cohort" },
    });
    for (const kind of KINDS) expect(ids[kind.name]?.[0]).toEqual({ path: "/id" });
  });
});
