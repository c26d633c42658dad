/**
 * Positions for the fast parse path (parse-fast.ts), from what js-yaml's listener recorded for each
 * mapping and sequence: where it starts, and where each of its children was opened (for a mapping:
 * key, value, key, value… in document order). A child's position is only trusted when the count
 * matches the data exactly; any doubt returns undefined and the caller asks the slow parse.
 */
import type { NodePlace } from "./parse-types.js";

export interface Recorded {
  /** Offset of the collection's first `-`, `[`, `{` or key. */
  start: number;
  /** Offsets where js-yaml opened each child; spaces and comments before the child not yet skipped. */
  children: number[];
}

/** Object.keys lists such keys first, out of document order. */
const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

export function fastPlace(
  text: string,
  data: unknown,
  recorded: ReadonlyMap<object, Recorded>,
  pointer: string,
): NodePlace | undefined {
  if (pointer === "") return root(data, recorded);
  let parent: unknown;
  let node = data;
  let segment = "";
  for (const raw of pointer.slice(1).split("/")) {
    segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object") return undefined;
    if (Array.isArray(node) ? !INDEX_LIKE.test(segment) : !Object.hasOwn(node, segment)) return undefined;
    parent = node;
    node = (node as Record<string, unknown>)[segment];
  }
  const parentRecord = recorded.get(parent as object);
  if (parentRecord === undefined) return undefined;
  const own = node !== null && typeof node === "object" ? recorded.get(node)?.start : undefined;
  if (Array.isArray(parent)) {
    const index = Number(segment);
    if (parentRecord.children.length !== parent.length || index >= parent.length) return undefined;
    if (own !== undefined) return { value: own };
    return node === null ? undefined : { value: nodeStart(text, parentRecord.children[index]!) };
  }
  const keys = Object.keys(parent as object);
  if (parentRecord.children.length !== 2 * keys.length || keys.some((k) => INDEX_LIKE.test(k)))
    return undefined;
  const index = keys.indexOf(segment);
  const key = nodeStart(text, parentRecord.children[2 * index]!);
  // An empty value's place is the end of its key, which the slow parse knows.
  if (own === undefined && node === null) return undefined;
  return { key, value: own ?? nodeStart(text, parentRecord.children[2 * index + 1]!) };
}

function root(data: unknown, recorded: ReadonlyMap<object, Recorded>): NodePlace | undefined {
  const start = data !== null && typeof data === "object" ? recorded.get(data)?.start : undefined;
  return start === undefined ? undefined : { value: start };
}

/** From where js-yaml opened a node to where its content starts: past spaces, line breaks and comments. */
export function nodeStart(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d) i += 1;
    else if (c === 0x23) {
      const end = text.indexOf("\n", i);
      if (end === -1) return text.length;
      i = end;
    } else return i;
  }
}
