/**
 * `pull --refresh`: the configuration files get the live values of the fields that differ, and nothing
 * else changes: each new value replaces only the source text of the old one (found through the `yaml`
 * library's document and LineCounter), so comments, order, `variables:`, keys the live item does not
 * have, and every byte around the value stay as they were. A field written with a `${NAME}` reference
 * is kept (the live value is what the reference gave, or it drifted: the user decides), and said so.
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, stringify, type YAMLMap } from "yaml";
import { scan } from "../config/interpolate.js";
import { printableYaml, YAML_TEXT } from "./escape.js";

/** One field of one declared item to set to its live value. */
export interface FieldRefresh {
  /** The item's list key, e.g. `dashboards`. */
  key: string;
  /** Where the item starts (its first key), as the loader reported it. */
  line: number;
  column: number;
  /** The field inside the item, e.g. ["destination", "config", "prefix"]. */
  path: string[];
  /** The YAML-level live value (already escaped: live `${` is `$${`). */
  value: unknown;
  /** How messages name the object, e.g. `dashboard "Weekly KPIs"`. */
  owner: string;
}

export interface Refreshed {
  text: string;
  /** Fields whose value was replaced. */
  changed: string[];
  /** Fields left as written, and why. */
  kept: string[];
}

export function refreshText(text: string, fields: readonly FieldRefresh[]): Refreshed {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const edits: { start: number; end: number; text: string }[] = [];
  const changed: string[] = [];
  const kept: string[] = [];
  for (const field of fields) {
    const name = `${field.path.join(".")} of ${field.owner}`;
    const item = findItem(doc.contents, field, lines);
    const node = item ? nodeAt(item, field.path) : undefined;
    if (!node?.range) {
      kept.push(`${name}: not written in the file, so not managed`);
      continue;
    }
    if (hasReference(node)) {
      kept.push(`${name}: written with a \${NAME} reference, kept as it is`);
      continue;
    }
    const [start, rangeEnd] = node.range;
    // A block collection's range runs to the line break after it: that break stays.
    const end = start + text.slice(start, rangeEnd).trimEnd().length;
    edits.push({ start, end, text: yamlValue(field.value) });
    changed.push(name);
  }
  // From the end backwards, so the offsets of earlier edits stay right.
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return { text: out, changed, kept };
}

/** The item of `field.key` whose first key sits at the loader's line and column. */
function findItem(root: unknown, field: FieldRefresh, lines: LineCounter): YAMLMap | undefined {
  if (!isMap(root)) return undefined;
  const list = root.get(field.key, true);
  if (!isSeq(list)) return undefined;
  for (const item of list.items) {
    if (!isMap(item) || !item.range) continue;
    const first = item.items[0]?.key as Node | undefined;
    const at = lines.linePos(first?.range?.[0] ?? item.range[0]);
    if (at.line === field.line && at.col === field.column) return item;
  }
  return undefined;
}

function nodeAt(item: YAMLMap, path: readonly string[]): Node | undefined {
  let node: unknown = item;
  for (const part of path) {
    if (!isMap(node)) return undefined;
    node = node.get(part, true);
  }
  return node as Node | undefined;
}

/** True when any string under the node holds a `${NAME}` reference. */
function hasReference(node: unknown): boolean {
  if (isScalar(node)) {
    const scanned = typeof node.value === "string" ? scan(node.value) : undefined;
    return scanned?.ok === true && scanned.references.length > 0;
  }
  if (isSeq(node)) return node.items.some(hasReference);
  if (isMap(node)) return node.items.some((pair) => hasReference(pair.value));
  return false;
}

/**
 * The value as YAML text that fits where the old value stood, on one line: a scalar as YAML writes it
 * (text with line breaks double-quoted), a collection in flow style (`[a, b]`, `{enabled: true}`),
 * which reads the same wherever a block one stood.
 */
function yamlValue(value: unknown): string {
  if (typeof value === "string" && /[\r\n]/.test(value)) return printableYaml(JSON.stringify(value));
  const flow = value !== null && typeof value === "object";
  const options = {
    ...YAML_TEXT,
    flowCollectionPadding: false,
    ...(flow ? { collectionStyle: "flow" as const } : {}),
  };
  return printableYaml(stringify(value, options).trimEnd());
}
