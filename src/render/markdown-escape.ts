/**
 * Escaping for user-controlled text (names, values, paths, warnings) in a GitHub comment. Each helper
 * returns text that cannot open or close HTML, tables, emphasis, links or code around it.
 */
import { cut, visible } from "../text.js";

const ENTITY: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "`": "&#96;",
  "|": "&#124;",
  "*": "&#42;",
  _: "&#95;",
  "[": "&#91;",
  "]": "&#93;",
  "\\": "&#92;",
  "~": "&#126;",
};

/**
 * What GitHub turns into a mention (`@user`, `@org/team`), a reference (`#1`, `owner/repo#1`, `GH-1`)
 * or a link (`scheme://…`, `www.…`, `user@host` mail links) in text, whatever markdown escapes it
 * wears (it reads them after rendering, so `&#64;` and `\@` mention too): a zero-width space after
 * the first part breaks each, and reads as nothing.
 */
const ACTIVE = "@(?=[A-Za-z0-9])|#(?=\\d)|\\bGH-(?=\\d)|:(?=\\/\\/)|\\bwww(?=\\.)";
const BREAK = "&#8203;";
const INLINE = new RegExp(`[&<>\`|*_[\\]\\\\~]|${ACTIVE}`, "gi");

/**
 * Inline text safe both inside HTML (`<summary>`) and in markdown (list items, table cells, quotes):
 * one line, control, bidirectional and zero-width characters shown as `\uXXXX`, every character that
 * opens HTML, a table cell, emphasis, a link or code written as an entity, and no mention, reference
 * or autolink (ACTIVE). (Quotes are left alone: no attribute ever holds user text.)
 */
export function escapeInline(text: string): string {
  return visible(text.replace(/\r\n?|\n/g, " ")).replace(INLINE, (c) => ENTITY[c] ?? `${c}${BREAK}`);
}

/** A code span holding `text` literally: its fence is longer than any backtick run inside. */
export function codeSpan(text: string): string {
  const oneLine = visible(text.replace(/\r\n?|\n/g, "\\n"));
  const fence = "`".repeat(longestRun(oneLine) + 1);
  const pad = oneLine.startsWith("`") || oneLine.endsWith("`") || oneLine === "" ? " " : "";
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** A fenced code block; the fence outgrows any backtick run in the lines so they cannot close it. */
export function codeBlock(language: string, lines: readonly string[]): string {
  const body = lines.map(visible);
  const fence = "`".repeat(Math.max(3, ...body.map((l) => longestRun(l) + 1)));
  return `${fence}${language}\n${body.join("\n")}\n${fence}`;
}

/** Cuts a long one-line value, keeping comments bounded; the full value is in the full plan. */
export function clip(text: string, max = 300): string {
  return cut(text, max);
}

function longestRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}
