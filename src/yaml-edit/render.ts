/**
 * Values as YAML text that fits where it is put: as a block map's value after `key:`, as a block
 * sequence's item after `- `, inside a flow collection, or as a new `key: value` line or `- item` line.
 * The `yaml` library writes the text (quoting, escapes, block scalars); this module only places it at
 * the indentation the file uses. A string keeps the style of the scalar it replaces where that style
 * can hold it (plain, single or double quotes, a block literal); the library falls back to one that can.
 */
import { Document, isMap, isScalar, isSeq, Scalar, type ToStringOptions } from "yaml";

/** How the file indents: the step of a nested block collection, and whether a map's list is indented. */
export interface Indentation {
  step: number;
  indentSeq: boolean;
  /** The file's line break (`\r\n` when the file uses it). */
  newline: string;
}

/** Scalar styles as the `yaml` library names them (`Scalar.PLAIN`, …). */
export type ScalarStyle = Scalar.Type;

/** What a value should look like: flow collections, and the style of its strings where one is wanted. */
export interface Look {
  flow?: boolean;
  style?: ScalarStyle | undefined;
  /**
   * A node of the file the new value should look like (the item it replaces, or a neighbour): its flow
   * collections and quoted strings are written the same way where the new value has the same keys.
   */
  like?: unknown;
}

const BASE: ToStringOptions = {
  lineWidth: 0,
  minContentWidth: 0,
  doubleQuotedAsJSON: true,
  flowCollectionPadding: false,
};

/**
 * YAML text with DEL and the C1 control characters (which `yaml` leaves raw inside double quotes)
 * written as `\uXXXX` escapes, so a written file cannot drive the terminal it is shown on. Sound because
 * YAML counts them as non-printable: every string holding one is double-quoted, where the escape means
 * the same character.
 */
export function printableYaml(text: string): string {
  return text.replace(
    /[\u007f-\u0084\u0086-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Writes `made` as `like` is written: flow where it is flow, quoted where its strings are quoted. */
function mimic(made: unknown, like: unknown): void {
  if (isMap(made) && isMap(like)) {
    if (like.flow) made.flow = true;
    for (const pair of made.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const twin = like.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
      if (twin) mimic(pair.value, twin.value);
    }
  } else if (isSeq(made) && isSeq(like)) {
    if (like.flow) made.flow = true;
    const first = like.items[0];
    for (const item of made.items) mimic(item, first);
  } else if (
    isScalar(made) &&
    isScalar(like) &&
    typeof made.value === "string" &&
    typeof like.value === "string"
  ) {
    if (like.type === Scalar.QUOTE_DOUBLE || like.type === Scalar.QUOTE_SINGLE) made.type = like.type;
  }
}

/** A block scalar cannot start with a space or hold only spaces without an indentation indicator. */
function fits(value: string, style: ScalarStyle): boolean {
  if (style !== Scalar.BLOCK_LITERAL && style !== Scalar.BLOCK_FOLDED) return true;
  return value.trim() !== "" && !/^\s/.test(value);
}

function node(doc: Document, value: unknown, look: Look): unknown {
  const made = doc.createNode(value);
  if (look.like !== undefined) mimic(made, look.like);
  if (look.style && isScalar(made) && typeof value === "string" && fits(value, look.style))
    made.type = look.style;
  if (look.flow && (isMap(made) || isSeq(made))) made.flow = true;
  return made;
}

function write(value: unknown, indent: Indentation, look: Look, wrap: "map" | "seq" | "flow"): string {
  const doc = new Document();
  const inner = node(doc, value, look);
  if (wrap === "map") {
    const map = doc.createNode({ __k: null });
    if (isMap(map)) (map.items[0] as { value: unknown }).value = inner;
    doc.contents = map as never;
  } else {
    const seq = doc.createNode([null]);
    if (isSeq(seq)) (seq.items as unknown[])[0] = inner;
    if (isSeq(seq) && wrap === "flow") seq.flow = true;
    doc.contents = seq as never;
  }
  const text = doc
    .toString({ ...BASE, indent: indent.step, indentSeq: indent.indentSeq })
    .replace(/\n+$/, "");
  return printableYaml(text);
}

/** Re-indents the lines after the first by `column` spaces and uses the file's line break. */
function place(text: string, column: number, indent: Indentation): string {
  const pad = " ".repeat(column);
  return text
    .split("\n")
    .map((line, i) => (i === 0 || line === "" ? line : pad + line))
    .join(indent.newline);
}

/**
 * The text after `key:` of a block map whose key starts at `column`: ` value` on the same line, or a
 * line break and the block collection below it.
 */
export function afterColon(value: unknown, column: number, indent: Indentation, look: Look = {}): string {
  const text = write(value, indent, look, "map");
  return place(text.slice("__k:".length), column, indent);
}

/** The text after `- ` of a block sequence whose dash is at `column` (a block map continues below). */
export function afterDash(value: unknown, column: number, indent: Indentation, look: Look = {}): string {
  const text = write(value, indent, look, "seq");
  return place(text.slice("- ".length), column, indent);
}

/** One `key: value` entry of a block map at `column`, without its indentation on the first line. */
export function entryLine(
  key: string,
  value: unknown,
  column: number,
  indent: Indentation,
  look: Look = {},
): string {
  return `${keyText(key)}:${afterColon(value, column, indent, look)}`;
}

/** The value inside a flow collection: always one line (a multi-line string double-quoted). */
export function flowText(value: unknown, look: Look = {}): string {
  const style =
    look.style === Scalar.BLOCK_LITERAL || look.style === Scalar.BLOCK_FOLDED ? undefined : look.style;
  const text = write(
    value,
    { step: 2, indentSeq: true, newline: "\n" },
    { flow: true, style, like: look.like },
    "flow",
  );
  // `[value]`, written in a flow context; a string the library breaks over lines is written as JSON.
  const one = text.slice(1, -1);
  if (!one.includes("\n")) return one;
  return printableYaml(JSON.stringify(value));
}

/** A whole document's text (a new root), in block style unless `look` asks for flow. */
export function documentText(value: unknown, indent: Indentation, look: Look = {}): string {
  const doc = new Document();
  doc.contents = node(doc, value, look) as never;
  const text = doc
    .toString({ ...BASE, indent: indent.step, indentSeq: indent.indentSeq })
    .replace(/\n+$/, "");
  return printableYaml(text).split("\n").join(indent.newline);
}

/** A flow key: `key` as the library writes it (quoted when it must be). */
export function keyText(key: string): string {
  return flowText(key);
}
