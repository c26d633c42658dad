/**
 * Text from outside (service answers, file names, names in files) made safe to print: control
 * characters, ANSI escapes included, shown as `\uXXXX`, so such text cannot drive a terminal; so are
 * bidirectional controls and zero-width characters, so it cannot reorder a line or hide a character
 * in it; and, for text that must stay on one line, line breaks and tabs shown as `\n`, `\r`, `\t`, so
 * it cannot start a line of its own (that reads like part of the output, or like a GitHub workflow
 * command).
 *
 * And the one way text is cut (`cut`): always marked with CUT, which the scrubber (scrub.ts) reads as
 * the end of a stream.
 */

/**
 * Characters that change how a line reads without being seen: the bidirectional controls (embeddings,
 * overrides and isolates, U+202A–U+202E and U+2066–U+2069, and the marks U+200E, U+200F, U+061C) and
 * the zero-width and invisible ones (U+200B–U+200D, U+2060–U+2064, U+FEFF).
 */
export const INVISIBLE = "\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff";

const SHOWN = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, "g");

/** `\uXXXX` for one character. */
export function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Control and invisible characters (ANSI escapes included) made visible; line breaks and tabs are kept. */
export function visible(text: string): string {
  return text.replace(SHOWN, escapeChar);
}

/** Text on one line: line breaks and tabs written as `\n`, `\r`, `\t`, other control characters as `\uXXXX`. */
export function flat(text: string): string {
  return visible(text.trim().replace(/\r/g, "\\r").replace(/\n/g, "\\n").replace(/\t/g, "\\t"));
}

/**
 * `text` with ASCII letters lower-cased and nothing else changed: how emails and UUIDs are compared.
 * Unicode case folding would make look-alikes equal (`\u212A`, the Kelvin sign, lower-cases to `k`).
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

/**
 * `text` with every character outside printable ASCII written as `\uXXXX` (`\u{XXXXX}` past the
 * basic plane), and the backslash too (so no text can pass for an escape): for identifiers a reader
 * must not mistake, such as a member's email.
 */
export function escapeNonAscii(text: string): string {
  return text.replace(/[^\x20-\x5b\x5d-\x7e]/gu, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : escapeChar(c);
  });
}

/** What marks a cut. */
export const CUT = "…";

/**
 * `text` cut to `max` characters, the last of them CUT, when it is longer. Cut only scrubbed text:
 * a secret cut in two is no longer one the scrubber finds whole.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = Math.max(0, max - 1);
  // Never split a character made of two UTF-16 units.
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return `${text.slice(0, keep)}${CUT}`;
}
