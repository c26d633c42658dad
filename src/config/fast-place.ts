/**
 * Where each mapping entry and list item of a file converted by the direct path (parse-fast.ts) was
 * written, recorded from the token offsets during the conversion, so that a JSON pointer is placed
 * without another parse. The offsets are those the `yaml` library's nodes would carry (the first
 * character of the key, of the value, or for an empty value where the library puts it).
 */
import type { NodePlace } from "./parse-types.js";

/** One mapping or list of the data. */
export interface Spots {
  /** A mapping's keys in document order (the object's own key order can differ: `"1"` comes first). */
  keys?: string[];
  /** A mapping's key and value offsets, entry by entry (key, value, key, value…); a list's item offsets. */
  at: number[];
}

export class Places {
  readonly #spots = new Map<object, Spots>();
  #root = 0;

  record(node: object, spots: Spots): void {
    this.#spots.set(node, spots);
  }

  setRoot(offset: number): void {
    this.#root = offset;
  }

  /** The place of the node at `pointer` in `data` (the data these places were recorded for). */
  place(data: unknown, pointer: string): NodePlace | undefined {
    if (pointer === "") return { value: this.#root };
    let parent: unknown;
    let node = data;
    let segment = "";
    for (const raw of pointer.slice(1).split("/")) {
      segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (node === null || typeof node !== "object") return undefined;
      parent = node;
      if (Array.isArray(node)) {
        node = node[Number(segment)];
        if (node === undefined) return undefined;
      } else {
        if (!Object.hasOwn(node, segment)) return undefined;
        node = (node as Record<string, unknown>)[segment];
      }
    }
    const spots = this.#spots.get(parent as object);
    if (spots === undefined) return undefined;
    if (Array.isArray(parent)) {
      const value = spots.at[Number(segment)];
      return value === undefined ? undefined : { value };
    }
    const index = spots.keys?.indexOf(segment) ?? -1;
    return index < 0 ? undefined : { key: spots.at[2 * index]!, value: spots.at[2 * index + 1]! };
  }
}
