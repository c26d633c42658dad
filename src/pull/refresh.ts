/**
 * `pull --refresh`: the configuration files get the live values of the fields that differ, and nothing
 * else changes. Each field is one edit of src/yaml-edit at its path in the item: the value is written
 * where it stands, in the file's own style, and only what differs is rewritten (a rollout change is one
 * line, an added collaborator or tile one new item), so comments, order, `variables:`, keys the live
 * item does not have, and every byte around the value stay as they were. A value written with a
 * `${NAME}` reference is never rewritten (the live value is what the reference gave, or it drifted: the
 * user decides), and said so.
 */
import { isMap, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from "yaml";
import { scan } from "../config/interpolate.js";
import { editYaml, type YamlEdit } from "../yaml-edit/index.js";

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

/** A string written with a `${NAME}` reference: what the file says, never replaced by its value. */
function holdsReference(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const scanned = scan(value);
  return scanned.ok && scanned.references.length > 0;
}

export function refreshText(text: string, fields: readonly FieldRefresh[]): Refreshed {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const changed: string[] = [];
  const kept: string[] = [];
  const edits: YamlEdit[] = [];
  const names: string[] = [];
  for (const field of fields) {
    const name = `${field.path.join(".")} of ${field.owner}`;
    const index = itemIndex(doc.contents, field, lines);
    if (index === undefined) {
      kept.push(`${name}: not written in the file, so not managed`);
      continue;
    }
    edits.push({ set: [field.key, index, ...field.path], value: field.value, create: false });
    names.push(name);
  }
  const result = editYaml(text, edits, { protect: holdsReference });
  for (const [i, outcome] of result.outcomes.entries()) {
    const name = names[i] as string;
    if (outcome.status === "changed") changed.push(name);
    else if (outcome.status === "absent") kept.push(`${name}: not written in the file, so not managed`);
    else if (outcome.status === "refused") {
      kept.push(
        outcome.reason?.endsWith("which is kept as written")
          ? `${name}: written with a \${NAME} reference, kept as it is`
          : `${name}: ${outcome.reason ?? "not written"}`,
      );
    }
  }
  return { text: result.text, changed, kept };
}

/** The index of the item of `field.key` whose first key sits at the loader's line and column. */
function itemIndex(root: unknown, field: FieldRefresh, lines: LineCounter): number | undefined {
  if (!isMap(root)) return undefined;
  const list = root.get(field.key, true);
  if (!isSeq(list)) return undefined;
  for (const [index, item] of list.items.entries()) {
    if (!isMap(item) || !item.range) continue;
    const first = (item as YAMLMap).items[0]?.key as Node | undefined;
    const at = lines.linePos(first?.range?.[0] ?? item.range[0]);
    if (at.line === field.line && at.col === field.column) return index;
  }
  return undefined;
}
