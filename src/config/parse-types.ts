/** What parsing one YAML file yields, and the limits the parse enforces. */

/** Deeper nesting is refused (a config needs about six levels). */
export const MAX_DEPTH = 64;
/** Alias resolutions per file; a config needs none, YAML's anchors are allowed for convenience only. */
export const MAX_ALIAS_COUNT = 100;
/**
 * Values (mappings, lists and scalars) one file may expand to, aliases expanded: far more than a
 * config holds, few enough that the expanded data stays well under the memory budget.
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
}
