/**
 * `ignore:` name globs protect live objects from --prune (SPEC §8: matched in linear time; a glob the
 * matcher cannot bound is a validation error). A glob that can never match, or that means something
 * other than its author thinks, is a silent hole in that protection, so anything outside this small
 * syntax is refused at validation rather than guessed at:
 *
 * - `*` any run of characters, none included (`/` and a leading `.` are ordinary characters here:
 *   these are names, not paths); `**` is the same as `*`;
 * - `?` exactly one character (a whole character, emoji included);
 * - `[abc]`, `[a-z]`, `[!a-z]` or `[^a-z]`: one character from (or not from) a class; `]` right after
 *   `[` or `[!` is a member, `\` escapes inside too;
 * - `\x` the character x itself; every other character stands for itself, case-sensitively.
 *
 * Refused: an empty or blank glob, one longer than MAX_GLOB_LENGTH, an unclosed `[`, a reversed range,
 * POSIX classes (`[[:alpha:]]`), braces (`{a,b}`), extglobs (`+(…)`, `*(…)`, `?(…)`, `@(…)`, `!(…)`:
 * write `\(` for a parenthesis after one of those), a leading `!` (negation), a trailing `\`.
 *
 * Matching runs the glob as a bit-parallel automaton over the name (the set of glob positions reached
 * so far, one bit each), one step per character of the name: time O(length of name × ⌈(length of glob
 * + 1) / 32⌉), for the longest glob two passes over nine 32-bit words per character, whatever the glob
 * and the name. There is no backtracking to blow up.
 */
import type { Diagnostics } from "./diagnostics.js";
import { excerpt } from "./excerpt.js";
import { sourceAt } from "./located.js";
import type { ParsedFile } from "./parse-types.js";

/** Longest glob accepted, in characters: bounds the work per character of a name. */
export const MAX_GLOB_LENGTH = 256;

type Part =
  | { kind: "star" }
  | { kind: "any" }
  | { kind: "char"; code: number }
  | { kind: "class"; negated: boolean; ranges: number[] };

/** A compiled glob: the parts, and what the automaton needs. */
class Glob {
  /** Bit j of `star`: part j is a `*`. State j means "the first j parts matched". */
  readonly #star: Uint32Array;
  readonly #words: number;
  /** Per character, the parts (not stars) that accept it; built on first sight, bounded. */
  readonly #masks = new Map<number, Uint32Array>();
  #d: Uint32Array;
  #next: Uint32Array;

  constructor(readonly parts: readonly Part[]) {
    this.#words = Math.ceil((parts.length + 1) / 32);
    this.#star = new Uint32Array(this.#words);
    parts.forEach((part, j) => {
      if (part.kind === "star") this.#star[j >>> 5]! |= 1 << (j & 31);
    });
    this.#d = new Uint32Array(this.#words);
    this.#next = new Uint32Array(this.#words);
  }

  matches(name: string): boolean {
    const words = this.#words;
    const star = this.#star;
    let d = this.#d;
    let next = this.#next;
    d.fill(0);
    d[0] = 1;
    closeOverStars(d, star, words);
    for (let i = 0; i < name.length; ) {
      const code = name.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      const mask = this.#mask(code);
      // A part that accepts the character moves its state on; a `*` keeps its state.
      let carry = 0;
      let alive = 0;
      for (let w = 0; w < words; w++) {
        const moved = d[w]! & mask[w]!;
        next[w] = ((moved << 1) | carry | (d[w]! & star[w]!)) >>> 0;
        carry = moved >>> 31;
        alive |= next[w]!;
      }
      if (alive === 0) return false;
      closeOverStars(next, star, words);
      const previous = d;
      d = next;
      next = previous;
    }
    this.#d = d;
    this.#next = next;
    const end = this.parts.length;
    return (d[end >>> 5]! & (1 << (end & 31))) !== 0;
  }

  #mask(code: number): Uint32Array {
    const cached = this.#masks.get(code);
    if (cached !== undefined) return cached;
    const mask = new Uint32Array(this.#words);
    this.parts.forEach((part, j) => {
      if (accepts(part, code)) mask[j >>> 5]! |= 1 << (j & 31);
    });
    // Names are mostly ASCII; an adversarial name cannot grow the cache without bound.
    if (this.#masks.size < 1024) this.#masks.set(code, mask);
    return mask;
  }
}

/** A `*` may also match nothing: its state reaches the next one at once (stars never follow stars). */
function closeOverStars(d: Uint32Array, star: Uint32Array, words: number): void {
  let carry = 0;
  for (let w = 0; w < words; w++) {
    const at = d[w]! & star[w]!;
    d[w] = (d[w]! | (at << 1) | carry) >>> 0;
    carry = at >>> 31;
  }
}

function accepts(part: Part, code: number): boolean {
  switch (part.kind) {
    case "star":
      return false;
    case "any":
      return true;
    case "char":
      return part.code === code;
    case "class": {
      let inside = false;
      for (let k = 0; k < part.ranges.length; k += 2) {
        if (code >= part.ranges[k]! && code <= part.ranges[k + 1]!) inside = true;
      }
      return inside !== part.negated;
    }
  }
}

/** The glob's parts, or why it is refused. */
export function compileGlob(glob: string): Glob | string {
  if (glob.trim() === "") return "ignore glob is empty and can never match a name";
  if (glob.length > MAX_GLOB_LENGTH) return `longer than ${MAX_GLOB_LENGTH} characters`;
  if (glob.startsWith("!")) return "a leading ! (negation) is not supported; write \\! for the character";
  const chars = Array.from(glob);
  const parts: Part[] = [];
  const at = (i: number) => `at character ${i + 1}`;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "\\") {
      if (i + 1 >= chars.length) return `a trailing \\ escapes nothing (${at(i)})`;
      parts.push({ kind: "char", code: chars[++i]!.codePointAt(0)! });
    } else if ("*?+@!".includes(c) && chars[i + 1] === "(") {
      return `extglob patterns like ${c}(…) are not supported (${at(i)}); write \\( for a parenthesis`;
    } else if (c === "{" || c === "}") {
      return `braces are not supported (${at(i)}): list each alternative as its own glob, or write \\${c}`;
    } else if (c === "*") {
      if (parts[parts.length - 1]?.kind !== "star") parts.push({ kind: "star" });
    } else if (c === "?") {
      parts.push({ kind: "any" });
    } else if (c === "[") {
      const parsed = parseClass(chars, i);
      if (typeof parsed === "string") return parsed;
      parts.push(parsed.part);
      i = parsed.end;
    } else {
      parts.push({ kind: "char", code: c.codePointAt(0)! });
    }
  }
  return new Glob(parts);
}

/** A class starting at `chars[start]` (the `[`): the part and the index of its `]`, or why it is refused. */
function parseClass(chars: readonly string[], start: number): { part: Part; end: number } | string {
  let i = start + 1;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i += 1;
  const ranges: number[] = [];
  const first = i;
  for (; i < chars.length; i++) {
    let c = chars[i]!;
    if (c === "]" && i > first) return { part: { kind: "class", negated, ranges }, end: i };
    if (c === "[" && chars[i + 1] === ":") {
      return `POSIX classes like [:alpha:] are not supported (at character ${i + 1}); list the characters`;
    }
    if (c === "\\") {
      if (i + 1 >= chars.length) break;
      c = chars[++i]!;
    }
    const low = c.codePointAt(0)!;
    let high = low;
    if (chars[i + 1] === "-" && i + 2 < chars.length && chars[i + 2] !== "]") {
      let to = chars[i + 2]!;
      i += 2;
      if (to === "\\" && i + 1 < chars.length) to = chars[++i]!;
      high = to.codePointAt(0)!;
      if (high < low) return `the range ${c}-${to} is reversed (at character ${i + 1})`;
    }
    ranges.push(low, high);
  }
  return `the [ at character ${start + 1} is never closed; write \\[ for a bracket`;
}

/**
 * One function for a list of globs that already passed checkGlob (as the loaded config's are): true
 * when a name matches any of them. For the planner's --prune; a glob that does not compile throws,
 * since matching it as nothing would let --prune delete what it was meant to protect.
 */
export function globMatcher(globs: readonly string[]): (name: string) => boolean {
  const compiled = globs.map((glob) => {
    const result = compileGlob(glob);
    if (typeof result === "string") throw new TypeError(`ignore glob "${excerpt(glob, 60)}": ${result}`);
    return result;
  });
  if (compiled.length === 0) return () => false;
  return (name) => compiled.some((glob) => glob.matches(name));
}

/** True when the glob is usable; otherwise reports why at its node. */
export function checkGlob(glob: string, pointer: string, file: ParsedFile, diags: Diagnostics): boolean {
  const result = compileGlob(glob);
  if (typeof result !== "string") return true;
  const at = sourceAt(file, pointer);
  const message = glob.trim() === "" ? result : `ignore glob "${excerpt(glob, 60)}" is invalid: ${result}`;
  diags.error(at.file, at.line, at.column, message);
  return false;
}

/** Whether a live object's name matches one of the globs (for --prune). */
export function isIgnored(name: string, globs: readonly string[]): boolean {
  return globMatcher(globs)(name);
}
