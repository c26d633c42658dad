/** What parsing one YAML file yields, and the limits the parse enforces. */

/** Deeper nesting is refused (a config needs about six levels). */
export const MAX_DEPTH = 64;
/** Alias resolutions per file; a config needs none, YAML's anchors are allowed for convenience only. */
export const MAX_ALIAS_COUNT = 100;
/**
 * YAML tokens (keys, values, indicators, spaces, line breaks) one file may hold. The parser's memory
 * grows with them (150 to 250 bytes each), so this, not the file's size, bounds what parsing one file
 * costs: about 400 MB at worst. A 5 MB file of ordinary configuration holds about 1.25 million; a
 * 5 MB file of `1,1,1,…` would hold 7.5 million and is refused partway, before it costs 2 GB.
 */
export const MAX_TOKENS = 1_500_000;
/**
 * Entries one mapping may hold. Configuration mappings have a few dozen keys at most (lists hold the
 * many objects); the library checks each new key against all the earlier ones, so a mapping of
 * 100,000 keys would take minutes to compose. Refused before composing.
 */
export const MAX_MAP_ENTRIES = 1000;
/**
 * Values (mappings, lists and scalars) one file may expand to, aliases expanded. Without aliases a
 * file cannot reach it (MAX_TOKENS comes first); with them, it bounds the expanded data.
 */
export const MAX_NODES = 1_000_000;
/**
 * Characters of text (keys and string values) one file may expand to, aliases expanded. A file
 * without aliases can never reach it (its text is at most MAX_FILE_BYTES); an alias bomb made of a
 * few aliases to a huge string does, and is refused at the alias that crosses it.
 */
export const MAX_EXPANDED_CHARS = 10 * 1024 * 1024;
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Offsets into the file's text; `key` is absent for the document root and list items. */
export interface NodePlace {
  key?: number;
  value: number;
}

export interface ParsedFile {
  path: string;
  data: unknown;
  /** Where the node at a JSON pointer was written (looked up on demand: only diagnostics and sources need it). */
  place(pointer: string): NodePlace | undefined;
  /** 1-based line and column of an offset into the file's text. */
  position(offset: number): { line: number; column: number };
  /**
   * Only for a document merged from several files (an environment's, SPEC §9): where the node at a
   * pointer was written, in whichever file that was. Absent: every node is in this file (`place`).
   */
  origin?(
    pointer: string,
    which: "key" | "value",
  ): { file: string; line: number; column: number } | undefined;
  /**
   * Only for a merged document: what a message about the node at a pointer adds, e.g. that its value
   * came from an environment's variable. Absent or undefined: nothing.
   */
  note?(pointer: string): string | undefined;
}
