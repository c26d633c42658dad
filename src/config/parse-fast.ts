/**
 * The direct path: plain data straight from the `yaml` library's parse tokens (its CST), without
 * building the library's document tree. That tree is what costs time and memory on large files; the
 * tokens already hold every value's text and offset.
 *
 * Contract: it answers only for a file in which the library's Composer (parse-slow.ts) would find
 * nothing to report and would build the same data, and then gives exactly that data and the same
 * place for every JSON pointer. It declines (returns undefined; the caller composes the same tokens)
 * on anything else: any error token, anchor, alias, tag, directive, `?` key, `---` followed by a
 * block collection on its line, several documents, an empty document, a tab or lone CR anywhere, a
 * key that is not a one-line scalar, a key the reference path refuses or spells differently (empty,
 * null, `__proto__` and the like, a repeat), a mapping entry without `:`, a comment not preceded by
 * white space, a flow collection over several lines, nesting deeper than MAX_DEPTH, more than
 * MAX_NODES values or MAX_MAP_ENTRIES entries in a mapping, and any scalar the library reports a
 * problem for. Scalars are resolved by the
 * library's own `CST.resolveAsScalar` (the function the Composer uses) and plain ones typed by the
 * YAML 1.2 core schema restated in yaml-core.ts. Both paths are held equal by the differential tests
 * (test/config/parse-fast.test.ts).
 */
import { CST } from "yaml";
import { Places } from "./fast-place.js";
import { FORBIDDEN_KEYS, MAX_DEPTH, MAX_MAP_ENTRIES, MAX_NODES, type NodePlace } from "./parse-types.js";
import { PLAIN_STRING, resolvePlain } from "./yaml-core.js";

/** The library refuses implicit keys whose `:` is further than this from their start. */
const MAX_KEY_SPAN = 1024;
/** Text shapes left to the Composer: tabs (indentation rules), a lone CR (line counting). */
const UNSURE_TEXT = /[\t\uFEFF]|\r(?!\n)/;

type Token = CST.Token;
type SourceToken = CST.SourceToken;
type FlowScalar = CST.FlowScalar;

export interface Converted {
  data: unknown;
  place(pointer: string): NodePlace | undefined;
}

class Unsure extends Error {}

const unsure = (): never => {
  throw new Unsure();
};

export function convertTokens(tokens: readonly Token[], text: string): Converted | undefined {
  if (UNSURE_TEXT.test(text)) return undefined;
  const places = new Places();
  try {
    const data = new Walk(text, places).stream(tokens);
    return { data, place: (pointer) => places.place(data, pointer) };
  } catch {
    // Unsure, or anything unforeseen: the reference path decides (the walk recurses at most MAX_DEPTH
    // levels, so this is never a stack overflow).
    return undefined;
  }
}

class Walk {
  #nodes = 0;

  constructor(
    readonly text: string,
    readonly places: Places,
  ) {}

  stream(tokens: readonly Token[]): unknown {
    let document: CST.Document | undefined;
    for (const token of tokens) {
      if (token.type === "document" && document === undefined) document = token;
      else if (token.type === "comment") this.comment(token);
      else if (token.type !== "newline" && token.type !== "space") unsure();
    }
    if (document?.value === undefined) return unsure();
    let docStart = false;
    let newline = false;
    for (const t of document.start) {
      if (t.type === "doc-start" && !docStart) docStart = true;
      else if (t.type === "newline") newline = true;
      else this.filler(t);
    }
    const value = document.value;
    if (docStart && !newline && (value.type === "block-map" || value.type === "block-seq")) unsure();
    for (const t of document.end ?? []) this.filler(t);
    const data = this.node(value, 0);
    if (data === null) unsure(); // an empty file: the reference path says so
    this.places.setRoot(value.offset);
    return data;
  }

  node(token: Token, depth: number): unknown {
    this.enter(depth);
    switch (token.type) {
      case "scalar":
      case "single-quoted-scalar":
      case "double-quoted-scalar":
      case "block-scalar":
        return this.scalar(token);
      case "block-map":
        return this.blockMap(token, depth);
      case "block-seq":
        return this.blockSeq(token, depth);
      case "flow-collection":
        return this.flow(token, depth);
      default:
        return unsure();
    }
  }

  /** Every value counts, as in the reference conversion, an empty one included. */
  enter(depth: number): void {
    this.#nodes += 1;
    if (depth > MAX_DEPTH || this.#nodes > MAX_NODES) unsure();
  }

  scalar(token: FlowScalar | CST.BlockScalar): unknown {
    const { value } = CST.resolveAsScalar(token, true, unsure);
    if (token.type !== "scalar") return value;
    const typed = resolvePlain(value);
    return typed === PLAIN_STRING ? value : typed;
  }

  key(token: Token | null | undefined): string {
    if (
      token?.type !== "scalar" &&
      token?.type !== "single-quoted-scalar" &&
      token?.type !== "double-quoted-scalar"
    )
      return unsure();
    // A key over several lines is an error for the library; a null key is refused by the reference path.
    if (token.source.includes("\n") || token.end?.some((t) => t.type === "newline")) unsure();
    const value = this.scalar(token);
    if (value === null) unsure();
    const key = String(value);
    if (FORBIDDEN_KEYS.has(key)) unsure();
    return key;
  }

  blockMap(map: CST.BlockMap, depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    const keys: string[] = [];
    const at: number[] = [];
    if (map.items.length > MAX_MAP_ENTRIES) unsure();
    const last = map.items.length - 1;
    for (const [i, { start, key, sep, value }] of map.items.entries()) {
      for (const t of start) this.filler(t);
      // An item of only comments: fine at the end; before another entry the library reports it.
      if (key === undefined && sep === undefined) {
        if (i < last) unsure();
        continue;
      }
      if (key === null || key === undefined || sep === undefined) return unsure();
      if ("indent" in key && key.indent !== map.indent) unsure();
      const name = this.key(key);
      if (Object.hasOwn(object, name)) unsure();
      const { found, newline } = this.separator(sep);
      if (found.offset - key.offset > MAX_KEY_SPAN) unsure();
      if (value?.type === "block-map" && !newline) unsure(); // `a: b: c`
      object[name] = this.entry(value, depth);
      keys.push(name);
      at.push(key.offset, this.valueAt(value, sep));
    }
    this.places.record(object, { keys, at });
    return object;
  }

  blockSeq(seq: CST.BlockSequence, depth: number): unknown[] {
    const list: unknown[] = [];
    const at: number[] = [];
    for (const { start, value } of seq.items) {
      let found = false;
      for (const t of start) {
        if (t.type === "seq-item-ind" && !found) found = true;
        else this.filler(t);
      }
      if (!found) {
        if (value !== undefined) unsure();
        continue; // only comments
      }
      list.push(this.entry(value, depth));
      at.push(this.valueAt(value, start));
    }
    this.places.record(list, { at });
    return list;
  }

  flow(collection: CST.FlowCollection, depth: number): unknown {
    const isMap = collection.start.source === "{";
    if (isMap && collection.items.length > MAX_MAP_ENTRIES) unsure();
    const [close, ...rest] = collection.end;
    if (close?.source !== (isMap ? "}" : "]")) unsure();
    if (this.text.lastIndexOf("\n", close!.offset) > collection.offset) unsure();
    for (const t of rest) this.filler(t);
    const object: Record<string, unknown> = {};
    const list: unknown[] = [];
    const keys: string[] = [];
    const at: number[] = [];
    const last = collection.items.length - 1;
    for (const [i, { start, key, sep, value }] of collection.items.entries()) {
      let comma = false;
      for (const t of start) {
        if (t.type === "comma" && !comma) comma = true;
        else if (t.type !== "space") unsure();
      }
      if (comma !== i > 0) unsure();
      if (key === undefined && sep === undefined && value === undefined) {
        // A trailing comma; an empty item anywhere else is an error.
        if (i < last) unsure();
        continue;
      }
      if (value?.type === "block-map" || value?.type === "block-seq") unsure();
      if (!isMap) {
        if (key !== undefined || sep !== undefined || value === undefined) unsure();
        list.push(this.node(value!, depth + 1));
        at.push(value!.offset);
        continue;
      }
      if (sep === undefined) unsure();
      const name = this.key(key);
      if (Object.hasOwn(object, name)) unsure();
      this.separator(sep!);
      object[name] = this.entry(value, depth);
      keys.push(name);
      at.push(key!.offset, this.valueAt(value, sep!));
    }
    if (isMap) this.places.record(object, { keys, at });
    else this.places.record(list, { at });
    return isMap ? object : list;
  }

  /** The value after a `:` or `-`; an empty one is null, as in the reference path. */
  entry(value: Token | undefined, depth: number): unknown {
    if (value !== undefined) return this.node(value, depth + 1);
    this.enter(depth + 1);
    return null;
  }

  valueAt(value: Token | undefined, before: readonly SourceToken[]): number {
    if (value !== undefined) return value.offset;
    const last = before[before.length - 1]!;
    return emptyScalarPosition(last.offset + last.source.length, before);
  }

  /** A mapping's `:` with only spaces before it, and spaces, line breaks and comments after it. */
  separator(sep: readonly SourceToken[]): { found: SourceToken; newline: boolean } {
    let found: SourceToken | undefined;
    let newline = false;
    for (const t of sep) {
      if (t.type === "map-value-ind" && found === undefined) found = t;
      else if (t.type === "space") continue;
      else if (found === undefined) unsure();
      else if (t.type === "newline") newline = true;
      else this.filler(t);
    }
    return { found: found ?? unsure(), newline };
  }

  /** Space, line breaks and comments, which carry nothing; anything else is left to the Composer. */
  filler(t: SourceToken): void {
    if (t.type === "comment") this.comment(t);
    else if (t.type !== "space" && t.type !== "newline") unsure();
  }

  /** The library wants white space before a comment (`a: "x"#c` is an error). */
  comment(t: SourceToken): void {
    const before = this.text.charCodeAt(t.offset - 1);
    if (t.offset > 0 && before !== 0x20 && before !== 0x0a) unsure();
  }
}

/**
 * Where the library places an empty value: after the tokens before it, back over trailing spaces,
 * comments and line breaks, then forward over the spaces that follow the last other token
 * (`emptyScalarPosition` in the library's composer, which this restates).
 */
function emptyScalarPosition(end: number, before: readonly SourceToken[]): number {
  let offset = end;
  for (let i = before.length - 1; i >= 0; --i) {
    const t = before[i]!;
    if (t.type === "space" || t.type === "comment" || t.type === "newline") {
      offset -= t.source.length;
      continue;
    }
    for (let j = i + 1; before[j]?.type === "space"; j++) offset += before[j]!.source.length;
    break;
  }
  return offset;
}
