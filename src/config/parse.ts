/**
 * YAML text → plain data, plus a lookup from the JSON pointers ajv reports (`/dashboards/0/name`) to
 * the source offset of that key and value. The conversion is our own walk over the YAML tree rather
 * than `toJS()`, so that it can refuse what a config never needs and an attacker might send:
 * `__proto__` / `constructor` / `prototype` keys (no object is ever given such an own key, so nothing
 * downstream can pollute a prototype), non-scalar keys, nesting deeper than MAX_DEPTH, and alias
 * expansion beyond MAX_ALIAS_COUNT resolutions or MAX_NODES nodes (alias bombs).
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type YAMLError,
} from "yaml";
import type { Diagnostics } from "./diagnostics.js";

export const MAX_DEPTH = 64;
export const MAX_ALIAS_COUNT = 100;
const MAX_NODES = 1_000_000;
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Offsets into the file's text; `key` is absent for the document root and list items. */
export interface NodePlace {
  key?: number;
  value: number;
}

export interface ParsedFile {
  path: string;
  data: unknown;
  lines: LineCounter;
  /** Where the node at a JSON pointer was written (looked up on demand: only diagnostics and sources need it). */
  place(pointer: string): NodePlace | undefined;
}

export function position(lines: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
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
export function parseYaml(path: string, text: string, diags: Diagnostics): ParsedFile | undefined {
  const lines = new LineCounter();
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, version: "1.2" });
  } catch (error) {
    // The parser recurses on nesting; absurd depth exhausts the stack before our own check can run.
    const message =
      error instanceof RangeError ? `nesting deeper than ${MAX_DEPTH} levels` : "YAML cannot be parsed";
    diags.error(path, 1, 1, message);
    return undefined;
  }
  const report = (e: YAMLError, severity: "error" | "warning") => {
    const at = position(lines, e.pos[0]);
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
    return { path, data, lines, place: (at) => locate(doc, root, at) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const at = position(lines, error.offset);
    diags.error(path, at.line, at.column, error.message);
    return undefined;
  }
}

/** Walks the YAML tree along a JSON pointer (through aliases: the conversion already bounded them). */
function locate(doc: Document, root: Node, at: string): NodePlace | undefined {
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
