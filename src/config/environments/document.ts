/**
 * An environment's merged document: one single-project configuration (`project:`, `ignore:`, each
 * kind's list), built from the shared files and the environment's overlays, in which every node
 * remembers the file and node it came from. It is what the loader validates and declares for the
 * environment (as a `ParsedFile` whose `origin` answers for each node, so every diagnostic points at the
 * file and line the value was written at), what `render` prints, and what the plan's field changes
 * cite when an overlay set them.
 */
import type { ParsedFile } from "../parse-types.js";
import type { SourceRef } from "../types.js";
import type { Mark } from "./types.js";

/** A node of a source file: where a merged node came from. */
export interface Origin {
  file: ParsedFile;
  pointer: string;
}

interface OriginNode {
  origin?: Origin;
  children?: Map<string, OriginNode>;
}

export function splitPointer(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/");
}

export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** The origins of a value's nodes, by pointer (relative to the value). */
export class OriginTree {
  readonly #root: OriginNode = {};

  /** The node at `pointer` (and all under it) came from `origin`. */
  set(pointer: string, origin: Origin): void {
    const node = this.#node(splitPointer(pointer));
    node.origin = origin;
    delete node.children;
  }

  /** The nodes under `pointer` came from where `tree` says. */
  graft(pointer: string, tree: OriginTree): void {
    const node = this.#node(splitPointer(pointer));
    const root = tree.#root;
    if (root.origin === undefined) delete node.origin;
    else node.origin = root.origin;
    if (root.children === undefined) delete node.children;
    else node.children = root.children;
  }

  /** The origin recorded at or above `pointer`, and the part of `pointer` below it. */
  find(pointer: string): { origin: Origin; rest: string[] } | undefined {
    const segments = splitPointer(pointer);
    let node: OriginNode | undefined = this.#root;
    let found: { origin: Origin; depth: number } | undefined;
    for (let depth = 0; node !== undefined; depth++) {
      if (node.origin !== undefined) found = { origin: node.origin, depth };
      const segment = segments[depth];
      if (segment === undefined) break;
      node = node.children?.get(segment);
    }
    return found === undefined ? undefined : { origin: found.origin, rest: segments.slice(found.depth) };
  }

  /**
   * The origin found for `pointer` recorded on its own node, keeping what is recorded below it: the
   * node is about to move (a list entry before it is removed).
   */
  pin(pointer: string): void {
    const found = this.find(pointer);
    if (found === undefined || found.rest.length === 0) return;
    this.#node(splitPointer(pointer)).origin = {
      file: found.origin.file,
      pointer: found.origin.pointer + found.rest.map((s) => `/${s}`).join(""),
    };
  }

  /**
   * Entry `index` of the list at `pointer` is gone: the origins recorded for later entries move up one.
   * Entries without an origin of their own keep the list's (a list copied whole has one origin).
   */
  removeEntry(pointer: string, index: number): void {
    const node = this.#node(splitPointer(pointer));
    const children = node.children;
    if (children === undefined) return;
    const moved = new Map<string, OriginNode>();
    for (const [key, child] of children) {
      const i = Number(key);
      if (!/^\d+$/.test(key) || i < index) moved.set(key, child);
      else if (i > index) moved.set(String(i - 1), child);
    }
    node.children = moved;
  }

  #node(segments: readonly string[]): OriginNode {
    let node = this.#root;
    for (const segment of segments) {
      node.children ??= new Map();
      let next = node.children.get(segment);
      if (next === undefined) {
        next = {};
        node.children.set(segment, next);
      }
      node = next;
    }
    return node;
  }
}

export class MergedDocument implements ParsedFile {
  readonly data: Record<string, unknown> = {};
  /** What overlays, variables and secret mappings did. */
  readonly marks: Mark[] = [];
  readonly origins = new OriginTree();
  readonly #notes = new Map<string, string>();

  /**
   * @param path what the document is called where no node answers (the declaration file)
   * @param environment the environment's name
   */
  constructor(
    readonly path: string,
    readonly environment: string,
  ) {}

  /** What a message about the node at `pointer` adds. */
  setNote(pointer: string, note: string): void {
    this.#notes.set(pointer, note);
  }

  note(pointer: string): string | undefined {
    return this.#notes.get(pointer);
  }

  origin(pointer: string, which: "key" | "value"): SourceRef | undefined {
    const found = this.origins.find(pointer);
    if (found === undefined) return undefined;
    const { file } = found.origin;
    // The nearest node the source file has: a pointer below a value that is not there (a missing key)
    // falls back to the value above it.
    for (let keep = found.rest.length; keep >= 0; keep--) {
      const source =
        found.origin.pointer +
        found.rest
          .slice(0, keep)
          .map((s) => `/${s}`)
          .join("");
      const place = file.place(source);
      if (place === undefined) continue;
      const exact = keep === found.rest.length;
      const offset = exact && which === "key" ? (place.key ?? place.value) : place.value;
      const { line, column } = file.position(offset);
      return { file: file.path, line, column };
    }
    return undefined;
  }

  place(): undefined {
    return undefined;
  }

  position(): { line: number; column: number } {
    return { line: 1, column: 1 };
  }
}

/** Where the node at `pointer` of `file` is, or the file's start. */
export function sourceOf(file: ParsedFile, pointer: string, which: "key" | "value" = "value"): SourceRef {
  const place = file.place(pointer);
  const offset = place === undefined ? 0 : which === "key" ? (place.key ?? place.value) : place.value;
  const { line, column } = file.position(offset);
  return { file: file.path, line, column };
}

/**
 * Each declaration of a merged document with where it is declared and what its overlay, variables and
 * secret mappings did to it (pointers relative to it): what the plan cites (src/plan/origins.ts).
 */
export function markedDeclarations(
  doc: MergedDocument,
  kinds: ReadonlyArray<{ name: string; key: string }>,
): Array<{ kind: string; source: SourceRef; marks: Mark[] }> {
  const byItem = new Map<string, Mark[]>();
  for (const mark of doc.marks) {
    const [key, index, ...rest] = splitPointer(mark.pointer);
    if (key === undefined || index === undefined) continue;
    const item = `/${key}/${index}`;
    byItem.set(item, [...(byItem.get(item) ?? []), { ...mark, pointer: rest.map((s) => `/${s}`).join("") }]);
  }
  const out: Array<{ kind: string; source: SourceRef; marks: Mark[] }> = [];
  for (const [item, marks] of byItem) {
    const [key] = splitPointer(item);
    const kind = kinds.find((k) => k.key === key);
    const source = doc.origin(item, "value");
    if (kind !== undefined && source !== undefined) out.push({ kind: kind.name, source, marks });
  }
  return out;
}
