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
export const NAMED: Readonly<Record<string, string>> = {
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
  /** Where the character at `index` of `text` starts in the text as written. */
  start(index: number): number;
  /** Where the character at `index` of `text` ends in the text as written. */
  end(index: number): number;
}

/**
 * What one escape reads as: a character, "" for what renders as nothing, or itself when unknown. Its
 * arguments are those `String.replace` passes for ESCAPE's groups.
 */
function decode(
  whole: string,
  dec: string | undefined,
  hex: string | undefined,
  name: string | undefined,
  json: string | undefined,
  punct: string | undefined,
  percent: string | undefined,
): string {
  let read: string;
  if (dec !== undefined || hex !== undefined) {
    const code = dec !== undefined ? Number(dec) : Number.parseInt(hex as string, 16);
    if (code > 0x10ffff) return whole;
    read = String.fromCodePoint(code);
  } else if (name !== undefined) return NAMED[name] ?? whole;
  else if (json !== undefined) read = String.fromCharCode(Number.parseInt(json, 16));
  else if (punct !== undefined) return punct;
  else if (percent !== undefined) return String.fromCharCode(Number.parseInt(percent, 16));
  else return "";
  // What decodes to an unseen character is unseen too.
  return UNSEEN.test(read) ? "" : read;
}

/** What `text` reads as (one pass); the same string when it reads as written. */
export function readText(text: string): string {
  return MAY_ESCAPE.test(text) ? text.replace(ESCAPE, decode) : text;
}

/**
 * How `text` reads, and where each character read comes from. Only the escapes are recorded (where
 * each starts and ends on both sides), so a reading costs one pass and a few numbers per escape.
 */
export function reading(text: string): Reading {
  // Per escape: where its reading starts in the text read, how long it reads, where it is written.
  const readAt: number[] = [];
  const readLength: number[] = [];
  const writtenAt: number[] = [];
  const writtenEnd: number[] = [];
  let shift = 0;
  let read = "";
  let last = 0;
  ESCAPE.lastIndex = 0;
  for (let m = ESCAPE.exec(text); m !== null; m = ESCAPE.exec(text)) {
    const whole = m[0];
    const out = decode(whole, m[1], m[2], m[3], m[4], m[5], m[6]);
    if (out === whole) continue;
    readAt.push(m.index + shift);
    readLength.push(out.length);
    writtenAt.push(m.index);
    writtenEnd.push(m.index + whole.length);
    shift += out.length - whole.length;
    read += text.slice(last, m.index) + out;
    last = m.index + whole.length;
  }
  read += text.slice(last);
  /** Where the character at `index` of the reading is written, from its start or to its end. */
  const locate = (index: number, end: boolean): number => {
    // The last escape whose reading starts at or before `index` (an unseen one reads as nothing).
    let low = 0;
    let high = readAt.length - 1;
    let k = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((readAt[middle] as number) <= index) {
        k = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    if (k < 0) return end ? index + 1 : index;
    const readEnd = (readAt[k] as number) + (readLength[k] as number);
    if (index < readEnd) return end ? (writtenEnd[k] as number) : (writtenAt[k] as number);
    const at = (writtenEnd[k] as number) + index - readEnd;
    return end ? at + 1 : at;
  };
  return { text: read, start: (i) => locate(i, false), end: (i) => locate(i, true) };
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
