/**
 * Path-addressed edits to the text of a YAML file that keep every other byte as it was: comments,
 * blank lines, key order, quoting, block or flow style, and the values the edits leave alone. Used by
 * `pull --refresh` (live values into the files you have) and written for any command that writes into
 * files people own.
 *
 *   editYaml(text, [
 *     { set: ["feature_flags", 0, "filters", "groups", 1, "rollout_percentage"], value: 35 },
 *     { set: ["dashboards", 2, "collaborators"], value: [{ email: "a@x", level: "can_edit" }] },
 *     { delete: ["dashboards", 2, "pinned"] },
 *   ]) → { text, outcomes }
 *
 * A path names map keys (strings) and sequence indexes (numbers) from the document's root. `set` makes
 * the value at the path equal to `value` with the smallest change of text it can: equal parts stay as
 * written, a map gets its changed keys rewritten, its missing keys added after its last entry and its
 * extra keys removed (their lines), a sequence is aligned with the new one (the longest run of equal
 * items stays; the rest are rewritten in place, removed or inserted), and a scalar is rewritten in its
 * own style where that style can hold the new value. So a rollout change is one line, an added
 * collaborator one new item. What is new is written in the file's indentation, and in flow style where
 * its neighbours are. With `create: false` a path the file does not hold is left alone (`absent`).
 * `delete` removes a key or an item.
 *
 * Every result is checked: the new text is parsed again and must hold exactly the old data with the
 * edits made. When an edit cannot be made in place (a node written on the line of its parent's dash, an
 * alias), the node at its path is written again whole; when even that does not hold, the edit is
 * `refused` and the text keeps its old form. `protect` names values that must never be rewritten or
 * removed (`pull --refresh` protects `${NAME}` references): an edit that would is refused.
 *
 * Edits apply in order, each to the result of those before it. The module imports only `yaml`.
 */
import { isDeepStrictEqual } from "node:util";
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  Scalar,
} from "yaml";
import {
  afterColon,
  afterDash,
  documentText,
  entryLine,
  flowText,
  type Indentation,
  type Look,
  printableYaml,
  type ScalarStyle,
} from "./render.js";

export { printableYaml };

export type YamlPath = readonly (string | number)[];

/** One edit: set the value at a path (creating the keys it lacks unless `create: false`), or delete it. */
export type YamlEdit = { set: YamlPath; value: unknown; create?: boolean } | { delete: YamlPath };

/**
 * What became of an edit: `changed` (the text changed), `unchanged` (the file already held the value),
 * `absent` (the path is not in the file: a delete, or a set with `create: false`), `refused` (with why).
 */
export type EditStatus = "changed" | "unchanged" | "absent" | "refused";

export interface EditOutcome {
  edit: YamlEdit;
  status: EditStatus;
  reason?: string;
}

export interface EditResult {
  text: string;
  /** One per edit, in the order given. */
  outcomes: EditOutcome[];
}

export interface EditOptions {
  /** A value an edit must not rewrite or remove (a string written with a reference): such edits are refused. */
  protect?: (value: unknown) => boolean;
}

/** Applies `edits` to the YAML `text`; see the module comment. Never throws for an edit: it is refused. */
export function editYaml(text: string, edits: readonly YamlEdit[], options: EditOptions = {}): EditResult {
  const outcomes: (EditOutcome | undefined)[] = edits.map(() => undefined);
  let pending = edits.map((edit, index) => ({ edit, index }));
  let current = text;
  // Each round makes every edit whose part of the file no earlier edit of the round touches: at least
  // one a round, so at most one round per edit.
  for (let round = 0; round <= edits.length && pending.length > 0; round++) {
    const doc = parseDocument(current, { uniqueKeys: true });
    if (doc.errors.length > 0) {
      for (const { edit, index } of pending)
        outcomes[index] = { edit, status: "refused", reason: "the file is not valid YAML" };
      break;
    }
    const source = new Source(current, doc, options);
    const accepted: Planned[] = [];
    const deferred: typeof pending = [];
    const seen: YamlPath[] = [];
    for (const item of pending) {
      // An edit within or around the path of an earlier one waits for that one's result.
      const path = pathOf(item.edit);
      if (seen.some((earlier) => related(earlier, path))) {
        seen.push(path);
        deferred.push(item);
        continue;
      }
      let planned: Planned | EditOutcome;
      try {
        planned = source.plan(item.edit, "minimal");
      } catch (error) {
        if (!(error instanceof Refused || error instanceof NotInPlace)) throw error;
        const reason = error instanceof Refused ? error.message : "it could not be written in place";
        outcomes[item.index] = { edit: item.edit, status: "refused", reason };
        continue;
      }
      if ("status" in planned) {
        outcomes[item.index] = planned;
        continue;
      }
      seen.push(path);
      if (accepted.some((a) => overlaps(a.footprint, planned.footprint))) {
        deferred.push(item);
        continue;
      }
      planned.index = item.index;
      accepted.push(planned);
    }
    pending = deferred;
    if (accepted.length === 0) continue;
    const together = source.apply(accepted);
    if (together !== undefined) {
      current = together;
      for (const a of accepted) outcomes[a.index] = { edit: a.edit, status: "changed" };
    } else {
      // One of them did not hold: each alone, in place, then written whole, then refused.
      let text = current;
      for (const a of accepted) {
        const alone = new Source(text, parseDocument(text, { uniqueKeys: true }), options);
        const made = alone.attempt(a.edit);
        if (made === undefined) {
          outcomes[a.index] = { edit: a.edit, status: "refused", reason: "it could not be written in place" };
        } else {
          text = made;
          outcomes[a.index] = { edit: a.edit, status: "changed" };
        }
      }
      current = text;
    }
  }
  for (const { edit, index } of pending) {
    outcomes[index] ??= { edit, status: "refused", reason: "it could not be written in place" };
  }
  return { text: current, outcomes: outcomes as EditOutcome[] };
}

/** A refusal that ends an edit: a protected value, an alias on its path. */
class Refused extends Error {}

/** This part cannot be edited piece by piece: the caller writes its node whole. */
class NotInPlace extends Error {}

interface Splice {
  start: number;
  end: number;
  text: string;
}

interface Planned {
  edit: YamlEdit;
  index: number;
  splices: Splice[];
  footprint: [number, number];
}

/** Where a node sits, which says how to write a new value there. */
type Place =
  | { kind: "root" }
  | { kind: "mapValue"; pair: Pair; colon: number; keyColumn: number }
  | { kind: "seqItem"; dashColumn: number }
  | { kind: "flow" };

type Mode = "minimal" | "whole";

const overlaps = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];

const pathOf = (edit: YamlEdit): YamlPath => ("set" in edit ? edit.set : edit.delete);

/**
 * Whether one edit's result can change what another's path names: one path holds the other, or both
 * name items of the same list (a deleted or inserted item moves the others' indexes).
 */
function related(a: YamlPath, b: YamlPath): boolean {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i++) {
    if (a[i] !== b[i]) return typeof a[i] === "number" || typeof b[i] === "number";
  }
  return true;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function setIn(root: unknown, path: YamlPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as (string | number)[];
  if (Array.isArray(root) && typeof head === "number") {
    const copy = [...root];
    copy[head] = setIn(root[head], rest, value);
    return copy;
  }
  const base = isPlainObject(root) ? root : {};
  return { ...base, [String(head)]: setIn(base[String(head)], rest, value) };
}

function deleteIn(root: unknown, path: YamlPath): unknown {
  const [head, ...rest] = path as (string | number)[];
  if (rest.length > 0) {
    if (Array.isArray(root) && typeof head === "number") {
      const copy = [...root];
      copy[head] = deleteIn(root[head], rest);
      return copy;
    }
    if (isPlainObject(root)) return { ...root, [String(head)]: deleteIn(root[String(head)], rest) };
    return root;
  }
  if (Array.isArray(root) && typeof head === "number") return root.filter((_, i) => i !== head);
  if (isPlainObject(root)) {
    const { [String(head)]: _gone, ...others } = root;
    return others;
  }
  return root;
}

class Source {
  readonly #text: string;
  readonly #doc: Document;
  readonly #protect: ((value: unknown) => boolean) | undefined;
  readonly #indent: Indentation;
  #splices: Splice[] = [];

  constructor(text: string, doc: Document, options: EditOptions) {
    this.#text = text;
    this.#doc = doc;
    this.#protect = options.protect;
    this.#indent = this.#indentation();
  }

  /** The edit as splices of this text, or its outcome when nothing is to be written. */
  plan(edit: YamlEdit, mode: Mode): Planned | EditOutcome {
    const path = pathOf(edit);
    const found = this.#find(path);
    let desired: unknown;
    if ("delete" in edit) {
      if (found.rest.length > 0 || path.length === 0) return { edit, status: "absent" };
      // The parent of the deleted key or item is what changes.
      const parent = this.#find(path.slice(0, -1));
      desired = deleteIn(this.#js(parent.node), path.slice(-1));
      return this.#planAt(edit, parent.node, parent.place, desired, mode);
    }
    if (found.rest.length > 0 && edit.create === false) return { edit, status: "absent" };
    if (
      found.rest.length > 0 &&
      found.node !== null &&
      !isMap(found.node) &&
      !isSeq(found.node) &&
      !isScalar(found.node)
    ) {
      throw new Refused("its path runs through an alias");
    }
    desired = setIn(found.rest.length > 0 ? this.#js(found.node) : undefined, found.rest, edit.value);
    if (found.rest.length === 0) desired = edit.value;
    if (found.rest.length > 0 && isSeq(found.node)) {
      const [index] = found.rest;
      const length = found.node.items.length;
      if (typeof index !== "number" || index !== length) {
        throw new Refused(
          `the list at ${path.slice(0, path.length - found.rest.length).join(".")} has no item ${String(index)}`,
        );
      }
    }
    return this.#planAt(edit, found.node, found.place, desired, mode);
  }

  #planAt(
    edit: YamlEdit,
    node: Node | null,
    place: Place,
    desired: unknown,
    mode: Mode,
  ): Planned | EditOutcome {
    this.#splices = [];
    if (isDeepStrictEqual(this.#js(node), desired)) return { edit, status: "unchanged" };
    if (mode === "minimal") this.#diff(node, desired, place);
    else this.#replace(node, desired, place, true);
    const splices = this.#splices;
    if (splices.length === 0) return { edit, status: "unchanged" };
    const starts = splices.map((s) => s.start);
    const ends = splices.map((s) => s.end);
    const [from, to] = node?.range
      ? [node.range[0], this.#contentEnd(node)]
      : [Math.min(...starts), Math.max(...ends)];
    return {
      edit,
      index: -1,
      splices,
      footprint: [Math.min(from, ...starts), Math.max(to, ...ends)],
    };
  }

  /** The text with every planned edit made, or undefined when the result does not hold. */
  apply(planned: readonly Planned[]): string | undefined {
    const text = splice(
      this.#text,
      planned.flatMap((p) => p.splices),
    );
    if (text === undefined) return undefined;
    let expected = this.#js(this.#doc.contents as Node | null);
    for (const { edit } of planned) {
      expected = "set" in edit ? setIn(expected, edit.set, edit.value) : deleteIn(expected, edit.delete);
    }
    return holds(text, expected) ? text : undefined;
  }

  /** One edit alone: in place, else its node written whole; undefined when neither holds. */
  attempt(edit: YamlEdit): string | undefined {
    if (this.#doc.errors.length > 0) return undefined;
    for (const mode of ["minimal", "whole"] as const) {
      let planned: Planned | EditOutcome;
      try {
        planned = this.plan(edit, mode);
      } catch (error) {
        if (error instanceof Refused || error instanceof NotInPlace) return undefined;
        throw error;
      }
      if ("status" in planned) return planned.status === "unchanged" ? this.#text : undefined;
      const made = this.apply([planned]);
      if (made !== undefined) return made;
    }
    return undefined;
  }

  // ── finding ──────────────────────────────────────────────────────────────────────────────────────

  /** The deepest node of `path` the file holds, where it sits, and the part of the path below it. */
  #find(path: YamlPath): { node: Node | null; place: Place; rest: YamlPath } {
    let node = (this.#doc.contents ?? null) as Node | null;
    let place: Place = { kind: "root" };
    for (let i = 0; i < path.length; i++) {
      const part = path[i] as string | number;
      if (node !== null && isAlias(node)) throw new Refused("its path runs through an alias");
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(part));
        if (!pair) return { node, place, rest: path.slice(i) };
        place = node.flow ? { kind: "flow" } : this.#mapValuePlace(pair);
        node = (pair.value ?? null) as Node | null;
      } else if (isSeq(node) && typeof part === "number" && part >= 0 && part < node.items.length) {
        place = node.flow
          ? { kind: "flow" }
          : { kind: "seqItem", dashColumn: this.#column(node.range?.[0] ?? 0) };
        node = (node.items[part] ?? null) as Node | null;
      } else {
        return { node, place, rest: path.slice(i) };
      }
    }
    if (node !== null && isAlias(node)) throw new Refused("it is written as an alias");
    return { node, place, rest: [] };
  }

  #mapValuePlace(pair: Pair): Place {
    const key = pair.key as Node;
    const keyStart = key.range?.[0] ?? 0;
    let colon = key.range?.[1] ?? keyStart;
    while (colon < this.#text.length && (this.#text[colon] === " " || this.#text[colon] === "\t")) colon++;
    if (this.#text[colon] !== ":") throw new NotInPlace();
    return { kind: "mapValue", pair, colon, keyColumn: this.#column(keyStart) };
  }

  #js(node: Node | null): unknown {
    if (node === null) return null;
    return node.toJS(this.#doc);
  }

  // ── text positions ──────────────────────────────────────────────────────────────────────────────

  #lineStart(pos: number): number {
    return this.#text.lastIndexOf("\n", pos - 1) + 1;
  }

  #column(pos: number): number {
    return pos - this.#lineStart(pos);
  }

  /** True when something other than spaces stands before `pos` on its line (`- key: …`). */
  #shared(pos: number): boolean {
    return this.#text.slice(this.#lineStart(pos), pos).trim() !== "";
  }

  /** Where the line holding `pos` ends (before its `\r\n` or `\n`). */
  #lineEnd(pos: number): number {
    const nl = this.#text.indexOf("\n", pos);
    if (nl < 0) return this.#text.length;
    return this.#text[nl - 1] === "\r" ? nl - 1 : nl;
  }

  /** Where the node's text ends: its last character, trailing spaces, line breaks and comments not included. */
  #contentEnd(node: Node | Pair | null): number {
    if (node === null) return 0;
    if (!("range" in node) || !node.range) {
      const pair = node as Pair;
      const value = pair.value as Node | null;
      if (value?.range && value.range[1] > value.range[0]) return this.#contentEnd(value);
      const place = this.#mapValuePlace(pair);
      return place.kind === "mapValue" ? place.colon + 1 : 0;
    }
    if ((isMap(node) || isSeq(node)) && !node.flow && node.items.length > 0) {
      return this.#contentEnd(node.items[node.items.length - 1] as Node | Pair);
    }
    const [start, end] = node.range;
    let e = end;
    while (e > start && /\s/.test(this.#text[e - 1] ?? "")) e--;
    return e;
  }

  /** Where the next line starts after `pos`'s line, and the text to put before an inserted line there. */
  #afterLine(pos: number): { at: number; before: string; after: string } {
    const end = this.#lineEnd(pos);
    if (end >= this.#text.length) return { at: this.#text.length, before: this.#indent.newline, after: "" };
    const at = this.#text.indexOf("\n", end) + 1;
    return { at, before: "", after: this.#indent.newline };
  }

  #indentation(): Indentation {
    const newline = this.#text.includes("\r\n") ? "\r\n" : "\n";
    let found: Omit<Indentation, "newline"> | undefined;
    const visit = (node: unknown): void => {
      if (found || !node) return;
      if (isMap(node) && !node.flow) {
        for (const pair of node.items) {
          const key = pair.key as Node | null;
          const value = pair.value as Node | null;
          if (!key?.range || !value?.range) continue;
          if ((isMap(value) || isSeq(value)) && !value.flow && !this.#shared(value.range[0])) {
            const step = this.#column(value.range[0]) - this.#column(key.range[0]);
            if (isMap(value) && step > 0) found = { step, indentSeq: true };
            else if (isSeq(value)) found = { step: step > 0 ? step : 2, indentSeq: step > 0 };
            if (found) return;
          }
        }
        for (const pair of node.items) visit(pair.value);
      } else if (isSeq(node) && !node.flow) {
        for (const item of node.items) visit(item);
      }
    };
    visit(this.#doc.contents);
    return { ...(found ?? { step: 2, indentSeq: true }), newline };
  }

  // ── diffing ─────────────────────────────────────────────────────────────────────────────────────

  #touch(node: unknown): void {
    if (!this.#protect || node === null || node === undefined) return;
    const protect = this.#protect;
    const check = (n: unknown): void => {
      if (isScalar(n)) {
        if (protect(n.value))
          throw new Refused(`it would rewrite ${JSON.stringify(String(n.value))}, which is kept as written`);
      } else if (isMap(n)) {
        for (const pair of n.items) {
          check(pair.key);
          check(pair.value);
        }
      } else if (isSeq(n)) {
        for (const item of n.items) check(item);
      }
    };
    check(node);
  }

  /** Makes `node` (where `place` says it sits) hold `value`, by the smallest change of text. */
  #diff(node: Node | null, value: unknown, place: Place): void {
    if (node !== null && isAlias(node)) throw new Refused("it is written as an alias");
    if (isDeepStrictEqual(this.#js(node), value)) return;
    const mark = this.#splices.length;
    try {
      if (isMap(node) && isPlainObject(value) && Object.keys(value).length > 0) {
        this.#diffMap(node, value);
        return;
      }
      if (isSeq(node) && Array.isArray(value) && value.length > 0) {
        this.#diffSeq(node, value);
        return;
      }
    } catch (error) {
      if (!(error instanceof NotInPlace)) throw error;
      this.#splices.length = mark;
    }
    this.#replace(node, value, place);
  }

  /** Writes `value` in place of `node`, in the node's style where it has one. */
  #replace(node: Node | null, value: unknown, place: Place, plain = false): void {
    this.#touch(node);
    // Written again whole after the node's own style did not hold: the library's defaults.
    const look: Look = plain
      ? { flow: place.kind === "flow" }
      : {
          flow: place.kind === "flow" || ((isMap(node) || isSeq(node)) && node.flow === true),
          style:
            isScalar(node) && typeof node.value === "string"
              ? (node.type as ScalarStyle | undefined)
              : undefined,
          like: node ?? undefined,
        };
    const start = node?.range?.[0];
    switch (place.kind) {
      case "flow": {
        if (start === undefined) throw new Refused("it has no place in the text");
        this.#splices.push({ start, end: this.#contentEnd(node), text: flowText(value, look) });
        return;
      }
      case "root": {
        const end = node ? this.#contentEnd(node) : this.#text.length;
        this.#splices.push({ start: start ?? 0, end, text: documentText(value, this.#indent, look) });
        return;
      }
      case "mapValue": {
        const text = afterColon(value, place.keyColumn, this.#indent, look);
        const end = node?.range && node.range[1] > node.range[0] ? this.#contentEnd(node) : place.colon + 1;
        const sameLine =
          start !== undefined &&
          node?.range &&
          node.range[1] > node.range[0] &&
          !this.#text.slice(place.colon + 1, start).includes("\n");
        if (sameLine && text.startsWith(" ") && start !== undefined) {
          this.#splices.push({ start, end, text: text.slice(1) });
        } else {
          this.#splices.push({ start: place.colon + 1, end, text });
        }
        return;
      }
      case "seqItem": {
        if (start === undefined) throw new NotInPlace();
        const text = afterDash(value, place.dashColumn, this.#indent, look);
        // An empty item (`-` alone) starts right after its dash.
        const space = this.#text[start - 1] === "-" ? " " : "";
        this.#splices.push({ start, end: this.#contentEnd(node), text: space + text });
        return;
      }
    }
  }

  #diffMap(map: import("yaml").YAMLMap, value: Record<string, unknown>): void {
    const keys = map.items.map((pair) => {
      if (!isScalar(pair.key)) throw new NotInPlace();
      return String(pair.key.value);
    });
    if (map.flow) {
      // Flow maps keep their keys: each value in place; any other change writes the map again, on one line.
      const same = keys.length === Object.keys(value).length && keys.every((k) => k in value);
      if (!same) throw new NotInPlace();
      for (const [i, pair] of map.items.entries()) {
        this.#diff((pair.value ?? null) as Node | null, value[keys[i] as string], { kind: "flow" });
      }
      return;
    }
    const first = map.items[0];
    const keyStart = (first?.key as Node | undefined)?.range?.[0];
    if (keyStart === undefined) throw new NotInPlace();
    const keyColumn = this.#column(keyStart);
    for (const [i, pair] of map.items.entries()) {
      const key = keys[i] as string;
      if (key in value) {
        this.#diff((pair.value ?? null) as Node | null, value[key], this.#mapValuePlace(pair));
        continue;
      }
      const start = (pair.key as Node).range?.[0] ?? 0;
      if (this.#shared(start)) throw new NotInPlace();
      this.#touch(pair.key);
      this.#touch(pair.value);
      const end = this.#afterLine(this.#contentEnd(pair));
      this.#splices.push({
        start: this.#lineStart(start),
        end: end.before === "" ? end.at : this.#text.length,
        text: "",
      });
    }
    const added = Object.keys(value).filter((k) => !keys.includes(k));
    if (added.length === 0) return;
    const look: Look = { flow: this.#neighboursFlow(map.items.map((p) => p.value)) };
    const pad = " ".repeat(keyColumn);
    const lines = added.map((k) => pad + entryLine(k, value[k], keyColumn, this.#indent, look));
    const last = map.items[map.items.length - 1] as Pair;
    const at = this.#afterLine(this.#contentEnd(last));
    const nl = this.#indent.newline;
    this.#splices.push({ start: at.at, end: at.at, text: at.before + lines.join(nl) + at.after });
  }

  #diffSeq(seq: import("yaml").YAMLSeq, value: unknown[]): void {
    const items = seq.items as (Node | null)[];
    const old = items.map((item) => this.#js(item));
    if (seq.flow) {
      if (old.length !== value.length) throw new NotInPlace();
      for (const [i, item] of items.entries()) this.#diff(item, value[i], { kind: "flow" });
      return;
    }
    const firstDash = seq.range?.[0];
    if (firstDash === undefined || this.#text[firstDash] !== "-") throw new NotInPlace();
    const dashColumn = this.#column(firstDash);
    const neighbours: Look = { flow: this.#neighboursFlow(items), style: this.#neighboursStyle(items) };
    const nl = this.#indent.newline;
    const pad = " ".repeat(dashColumn);
    // A new item looks like the old item before it (else the first).
    const itemLine = (v: unknown, after: number) =>
      `${pad}- ${afterDash(v, dashColumn, this.#indent, { ...neighbours, like: items[Math.max(after, 0)] ?? undefined })}`;
    const dashOf = (item: Node | null): number => {
      const start = item?.range?.[0];
      if (start === undefined) throw new NotInPlace();
      let p = start - 1;
      while (p >= 0 && (this.#text[p] === " " || this.#text[p] === "\t")) p--;
      if (this.#text[p] === "-") return p;
      // An empty item, `-` alone: its range starts at the dash's end.
      if (this.#text[start - 1] === "-") return start - 1;
      throw new NotInPlace();
    };
    const place: Place = { kind: "seqItem", dashColumn };
    // After the old item `after` (-1: before the first), the new items to insert there.
    const inserts = new Map<number, unknown[]>();
    for (const op of align(old, value)) {
      if (op.kind === "keep") continue;
      if (op.kind === "pair") {
        const item = items[op.old] ?? null;
        if (item === null || !item.range) throw new NotInPlace();
        this.#diff(item, value[op.new], place);
      } else if (op.kind === "delete") {
        const item = items[op.old] ?? null;
        const dash = dashOf(item);
        if (this.#shared(dash)) throw new NotInPlace();
        this.#touch(item);
        const end = this.#afterLine(this.#contentEnd(item));
        this.#splices.push({
          start: this.#lineStart(dash),
          end: end.before === "" ? end.at : this.#text.length,
          text: "",
        });
      } else {
        const list = inserts.get(op.after) ?? [];
        list.push(value[op.new]);
        inserts.set(op.after, list);
      }
    }
    for (const [after, values] of inserts) {
      const lines = values.map((v) => itemLine(v, after));
      if (after < 0) {
        const dash = dashOf(items[0] ?? null);
        if (this.#shared(dash)) throw new NotInPlace();
        const at = this.#lineStart(dash);
        this.#splices.push({ start: at, end: at, text: lines.join(nl) + nl });
      } else {
        const at = this.#afterLine(this.#contentEnd(items[after] ?? null));
        this.#splices.push({ start: at.at, end: at.at, text: at.before + lines.join(nl) + at.after });
      }
    }
  }

  /** New collections among these siblings are written in flow style when theirs are. */
  #neighboursFlow(nodes: readonly unknown[]): boolean {
    const collections = nodes.filter((n) => isMap(n) || isSeq(n)) as { flow?: boolean }[];
    return collections.length > 0 && collections.every((c) => c.flow === true);
  }

  /** New strings among these siblings are quoted as theirs are, when they all agree. */
  #neighboursStyle(nodes: readonly unknown[]): ScalarStyle | undefined {
    const styles = new Set(
      nodes.filter((n): n is Scalar => isScalar(n) && typeof n.value === "string").map((n) => n.type),
    );
    if (styles.size !== 1) return undefined;
    const [style] = styles;
    return style === Scalar.QUOTE_DOUBLE || style === Scalar.QUOTE_SINGLE ? style : undefined;
  }
}

/** The splices made on `text`, or undefined when two of them overlap. */
function splice(text: string, splices: readonly Splice[]): string | undefined {
  const sorted = splices
    .map((s, order) => ({ ...s, order }))
    .sort(
      (a, b) =>
        a.start - b.start ||
        (a.end - a.start === 0 ? -1 : 0) - (b.end - b.start === 0 ? -1 : 0) ||
        a.order - b.order,
    );
  let out = "";
  let cursor = 0;
  for (const s of sorted) {
    if (s.start < cursor) return undefined;
    out += text.slice(cursor, s.start) + s.text;
    cursor = s.end;
  }
  return out + text.slice(cursor);
}

/** True when `text` parses, with no problem, to exactly `expected`. */
function holds(text: string, expected: unknown): boolean {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return false;
  return isDeepStrictEqual(doc.toJS(), expected);
}

type AlignOp =
  | { kind: "keep"; old: number; new: number }
  | { kind: "pair"; old: number; new: number }
  | { kind: "delete"; old: number }
  | { kind: "insert"; new: number; after: number };

/** Cells of the longest-common-run table past which the alignment is made by position only. */
const MAX_CELLS = 1_000_000;

/**
 * How the old items become the new ones: the longest run of equal items is kept; between kept items
 * the others are paired by position (rewritten in place), the extra old ones deleted and the extra new
 * ones inserted after the last old item before them.
 */
export function align(old: readonly unknown[], next: readonly unknown[]): AlignOp[] {
  const n = old.length;
  const m = next.length;
  const matches: [number, number][] = [];
  let head = 0;
  while (head < n && head < m && isDeepStrictEqual(old[head], next[head])) {
    matches.push([head, head]);
    head++;
  }
  let tail = 0;
  while (tail < n - head && tail < m - head && isDeepStrictEqual(old[n - 1 - tail], next[m - 1 - tail]))
    tail++;
  const on = n - head - tail;
  const nn = m - head - tail;
  if (on > 0 && nn > 0 && on * nn <= MAX_CELLS) {
    // lengths[i][j]: the longest common run of old[head+i..] and next[head+j..].
    const width = nn + 1;
    const lengths = new Uint32Array((on + 1) * width);
    for (let i = on - 1; i >= 0; i--) {
      for (let j = nn - 1; j >= 0; j--) {
        lengths[i * width + j] = isDeepStrictEqual(old[head + i], next[head + j])
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < on && j < nn) {
      if (isDeepStrictEqual(old[head + i], next[head + j])) {
        matches.push([head + i, head + j]);
        i++;
        j++;
      } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) i++;
      else j++;
    }
  }
  for (let t = tail; t > 0; t--) matches.push([n - t, m - t]);
  const ops: AlignOp[] = [];
  let oi = 0;
  let ni = 0;
  const gap = (oEnd: number, nEnd: number) => {
    while (oi < oEnd && ni < nEnd) ops.push({ kind: "pair", old: oi++, new: ni++ });
    while (oi < oEnd) ops.push({ kind: "delete", old: oi++ });
    while (ni < nEnd) ops.push({ kind: "insert", new: ni++, after: oi - 1 });
  };
  for (const [o, nw] of matches) {
    gap(o, nw);
    ops.push({ kind: "keep", old: o, new: nw });
    oi = o + 1;
    ni = nw + 1;
  }
  gap(n, m);
  return ops;
}
