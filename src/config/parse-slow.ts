/**
 * The reference path: the `yaml` library's Composer builds its document tree from the parse's tokens
 * (exactly what `parseDocument` does, without parsing again), and our own walk converts that tree,
 * refusing what a config never needs and an attacker might send: `__proto__` / `constructor` /
 * `prototype` keys (no object is ever given such an own key, so nothing downstream can pollute a
 * prototype), non-scalar keys, nesting deeper than MAX_DEPTH, and alias expansion beyond
 * MAX_ALIAS_COUNT resolutions, MAX_NODES values or MAX_EXPANDED_CHARS characters of text (alias bombs,
 * bounded by the size of what they expand to). Every diagnostic about YAML itself comes from here:
 * the direct path (parse-fast.ts) hands any file it is unsure about to this one.
 */
import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  visit,
  type YAMLError,
  YAMLParseError,
} from "yaml";
import { orList } from "../words.js";
import type { Diagnostics } from "./diagnostics.js";
import { excerpt } from "./excerpt.js";
import {
  FORBIDDEN_KEYS,
  MAX_ALIAS_COUNT,
  MAX_DEPTH,
  MAX_EXPANDED_CHARS,
  MAX_MAP_ENTRIES,
  MAX_NODES,
  type NodePlace,
  type ParsedFile,
} from "./parse-types.js";

const OPTIONS = { uniqueKeys: true, prettyErrors: false, version: "1.2" } as const;

class Refusal extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The first document composed from the tokens, with the error `parseDocument` adds when there are
 * more (the Composer sees the tokens in the same order either way, so the result is the same).
 */
function composeDocument(tokens: readonly CST.Token[], length: number): Document.Parsed {
  const composer = new Composer(OPTIONS);
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens, true, length)) {
    if (doc === undefined) doc = next;
    else {
      const at = next.range.slice(0, 2) as [number, number];
      doc.errors.push(new YAMLParseError(at, "MULTIPLE_DOCS", "Source contains multiple documents"));
      break;
    }
  }
  return doc!;
}

/** Returns undefined (with diagnostics) when the file cannot be used at all. */
export function composeFile(
  path: string,
  text: string,
  tokens: readonly CST.Token[],
  position: ParsedFile["position"],
  diags: Diagnostics,
  listKeys: readonly string[] = [],
): ParsedFile | undefined {
  const crowded = crowdedMapping(tokens);
  if (crowded !== undefined) {
    const at = position(crowded);
    diags.error(path, at.line, at.column, `a mapping with more than ${MAX_MAP_ENTRIES} keys is not read`);
    return undefined;
  }
  // Checked on the tokens, without recursion: the Composer recurses on nesting, and whether an absurd
  // depth exhausts its stack (one error) or leaves it errors at many levels depends on how much stack
  // its frames take, which changes once the engine has optimised them; this refusal is one, always.
  const deep = tooDeep(tokens);
  if (deep !== undefined) {
    const at = position(deep);
    diags.error(path, at.line, at.column, `nesting deeper than ${MAX_DEPTH} levels`);
    return undefined;
  }
  let doc: Document.Parsed;
  try {
    doc = composeDocument(tokens, text.length);
  } catch (error) {
    // The Composer recurses on nesting; absurd depth exhausts the stack before our own check can run.
    const message =
      error instanceof RangeError ? `nesting deeper than ${MAX_DEPTH} levels` : "YAML cannot be parsed";
    diags.error(path, 1, 1, message);
    return undefined;
  }
  const report = (e: YAMLError, severity: "error" | "warning") => {
    const at = position(e.pos[0]);
    diags.add(severity, path, at.line, at.column, yamlMessage(e, text));
  };
  for (const e of doc.errors) report(e, "error");
  for (const e of doc.warnings) report(e, "warning");
  if (doc.errors.length > 0) return undefined;
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    diags.error(path, 1, 1, `file is empty: expected a mapping with ${orList(["project", ...listKeys])}`);
    return undefined;
  }
  const root = doc.contents as Node;
  const targets = aliasTargets(doc);
  let aliases = 0;
  let nodes = 0;
  let chars = 0;
  // Past these limits, the refusal points at the alias being expanded (what the author wrote there).
  const count = (node: Node, text: string, via: Node | undefined) => {
    chars += text.length;
    if (chars > MAX_EXPANDED_CHARS) {
      throw new Refusal(offsetOf(via ?? node), "document expands to too much text (an alias bomb?)");
    }
  };
  const convert = (node: Node, depth: number, via: Node | undefined): unknown => {
    if (depth > MAX_DEPTH) throw new Refusal(offsetOf(node), `nesting deeper than ${MAX_DEPTH} levels`);
    nodes += 1;
    if (nodes > MAX_NODES) {
      throw new Refusal(offsetOf(via ?? node), "document expands to too many values (an alias bomb?)");
    }
    if (isAlias(node)) {
      aliases += 1;
      if (aliases > MAX_ALIAS_COUNT) {
        throw new Refusal(offsetOf(node), `more than ${MAX_ALIAS_COUNT} alias expansions (an alias bomb?)`);
      }
      const target = targets().get(node);
      if (target === undefined)
        throw new Refusal(offsetOf(node), `unknown alias *${excerpt(node.source, 60)}`);
      return convert(target, depth + 1, node);
    }
    if (isScalar(node)) {
      if (typeof node.value === "string") count(node, node.value, via);
      return node.value;
    }
    if (isSeq(node)) {
      const list: unknown[] = [];
      for (const item of node.items) list.push(convert(item as Node, depth + 1, via));
      return list;
    }
    if (isMap(node)) {
      const object: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const keyAt = keyNode?.range?.[0] ?? offsetOf(node);
        if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === "object") {
          throw new Refusal(keyAt, "mapping keys must be plain text");
        }
        const key = String(keyNode.value);
        if (FORBIDDEN_KEYS.has(key)) throw new Refusal(keyAt, `key "${key}" is not allowed`);
        count(keyNode, key, via);
        const valueNode = pair.value as Node | null;
        object[key] = valueNode === null ? null : convert(valueNode, depth + 1, via);
      }
      return object;
    }
    throw new Refusal(0, "unsupported YAML node");
  };
  try {
    const data = convert(root, 0, undefined);
    return { path, data, position, place: (at) => locate(root, targets, at) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const at = position(error.offset);
    diags.error(path, at.line, at.column, error.message);
    return undefined;
  }
}

const offsetOf = (node: Node) => node.range?.[0] ?? 0;

/**
 * Where the first mapping with more than MAX_MAP_ENTRIES entries starts, if any: the Composer checks
 * every key against all earlier ones, so such a mapping must be refused before composing. An explicit
 * stack, not recursion: the tokens may nest tens of thousands deep.
 */
function crowdedMapping(tokens: readonly CST.Token[]): number | undefined {
  let first: number | undefined;
  const stack: (CST.Token | null | undefined)[] = [...tokens];
  while (stack.length > 0) {
    const token = stack.pop();
    if (token === undefined || token === null) continue;
    if (token.type === "document") stack.push(token.value);
    else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      let entries = 0;
      for (const item of token.items) {
        if (item.key !== undefined || item.sep !== undefined) entries += 1;
        stack.push(item.key, item.value);
      }
      const isMap =
        token.type === "block-map" || (token.type === "flow-collection" && token.start.source === "{");
      if (isMap && entries > MAX_MAP_ENTRIES && (first === undefined || token.offset < first))
        first = token.offset;
    }
  }
  return first;
}

/**
 * The offset of the first value nested deeper than MAX_DEPTH collections (the depth `convert` counts,
 * the document's value at 0), walking the tokens with a stack of its own; undefined when none is.
 */
function tooDeep(tokens: readonly CST.Token[]): number | undefined {
  let first: number | undefined;
  const stack: Array<[CST.Token | null | undefined, number]> = tokens.map((t) => [t, 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (token === undefined || token === null) continue;
    if (token.type === "document") {
      stack.push([token.value, 0]);
      continue;
    }
    if (depth > MAX_DEPTH) {
      if (first === undefined || token.offset < first) first = token.offset;
      continue;
    }
    if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      for (const item of token.items) stack.push([item.value, depth + 1]);
    }
  }
  return first;
}

type Targets = () => ReadonlyMap<Node, Node>;

/**
 * Each alias's anchored node: the last node before it with that anchor (as `Alias.resolve` finds it,
 * but in one pass over the document instead of one per alias). Built on the first alias met.
 */
function aliasTargets(doc: Document): Targets {
  let map: Map<Node, Node> | undefined;
  return () => {
    if (map !== undefined) return map;
    const found = new Map<Node, Node>();
    const anchors = new Map<string, Node>();
    visit(doc, {
      Node: (_key, node) => {
        if (isAlias(node)) {
          const target = anchors.get(node.source);
          if (target !== undefined) found.set(node, target);
        } else if (node.anchor) anchors.set(node.anchor, node);
      },
    });
    map = found;
    return map;
  };
}

/** Walks the YAML tree along a JSON pointer (through aliases: the conversion already bounded them). */
function locate(root: Node, targets: Targets, at: string): NodePlace | undefined {
  let node: Node | null | undefined = root;
  let place: NodePlace = { value: root.range?.[0] ?? 0 };
  if (at === "") return place;
  for (const raw of at.slice(1).split("/")) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    for (let hops = 0; isAlias(node) && hops < MAX_ALIAS_COUNT; hops++) node = targets().get(node);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      if (pair === undefined) return undefined;
      const key = pair.key as Node;
      node = pair.value as Node | null;
      const keyAt = key.range?.[0] ?? 0;
      place = { key: keyAt, value: node?.range?.[0] ?? key.range?.[1] ?? keyAt };
    } else if (isSeq(node)) {
      node = node.items[Number(segment)] as Node | undefined;
      if (node === undefined) return undefined;
      place = { value: node.range?.[0] ?? 0 };
    } else {
      return undefined;
    }
  }
  return place;
}

/**
 * The parser's message with a friendlier wording for the usual cases. Messages that quote the source
 * (an unexpected token, a duplicate key) quote at most one line, cut short (excerpt.ts).
 */
function yamlMessage(e: YAMLError, text: string): string {
  if (e.code === "DUPLICATE_KEY") {
    const key = /^[^\n:#]*/.exec(text.slice(e.pos[0], e.pos[0] + 200))?.[0]?.trim();
    return key ? `duplicate key "${excerpt(key.replace(/^["']|["']$/g, ""), 60)}"` : "duplicate key";
  }
  if (e.code === "MULTIPLE_DOCS")
    return "a file holds one YAML document: remove the --- separator or split the file";
  if (e.message.includes("call stack")) return `nesting deeper than ${MAX_DEPTH} levels`;
  const first = e.message.split("\n")[0] ?? e.message;
  return `YAML syntax error: ${excerpt(first.replace(/ at line \d+, column \d+:?$/, ""))}`;
}
