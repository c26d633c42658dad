/**
 * Where a node of a parsed document was written. A file's own nodes are found through `place` and
 * `position`; a document merged from several files (an environment's shared declarations with its
 * overlay, SPEC §9) knows each node's file through `origin`. Every diagnostic goes through here, so a
 * message about a merged value points at the file and line the value came from.
 */
import type { ParsedFile } from "./parse-types.js";
import type { SourceRef } from "./types.js";

/**
 * The node at `pointer` (its key with `which: "key"`, for a mapping entry); when the document has no
 * such node, the nearest of `fallbacks` that it has, else the start of the file.
 */
export function sourceAt(
  file: ParsedFile,
  pointer: string,
  which: "key" | "value" = "value",
  ...fallbacks: string[]
): SourceRef {
  if (file.origin) {
    for (const p of [pointer, ...fallbacks]) {
      const found = file.origin(p, p === pointer ? which : "value");
      if (found !== undefined) return found;
    }
    return { file: file.path, line: 1, column: 1 };
  }
  let place = file.place(pointer);
  let offset = place === undefined ? undefined : which === "key" ? (place.key ?? place.value) : place.value;
  for (const p of fallbacks) {
    if (offset !== undefined) break;
    place = file.place(p);
    offset = place?.value;
  }
  const { line, column } = file.position(offset ?? 0);
  return { file: file.path, line, column };
}

/** What a message about the node at `pointer` adds (the variable a merged value came from), or "". */
export function noteAt(file: ParsedFile, pointer: string): string {
  const note = file.note?.(pointer);
  return note === undefined ? "" : ` (${note})`;
}
