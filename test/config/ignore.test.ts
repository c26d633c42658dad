/**
 * Ignore globs (SPEC §8): the small documented syntax matched by an automaton in linear time, anything
 * outside it refused at the glob's position, and no glob or name that makes matching blow up.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkGlob, compileGlob, globMatcher, isIgnored, MAX_GLOB_LENGTH } from "../../src/config/ignore.js";
import { formatDiagnostic } from "../../src/config/index.js";
import { loadConfig } from "../../src/index.js";
import { tree } from "./helpers.js";

describe("ignore glob matching", () => {
  it.each([
    ["Generated *", "Generated 2026", true],
    ["Generated *", "Generated ", true],
    ["Generated *", "generated 2026", false],
    ["Generated *", "Generated", false],
    ["*", "", true],
    ["*", ".hidden/and/slashes", true],
    ["a*b", "ab", true],
    ["a*b", "a/x/b", true],
    ["a*b", "abc", false],
    ["**", "anything", true],
    ["*a*a*a*", "aaa", true],
    ["*a*a*a*", "aa", false],
    ["?", "é", true],
    ["?", "😀", true],
    ["?", "", false],
    ["?", "ab", false],
    ["x?z", "x😀z", true],
    ["[abc]x", "bx", true],
    ["[abc]x", "dx", false],
    ["[a-c]", "b", true],
    ["[!a-c]", "d", true],
    ["[!a-c]", "b", false],
    ["[^a]", "b", true],
    ["[]]", "]", true],
    ["[a-]", "-", true],
    ["[\\]]", "]", true],
    ["\\*", "*", true],
    ["\\*", "a", false],
    ["\\!x", "!x", true],
    // Parentheses and bars are characters: picomatch read them as a regex group, so this glob never
    // matched the dashboard it names.
    ["Revenue (EU) *", "Revenue (EU) weekly", true],
    ["Revenue (EU) *", "Revenue EU weekly", false],
    ["a|b", "a|b", true],
    ["a|b", "a", false],
    ["[Draft] *", "D x", true],
    ["\\[Draft] *", "[Draft] x", true],
  ])("%j against %j is %s", (glob, name, expected) => {
    expect(isIgnored(name, [glob])).toBe(expected);
  });

  it("agrees with a regular expression on small globs and names", () => {
    const piece = fc.constantFrom("a", "b", ".", "/", "*", "?", "[ab]", "[!a]", "[a-b]", "\\*", "(", "|");
    const glob = fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join(""));
    const name = fc.array(fc.constantFrom("a", "b", ".", "/", "*", "(", "|", "😀"), { maxLength: 10 });
    fc.assert(
      fc.property(glob, name, (g, n) => {
        fc.pre(typeof compileGlob(g) !== "string"); // `*(` and `?(` are refused, tested below
        expect(globMatcher([g])(n.join("")), `${g} ${n.join("")}`).toBe(reference(g).test(n.join("")));
      }),
      { numRuns: 2000 },
    );
  });

  it("matches any of several globs, and nothing for none", () => {
    const ignored = globMatcher(["tmp-*", "Scratch ?"]);
    expect(["tmp-1", "Scratch 2", "Scratch 22", "Main"].map(ignored)).toEqual([true, true, false, false]);
    expect(globMatcher([])("anything")).toBe(false);
    expect(() => globMatcher(["[oops"])).toThrow(/never closed/);
  });

  it("matches a long name against many long globs without blowing up", () => {
    // Shapes that make a backtracking matcher explode, at the longest length allowed, against a
    // 20,000-character name: bounded by the test's timeout, nothing here reads the clock.
    const a = "a".repeat(MAX_GLOB_LENGTH - 2);
    const globs: string[] = [];
    for (let i = 0; i < 50; i++) {
      globs.push(
        `*${a}b`,
        `${"*a".repeat((MAX_GLOB_LENGTH - 1) / 2)}b`,
        `${"?*".repeat(MAX_GLOB_LENGTH / 2 - 1)}b`,
      );
      globs.push(`*[a]${"[!b]".repeat(60)}*b`);
    }
    const name = "a".repeat(20_000);
    expect(globMatcher(globs)(name)).toBe(false);
    expect(globMatcher(globs)(`${name}b`)).toBe(true);
  }, 20_000);
});

describe("ignore glob validation", () => {
  it.each([
    ["+(a|aa)+(a|aa)+(a|aa)+(a|aa)b", "extglob patterns like +(…) are not supported (at character 1)"],
    ["*(*(*(a)))b", "extglob patterns like *(…) are not supported (at character 1)"],
    ["Report @(x|y)", "extglob patterns like @(…) are not supported (at character 8)"],
    ["x".repeat(MAX_GLOB_LENGTH + 1), `longer than ${MAX_GLOB_LENGTH} characters`],
    ["{a,b}", "braces are not supported (at character 1)"],
    ["!Keep", "a leading ! (negation) is not supported"],
    ["[[:alpha:]]", "POSIX classes like [:alpha:] are not supported (at character 2)"],
    ["[z-a]", "the range z-a is reversed (at character 4)"],
    ["[abc", "the [ at character 1 is never closed"],
    ["a\\", "a trailing \\ escapes nothing (at character 2)"],
    ["  ", "ignore glob is empty"],
  ])("refuses %j", (glob, reason) => {
    const result = compileGlob(glob);
    expect(typeof result === "string" && result).toContain(reason);
  });

  it("reports each refused glob at its own position, and keeps the good ones", async () => {
    const root = tree({
      "a.yaml": [
        "project: 1",
        "ignore:",
        "  dashboards:",
        '    - "Generated *"',
        "    - +(a|aa)+(a|aa)+(a|aa)b",
        "    - '*(*(*(a)))b'",
        `    - ${"x".repeat(300)}`,
        "  batch_exports: ['{a,b}', tmp-*]",
        "dashboards: []",
        "batch_exports: []",
        "",
      ].join("\n"),
    });
    const result = await loadConfig(["a.yaml"], { env: {}, cwd: root, mode: "validate" });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'a.yaml:5:7: error: ignore glob "+(a|aa)+(a|aa)+(a|aa)b" is invalid: extglob patterns like +(…) are not supported (at character 1); write \\( for a parenthesis',
      'a.yaml:6:7: error: ignore glob "*(*(*(a)))b" is invalid: extglob patterns like *(…) are not supported (at character 1); write \\( for a parenthesis',
      `a.yaml:7:7: error: ignore glob "${"x".repeat(59)}…" is invalid: longer than ${MAX_GLOB_LENGTH} characters`,
      'a.yaml:8:19: error: ignore glob "{a,b}" is invalid: braces are not supported (at character 1): list each alternative as its own glob, or write \\{',
    ]);
    expect(result.projects[0]!.ignore).toEqual({
      dashboard: ["Generated *"],
      insight: [],
      feature_flag: [],
      cohort: [],
      action: [],
      batch_export: ["tmp-*"],
    });
  });

  it("checkGlob answers true for a usable glob and reports nothing", () => {
    const file = {
      path: "f.yaml",
      data: {},
      place: () => ({ value: 0 }),
      position: () => ({ line: 1, column: 1 }),
    };
    const diags = { error: () => expect.unreachable() } as never;
    expect(checkGlob("Generated *", "/ignore/dashboards/0", file, diags)).toBe(true);
  });
});

/** The documented syntax as a backtracking regular expression: fine as a reference on tiny inputs. */
function reference(glob: string): RegExp {
  let source = "";
  const chars = Array.from(glob);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\\") source += literal(chars[++i]!);
    else if (c === "*") source += "[^]*";
    else if (c === "?") source += "[^]";
    else if (c === "[") {
      const end = chars.indexOf("]", i + 2);
      const body = chars.slice(i + 1, end).join("");
      source += body.startsWith("!") ? `[^${body.slice(1)}]` : `[${body}]`;
      i = end;
    } else source += literal(c);
  }
  return new RegExp(`^${source}$`, "u");
}

function literal(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
