/**
 * The reference YAML path: the `yaml` library's document tree, converted by our own walk that refuses
 * what a config never needs and an attacker might send: `__proto__` / `constructor` / `prototype` keys
 * (no object is ever given such an own key, so nothing downstream can pollute a prototype), non-scalar
 * keys, nesting deeper than MAX_DEPTH, and alias expansion beyond MAX_ALIAS_COUNT resolutions or
 * MAX_NODES nodes (alias bombs). Every diagnostic about YAML itself comes from here: the fast path
 * (parse-fast.ts) hands any file it is unsure about to this one.
 */
import { createRequire } from "node:module";
import type { Document, Node, YAMLError } from "yaml";
import type { Diagnostics } from "./diagnostics.js";
import {
  FORBIDDEN_KEYS,
  MAX_ALIAS_COUNT,
  MAX_DEPTH,
  MAX_NODES,
  type NodePlace,
  type ParsedFile,
} from "./parse-types.js";

const OPTIONS = { uniqueKeys: true, prettyErrors: false, version: "1.2" } as const;

type Yaml = typeof import("yaml");
let loaded: Yaml | undefined;

/** The `yaml` library, loaded on first need: a run whose files all take the fast path never pays for it. */
function yaml(): Yaml {
  loaded ??= createRequire(import.meta.url)("yaml") as Yaml;
  return loaded;
}

class Refusal extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Returns undefined (with diagnostics) when the file cannot be used at all. */
export function parseSlow(path: string, text: string, diags: Diagnostics): ParsedFile | undefined {
  const { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const position = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { ...OPTIONS, lineCounter: lines });
  } catch (error) {
    // The parser recurses on nesting; absurd depth exhausts the stack before our own check can run.
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
    diags.error(path, 1, 1, "file is empty: expected a mapping with project, dashboards or batch_exports");
    return undefined;
  }
  let aliases = 0;
  let nodes = 0;
  const convert = (node: Node, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new Refusal(node.range?.[0] ?? 0, `nesting deeper than ${MAX_DEPTH} levels`);
    nodes += 1;
    if (nodes > MAX_NODES) throw new Refusal(node.range?.[0] ?? 0, "document expands to too many values");
    if (isAlias(node)) {
      aliases += 1;
      if (aliases > MAX_ALIAS_COUNT) {
        throw new Refusal(
          node.range?.[0] ?? 0,
          `more than ${MAX_ALIAS_COUNT} alias expansions (an alias bomb?)`,
        );
      }
      const target = node.resolve(doc);
      if (target === undefined) throw new Refusal(node.range?.[0] ?? 0, `unknown alias *${node.source}`);
      return convert(target, depth + 1);
    }
    if (isScalar(node)) return node.value;
    if (isSeq(node)) {
      const list: unknown[] = [];
      for (const item of node.items) list.push(convert(item as Node, depth + 1));
      return list;
    }
    if (isMap(node)) {
      const object: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const keyAt = keyNode?.range?.[0] ?? node.range?.[0] ?? 0;
        if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === "object") {
          throw new Refusal(keyAt, "mapping keys must be plain text");
        }
        const key = String(keyNode.value);
        if (FORBIDDEN_KEYS.has(key)) throw new Refusal(keyAt, `key "${key}" is not allowed`);
        const valueNode = pair.value as Node | null;
        object[key] = valueNode === null ? null : convert(valueNode, depth + 1);
      }
      return object;
    }
    throw new Refusal(0, "unsupported YAML node");
  };
  try {
    const data = convert(doc.contents as Node, 0);
    const root = doc.contents as Node;
    return { path, data, position, place: (at) => locate(doc, root, at) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const at = position(error.offset);
    diags.error(path, at.line, at.column, error.message);
    return undefined;
  }
}

/**
 * Where the node at a pointer was written, from a fresh parse of text that already parsed cleanly
 * (the fast path asks this for keys and scalars, which it does not record).
 */
export function slowPlaces(text: string): (pointer: string) => NodePlace | undefined {
  const doc = yaml().parseDocument(text, OPTIONS);
  const root = doc.contents as Node | null;
  return (pointer) => (root === null ? undefined : locate(doc, root, pointer));
}

/** Walks the YAML tree along a JSON pointer (through aliases: the conversion already bounded them). */
function locate(doc: Document, root: Node, at: string): NodePlace | undefined {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  let node: Node | null | undefined = root;
  let place: NodePlace = { value: root.range?.[0] ?? 0 };
  if (at === "") return place;
  for (const raw of at.slice(1).split("/")) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    for (let hops = 0; isAlias(node) && hops < MAX_ALIAS_COUNT; hops++) node = node.resolve(doc);
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

/** The parser's message without its "at line …" tail and source excerpt, with a friendlier wording for the usual cases. */
function yamlMessage(e: YAMLError, text: string): string {
  if (e.code === "DUPLICATE_KEY") {
    const key = /^[^\n:#]*/.exec(text.slice(e.pos[0], e.pos[0] + 200))?.[0]?.trim();
    return key ? `duplicate key "${key.replace(/^["']|["']$/g, "")}"` : "duplicate key";
  }
  if (e.code === "MULTIPLE_DOCS")
    return "a file holds one YAML document: remove the --- separator or split the file";
  if (e.message.includes("call stack")) return `nesting deeper than ${MAX_DEPTH} levels`;
  const first = e.message.split("\n")[0] ?? e.message;
  return `YAML syntax error: ${first.replace(/ at line \d+, column \d+:?$/, "")}`;
}
