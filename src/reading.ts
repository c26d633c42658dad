/**
 * Text as its reader reads it (SPEC §8: scrubbing happens on the text as it will be read). The tool's
 * outputs escape what they show: markdown writes `_` as `&#95;` (GitHub shows `_`), JSON writes `"` as
 * `\"`, URLs write `/` as `%2F`. A `Reading` undoes every such escape the tool's formats can give a
 * character (HTML character references, named ones included; backslash escapes of punctuation, as
 * markdown and JSON write them; JSON's `\uXXXX`; URL encoding of ASCII) and drops what renders as
 * nothing (zero-width characters, empty HTML comments), and remembers where each character it reads
 * came from, so the scrubber can hide a secret in the text as written wherever it reads as one.
 */

/**
 * Named character references of the ASCII characters (the HTML standard's names). A secret is text a
 * person or a program typed: names of other characters cannot stand for part of one.
 */
const NAMED: Readonly<Record<string, string>> = {
  Tab: "\t",
  NewLine: "\n",
  excl: "!",
  quot: '"',
  QUOT: '"',
  num: "#",
  dollar: "$",
  percnt: "%",
  amp: "&",
  AMP: "&",
  apos: "'",
  lpar: "(",
  rpar: ")",
  ast: "*",
  midast: "*",
  plus: "+",
  comma: ",",
  period: ".",
  sol: "/",
  colon: ":",
  semi: ";",
  lt: "<",
  LT: "<",
  equals: "=",
  gt: ">",
  GT: ">",
  quest: "?",
  commat: "@",
  lsqb: "[",
  lbrack: "[",
  bsol: "\\",
  rsqb: "]",
  rbrack: "]",
  Hat: "^",
  lowbar: "_",
  UnderBar: "_",
  grave: "`",
  DiacriticalGrave: "`",
  lcub: "{",
  lbrace: "{",
  verbar: "|",
  vert: "|",
  VerticalLine: "|",
  rcub: "}",
  rbrace: "}",
};

/** Characters that render as nothing (read as absent). */
export const UNSEEN = /[\u200b-\u200d\u2060\ufeff]/;

/**
 * One escape a reader undoes, or one thing that renders as nothing. A character reference is read with
 * or without its `;` where a browser would (HTML reads `&#95` as `_`).
 */
const ESCAPE =
  /&#(\d{1,8});?|&#[xX]([0-9a-fA-F]{1,8});?|&([A-Za-z][A-Za-z0-9]{1,31});|\\u([0-9a-fA-F]{4})|\\([!-/:-@[-`{-~])|%([0-7][0-9a-fA-F])|<!--\s*-->|[\u200b-\u200d\u2060\ufeff]/g;

/** A character that may begin an escape (or is unseen): text without one reads as it is written. */
export const MAY_ESCAPE = /[&\\%<\u200b-\u200d\u2060\ufeff]/;

export interface Reading {
  /** What the reader reads. */
  text: string;
  /** For each character of `text`, where its source starts in the text as written… */
  from: number[];
  /** …and where it ends. */
  to: number[];
}

function decode(match: RegExpExecArray): string {
  const [whole, dec, hex, name, json, punct, percent] = match;
  const code = (n: number) => (n <= 0x10ffff ? String.fromCodePoint(n) : whole);
  if (dec !== undefined) return code(Number(dec));
  if (hex !== undefined) return code(Number.parseInt(hex, 16));
  if (name !== undefined) return NAMED[name] ?? whole;
  if (json !== undefined) return String.fromCharCode(Number.parseInt(json, 16));
  if (punct !== undefined) return punct;
  if (percent !== undefined) return String.fromCharCode(Number.parseInt(percent, 16));
  return "";
}

/** How `text` reads, and where each character read comes from; undefined when it reads as written. */
export function reading(text: string): Reading | undefined {
  if (!MAY_ESCAPE.test(text)) return undefined;
  let out = "";
  const from: number[] = [];
  const to: number[] = [];
  let last = 0;
  const plain = (end: number) => {
    for (let i = last; i < end; i++) {
      from.push(i);
      to.push(i + 1);
    }
    out += text.slice(last, end);
  };
  ESCAPE.lastIndex = 0;
  let changed = false;
  for (let match = ESCAPE.exec(text); match !== null; match = ESCAPE.exec(text)) {
    const read = decode(match);
    if (read === match[0]) continue;
    changed = true;
    plain(match.index);
    const end = match.index + match[0].length;
    // What decodes to an unseen character is unseen too.
    if (!UNSEEN.test(read)) {
      for (let i = 0; i < read.length; i++) {
        from.push(match.index);
        to.push(end);
      }
      out += read;
    }
    last = end;
  }
  if (!changed) return undefined;
  plain(text.length);
  return { text: out, from, to };
}

/**
 * The start of an escape that `text` ends in the middle of (`&#9`, `\`, `%5`), as a length; 0 when
 * none. A cut can end in one: the reader may still read the characters before it.
 */
export function openEscapeAtEnd(text: string): number {
  const match =
    /(?:&(?:#[xX]?[0-9a-fA-F]{0,8}|[A-Za-z][A-Za-z0-9]{0,31})?|\\(?:u[0-9a-fA-F]{0,3})?|%[0-7]?|<(?:!(?:-(?:-\s*-?)?)?)?)$/.exec(
      text,
    );
  return match ? match[0].length : 0;
}
