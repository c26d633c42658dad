/**
 * Which edits of the shared files carry an environment's live values (SPEC §9 "Promotion"), pure.
 *
 * For each field whose live value differs from what the environment's merged declarations say (a
 * verb's `refreshes`), the live value is laid over the merged value node by node, and each node goes
 * back to where it was written (`MergedDocument.origins`):
 *
 * - a node an overlay set, added, replaced or left unmanaged, or that a variable or a secret mapping
 *   gave, stays as it is: the difference is the environment's own, and is listed as kept, with where;
 * - every other node belongs to a shared file: its new value is written there, and only what differs
 *   is new, so mappings keep their keys and lists the items that did not change (`${NAME}` references
 *   among them), and src/yaml-edit changes the file's text no more than that;
 * - a secret's placeholder never replaces what the file says.
 *
 * Lists are aligned on their longest run of equal items; an entry an overlay excluded keeps its place
 * in the shared list, and an entry an overlay added has none there.
 */
import { isDeepStrictEqual } from "node:util";
import { childPointer, type MergedDocument, splitPointer } from "../config/environments/document.js";
import type { Mark } from "../config/environments/types.js";
import type { SourceRef } from "../config/types.js";
import { escapeLive } from "../pull/escape.js";
import { Placeholder } from "../pull/kinds.js";
import { align } from "../yaml-edit/index.js";

type Data = Record<string, unknown>;

/** One field of one merged declaration whose live value differs. */
export interface FieldPromotion {
  /** The declaration's pointer in the merged document: `/feature_flags/1`. */
  item: string;
  /** The field inside it, as its kind's verb names it: `["filters", "groups"]`. */
  path: readonly string[];
  /** The live value there as `pull` writes it (`Placeholder`s for secrets; live `${` not yet escaped). */
  live: unknown;
  /** How outputs name the object: `feature flag "new-checkout"`. */
  owner: string;
}

/** A difference that stays where it is, and why. */
export interface Kept {
  owner: string;
  /** Dotted path inside the declaration: `filters.groups.1.rollout_percentage`. */
  field: string;
  why: string;
  /** Where the value that stays was written (the overlay's line, the variable's entry). */
  source?: SourceRef;
}

/** One edit of one shared file: the value at `set` (a path from the file's root) becomes `value`. */
export interface SharedEdit {
  set: (string | number)[];
  value: unknown;
  owner: string;
  field: string;
}

export interface PromotionEdits {
  /** By file path (as loaded), in the order first met. */
  files: Map<string, SharedEdit[]>;
  kept: Kept[];
}

/** What marks mean for a value promoted over them. */
const HOLDS = new Set<Mark["how"]>(["set", "added", "replaced", "unmanaged", "variable", "secret"]);

/**
 * `shared`: the files an edit may go to (the shared files both environments read); `elsewhere` says
 * why a field written in another file stays (default: it is the environment's own).
 */
export function promotionEdits(
  doc: MergedDocument,
  promotions: readonly FieldPromotion[],
  shared: ReadonlySet<string>,
  elsewhere: (file: string) => string = () => `declared in ${doc.environment}'s own files`,
): PromotionEdits {
  const out: PromotionEdits = { files: new Map(), kept: [] };
  for (const promotion of promotions) {
    const pointer = promotion.path.reduce(childPointer, promotion.item);
    const merged = valueAt(doc.data, pointer);
    const builder = new Rebuild(doc, promotion, out.kept);
    if (builder.held(pointer, merged, promotion.live)) continue;
    const found = doc.origins.find(pointer);
    const field = fieldOf(promotion.item, pointer);
    if (found === undefined || !shared.has(found.origin.file.path)) {
      out.kept.push({ owner: promotion.owner, field, why: elsewhere(found?.origin.file.path ?? "") });
      continue;
    }
    if (promotion.live === undefined) {
      out.kept.push({
        owner: promotion.owner,
        field,
        why: "its live value is not one a file can hold (empty); change the shared file by hand",
      });
      continue;
    }
    const file = found.origin.file;
    const source = found.origin.pointer + found.rest.map((s) => `/${s}`).join("");
    const before = valueAt(file.data, source);
    const after = builder.value(pointer, merged, promotion.live, before);
    if (after === undefined || isDeepStrictEqual(after, before)) continue;
    const edits = out.files.get(file.path) ?? [];
    edits.push({ set: yamlPath(file.data, source), value: after, owner: promotion.owner, field });
    out.files.set(file.path, edits);
  }
  return out;
}

/** The value at a JSON pointer; undefined where there is none. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of splitPointer(pointer).map(unescapeSegment)) {
    if (Array.isArray(node)) node = /^\d+$/.test(segment) ? node[Number(segment)] : undefined;
    else if (node !== null && typeof node === "object") node = (node as Data)[segment];
    else return undefined;
  }
  return node;
}

const unescapeSegment = (s: string) => s.replaceAll("~1", "/").replaceAll("~0", "~");

/** The path src/yaml-edit takes for a pointer into `root`: list indexes as numbers. */
function yamlPath(root: unknown, pointer: string): (string | number)[] {
  const out: (string | number)[] = [];
  let node = root;
  for (const segment of splitPointer(pointer).map(unescapeSegment)) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) {
      out.push(Number(segment));
      node = node[Number(segment)];
    } else {
      out.push(segment);
      node = node !== null && typeof node === "object" ? (node as Data)[segment] : undefined;
    }
  }
  return out;
}

/** `filters.groups.1` for a pointer below the item's. */
function fieldOf(item: string, pointer: string): string {
  return splitPointer(pointer.slice(item.length)).map(unescapeSegment).join(".");
}

function hasPlaceholder(value: unknown): boolean {
  if (value instanceof Placeholder) return true;
  if (Array.isArray(value)) return value.some(hasPlaceholder);
  if (value !== null && typeof value === "object") return Object.values(value).some(hasPlaceholder);
  return false;
}

/** A live value as a file writes it: live `${` as `$${` (never a lookup). */
function escaped(value: unknown): unknown {
  if (typeof value === "string") return escapeLive(value);
  if (Array.isArray(value)) return value.map(escaped);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escaped(v)]));
  return value;
}

function isMap(value: unknown): value is Data {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Placeholder)
  );
}

/** The shared value of one promoted field, node by node. */
class Rebuild {
  constructor(
    readonly doc: MergedDocument,
    readonly promotion: FieldPromotion,
    readonly kept: Kept[],
  ) {}

  /** True (and kept, said why) when the value at `pointer` is the environment's own and differs. */
  held(pointer: string, merged: unknown, live: unknown): boolean {
    const mark = this.holding(pointer);
    if (mark === undefined) return false;
    if (!this.same(merged, live)) {
      this.kept.push({
        owner: this.promotion.owner,
        field: fieldOf(this.promotion.item, pointer),
        why: this.why(mark),
        source: mark.source,
      });
    }
    return true;
  }

  /** Equal once live text is escaped as a file writes it; a placeholder equals what the file says. */
  same(merged: unknown, live: unknown): boolean {
    if (live instanceof Placeholder) return merged !== undefined;
    if (hasPlaceholder(live)) {
      if (Array.isArray(merged) && Array.isArray(live))
        return merged.length === live.length && merged.every((m, i) => this.same(m, live[i]));
      if (isMap(merged) && isMap(live)) {
        const keys = new Set([...Object.keys(merged), ...Object.keys(live)]);
        return [...keys].every((k) => this.same(merged[k], live[k]));
      }
      return false;
    }
    return isDeepStrictEqual(merged, escaped(live));
  }

  /** The nearest mark at or above `pointer` that makes its value the environment's own. */
  holding(pointer: string): Mark | undefined {
    let found: Mark | undefined;
    for (const mark of this.doc.marks) {
      if (!HOLDS.has(mark.how)) continue;
      if (mark.pointer !== pointer && !pointer.startsWith(`${mark.pointer}/`)) continue;
      if (found === undefined || mark.pointer.length > found.pointer.length) found = mark;
    }
    return found;
  }

  why(mark: Mark): string {
    const at = `${mark.source.file}:${mark.source.line}`;
    const env = this.doc.environment;
    switch (mark.how) {
      case "variable":
        return `from ${env}'s variable ${mark.detail ?? "?"} (${at}): a value of ${env}'s own; change the variable or the shared file by hand`;
      case "secret":
        return "a secret: never written to a file";
      case "replaced":
        return `${at} replaces the shared list in ${env}: kept there`;
      case "unmanaged":
        return `${at} leaves it unmanaged in ${env}`;
      default:
        return `set in ${at} for ${env} only: kept there`;
    }
  }

  /**
   * The new shared value of the node at `pointer` (merged value `merged`, live value `live`, the
   * shared file's value `shared`): undefined removes it.
   */
  value(pointer: string, merged: unknown, live: unknown, shared: unknown): unknown {
    if (this.same(merged, live)) return shared;
    if (live instanceof Placeholder) {
      this.secretKept(pointer, "change it by hand");
      return shared;
    }
    if (isMap(merged) && isMap(live)) return this.map(pointer, merged, live, isMap(shared) ? shared : {});
    if (Array.isArray(merged) && Array.isArray(live) && Array.isArray(shared))
      return this.list(pointer, merged, live, shared);
    if (live === undefined) return undefined;
    if (hasPlaceholder(live)) {
      this.secretKept(pointer, "change it by hand");
      return shared;
    }
    return escaped(live);
  }

  secretKept(pointer: string, what: string): void {
    this.kept.push({
      owner: this.promotion.owner,
      field: fieldOf(this.promotion.item, pointer),
      why: `holds a secret, which is never written to a file: ${what}`,
    });
  }

  map(pointer: string, merged: Data, live: Data, shared: Data): Data | undefined {
    const out: Data = { ...shared };
    const keys = [...new Set([...Object.keys(shared), ...Object.keys(merged), ...Object.keys(live)])];
    for (const key of keys) {
      const here = childPointer(pointer, key);
      if (this.held(here, merged[key], live[key])) continue;
      if (!Object.hasOwn(merged, key) && !Object.hasOwn(live, key)) continue;
      const next = this.value(here, merged[key], live[key], shared[key]);
      if (next === undefined) delete out[key];
      else out[key] = next;
    }
    return out;
  }

  /**
   * A list: the merged entries aligned with the live ones; each merged entry's place in the shared
   * list is where its origin says (an entry an overlay added has none, one it excluded keeps its own).
   */
  list(pointer: string, merged: unknown[], live: unknown[], shared: unknown[]): unknown[] {
    const home = this.doc.origins.find(pointer);
    const base =
      home === undefined ? undefined : home.origin.pointer + home.rest.map((s) => `/${s}`).join("");
    const placeOf = (i: number): number | undefined => {
      const found = this.doc.origins.find(childPointer(pointer, i));
      if (found === undefined || home === undefined || found.origin.file !== home.origin.file)
        return undefined;
      const at = found.origin.pointer + found.rest.map((s) => `/${s}`).join("");
      const tail = base !== undefined && at.startsWith(`${base}/`) ? at.slice(base.length + 1) : "";
      return /^\d+$/.test(tail) ? Number(tail) : undefined;
    };
    const comparable = live.map((v) => (hasPlaceholder(v) ? v : escaped(v)));
    const replaced = new Map<number, unknown>();
    const removed = new Set<number>();
    // New entries to put after a shared entry (-1: before the first).
    const inserted = new Map<number, unknown[]>();
    let lastPlace = -1;
    const insert = (value: unknown) => inserted.set(lastPlace, [...(inserted.get(lastPlace) ?? []), value]);
    for (const op of align(merged, comparable)) {
      const at = "old" in op ? placeOf(op.old) : undefined;
      if (op.kind === "keep") {
        if (at !== undefined) lastPlace = at;
        continue;
      }
      if (op.kind === "insert") {
        if (hasPlaceholder(live[op.new])) this.secretKept(childPointer(pointer, op.new), "add it by hand");
        else insert(escaped(live[op.new]));
        continue;
      }
      const here = childPointer(pointer, op.old);
      const mine = op.kind === "pair" ? live[op.new] : undefined;
      if (this.held(here, merged[op.old], mine)) {
        if (at !== undefined) lastPlace = at;
        else if (op.kind === "pair" && !hasPlaceholder(mine)) insert(escaped(mine));
        continue;
      }
      if (at === undefined) continue;
      lastPlace = at;
      if (op.kind === "delete") {
        removed.add(at);
        continue;
      }
      replaced.set(at, this.value(here, merged[op.old], mine, shared[at]));
    }
    const out: unknown[] = [...(inserted.get(-1) ?? [])];
    shared.forEach((entry, i) => {
      if (!removed.has(i)) out.push(replaced.has(i) ? replaced.get(i) : entry);
      out.push(...(inserted.get(i) ?? []));
    });
    return out;
  }
}
