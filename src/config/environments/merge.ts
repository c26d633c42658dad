/**
 * Merging an environment's overlays into the shared declarations (SPEC §9), before anything is
 * validated, with the origin of every node kept:
 *
 * - a declaration of an overlay whose identity (a kind's identity key: `name`, a flag's `key`) matches
 *   a shared declaration is merged into it; one that matches none is added for this environment only;
 *   `exclude: true` removes the shared declaration here;
 * - mappings merge key by key; lists are replaced whole, except the lists a kind declares keyed
 *   (`EnvironmentRules.keyedLists`: collaborators by email or UUID, variants by key), whose entries
 *   merge by identity (and may be excluded); an overlay entry cannot change an identity;
 * - `null` leaves the field unmanaged here (it is neither compared nor sent).
 *
 * What each overlay did is kept as `Mark`s, for `render` and the plan to cite.
 */
import type { Diagnostics } from "../diagnostics.js";
import type { ConfigKind } from "../kinds.js";
import type { ParsedFile } from "../parse-types.js";
import type { SourceRef } from "../types.js";
import { childPointer, MergedDocument, type Origin, OriginTree, sourceOf, splitPointer } from "./document.js";
import type { EnvironmentEntry, Mark } from "./types.js";

type Data = Record<string, unknown>;

function isMapping(value: unknown): value is Data {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** An overlay's value as it applies: a `null` anywhere in a mapping leaves that field unmanaged. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isMapping(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

/** One declaration of the merged list: its value, where each node came from, what overlays did. */
interface Slot {
  value: Data;
  origins: OriginTree;
  marks: Mark[];
  shared: boolean;
  excluded?: SourceRef;
  /** The overlay entry that merged into it first (a second is an error). */
  overlaid?: SourceRef;
}

export interface MergeInput {
  entry: EnvironmentEntry;
  declaration: ParsedFile;
  /** The shared files serving the environment, and its overlays, in load order. */
  shared: readonly ParsedFile[];
  overlays: readonly ParsedFile[];
  kinds: readonly ConfigKind[];
  diags: Diagnostics;
}

export function mergeEnvironment(input: MergeInput): MergedDocument {
  const { entry, kinds, diags } = input;
  const doc = new MergedDocument(input.declaration.path, entry.name);
  doc.data.project = entry.project;
  doc.origins.set("/project", {
    file: input.declaration,
    pointer: `${childPointer("/environments", entry.name)}/project`,
  });
  const files = [...input.shared, ...input.overlays];
  mergeIgnore(doc, files, kinds);
  for (const kind of kinds) {
    if (!files.some((f) => Object.hasOwn(f.data as Data, kind.key))) continue;
    const identity = kind.identityKey ?? "name";
    const slots: Slot[] = [];
    for (const file of input.shared) {
      // An item that is not a mapping is kept too: the merged check reports it where it is.
      listOf(file, kind.key).forEach((item, i) => {
        slots.push(copied(item as Data, file, `/${kind.key}/${i}`, true));
      });
    }
    for (const file of input.overlays) {
      listOf(file, kind.key).forEach((item, i) => {
        const pointer = `/${kind.key}/${i}`;
        const at = (p = pointer, which: "key" | "value" = "value") => sourceOf(file, p, which);
        const error = (message: string, p = pointer, which: "key" | "value" = "value") => {
          const where = at(p, which);
          diags.error(where.file, where.line, where.column, message);
        };
        const what = `${kind.words.one}`;
        if (!isMapping(item) || typeof item[identity] !== "string" || item[identity] === "") {
          error(
            `an overlay's ${what} is a mapping that names the declaration it changes by its ${identity} (or a new one for ${entry.name} only)`,
          );
          return;
        }
        const name = item[identity] as string;
        const exclude = item.exclude;
        if (exclude !== undefined && typeof exclude !== "boolean") {
          error(`exclude of ${what} "${name}" must be true or false`, `${pointer}/exclude`);
          return;
        }
        const slot = slots.find((s) => isMapping(s.value) && s.value[identity] === name);
        if (slot?.overlaid !== undefined) {
          const first = slot.overlaid;
          error(
            `${what} "${name}" is in the overlays of ${entry.name} twice: also at ${first.file}:${first.line}:${first.column}`,
          );
          return;
        }
        if (exclude === true) {
          const others = Object.keys(item).filter((k) => k !== identity && k !== "exclude");
          if (others.length > 0) {
            error(
              `${what} "${name}" is excluded from ${entry.name}: an excluding entry says nothing else (remove ${others.join(", ")})`,
              `${pointer}/${others[0]}`,
              "key",
            );
            return;
          }
          if (slot === undefined || !slot.shared) {
            error(
              `${what} "${name}" is excluded from ${entry.name}, but no shared file declares it there`,
              `${pointer}/exclude`,
            );
            return;
          }
          slot.excluded = at(`${pointer}/exclude`);
          slot.overlaid = at();
          return;
        }
        const body = { ...item };
        delete body.exclude;
        if (slot === undefined) {
          const added = copied(withoutNulls(body) as Data, file, pointer, false);
          added.overlaid = at();
          added.marks.push({ pointer: "", how: "added", source: at() });
          slots.push(added);
          return;
        }
        slot.overlaid = at();
        const merger = new Merger(kind, file, slot, diags, `${what} "${name}"`);
        merger.map(slot.value, body, "", pointer, new Set([identity]));
      });
    }
    const list: Data[] = [];
    for (const slot of slots) {
      if (slot.excluded !== undefined) {
        doc.marks.push({
          pointer: `/${kind.key}`,
          how: "excluded",
          source: slot.excluded,
          detail: String(slot.value[identity]),
        });
        continue;
      }
      const pointer = `/${kind.key}/${list.length}`;
      list.push(slot.value);
      doc.origins.graft(pointer, slot.origins);
      for (const mark of slot.marks) doc.marks.push({ ...mark, pointer: pointer + mark.pointer });
    }
    doc.data[kind.key] = list;
  }
  return doc;
}

function copied(value: Data, file: ParsedFile, pointer: string, shared: boolean): Slot {
  const origins = new OriginTree();
  origins.set("", { file, pointer });
  return { value: clone(value), origins, marks: [], shared };
}

function listOf(file: ParsedFile, key: string): unknown[] {
  const list = (file.data as Data)[key];
  return Array.isArray(list) ? list : [];
}

/** Every file's `ignore:` globs for its kinds, once each, in file order. */
function mergeIgnore(doc: MergedDocument, files: readonly ParsedFile[], kinds: readonly ConfigKind[]): void {
  const ignore: Record<string, string[]> = {};
  for (const kind of kinds) {
    for (const file of files) {
      const globs = (file.data as { ignore?: Record<string, unknown> }).ignore?.[kind.key];
      if (!Array.isArray(globs)) continue;
      ignore[kind.key] ??= [];
      const kept = ignore[kind.key] as string[];
      globs.forEach((glob, i) => {
        if (typeof glob !== "string" || kept.includes(glob)) return;
        doc.origins.set(`/ignore/${kind.key}/${kept.length}`, { file, pointer: `/ignore/${kind.key}/${i}` });
        kept.push(glob);
      });
    }
  }
  if (Object.keys(ignore).length > 0) doc.data.ignore = ignore;
}

/** Matches a relative pointer against a pattern whose `*` segments stand for any key or index. */
export function matchesPattern(pointer: string, pattern: string): boolean {
  const a = splitPointer(pointer);
  const b = splitPointer(pattern);
  return a.length === b.length && b.every((s, i) => s === "*" || s === a[i]);
}

/** Merges one overlay entry into one declaration. */
class Merger {
  constructor(
    readonly kind: ConfigKind,
    readonly file: ParsedFile,
    readonly slot: Slot,
    readonly diags: Diagnostics,
    readonly owner: string,
  ) {}

  /** `over` (at `overPointer` of the overlay) into `base` (at `rel` in the declaration). */
  map(base: Data, over: Data, rel: string, overPointer: string, skip: ReadonlySet<string>): void {
    for (const [key, value] of Object.entries(over)) {
      if (skip.has(key) && base[key] === value) continue;
      const here = childPointer(rel, key);
      const there = childPointer(overPointer, key);
      const source = sourceOf(this.file, there);
      if (value === null) {
        delete base[key];
        this.slot.origins.set(here, this.origin(there));
        this.slot.marks.push({ pointer: here, how: "unmanaged", source });
        continue;
      }
      const current = base[key];
      if (isMapping(value) && isMapping(current)) {
        this.map(current, value, here, there, new Set());
        continue;
      }
      const keyed = this.kind.environments?.keyedLists?.find((l) => matchesPattern(here, l.path));
      if (Array.isArray(value) && Array.isArray(current) && keyed !== undefined) {
        this.list(current, value, here, there, keyed.keys);
        continue;
      }
      const replaced = Array.isArray(value) && Array.isArray(current);
      const was = replaced ? this.sourceOf(here) : undefined;
      base[key] = withoutNulls(value);
      this.slot.origins.set(here, this.origin(there));
      this.slot.marks.push({
        pointer: here,
        how: replaced ? "replaced" : "set",
        source,
        ...(was !== undefined ? { detail: `${was.file}:${was.line}` } : {}),
      });
    }
  }

  /** A keyed list: each overlay entry merges into the entry with its identity, or is added. */
  list(base: unknown[], over: unknown[], rel: string, overPointer: string, keys: readonly string[]): void {
    const field = splitPointer(rel).join(".");
    over.forEach((entry, j) => {
      const there = childPointer(overPointer, j);
      const error = (message: string, pointer = there) => {
        const at = sourceOf(this.file, pointer);
        this.diags.error(at.file, at.line, at.column, message);
      };
      const named = keys.filter((k) => isMapping(entry) && entry[k] !== undefined && entry[k] !== null);
      if (!isMapping(entry) || named.length === 0) {
        error(
          `an overlay's entry of ${field} of ${this.owner} names the entry it changes by ${keys.join(" or ")}`,
        );
        return;
      }
      const found = named.map((k) => base.findIndex((b) => isMapping(b) && b[k] === entry[k]));
      const matched = [...new Set(found.filter((i) => i >= 0))];
      const identity = named.map((k) => `${k} ${String(entry[k])}`).join(" and ");
      if (matched.length > 1) {
        error(
          `an overlay's entry of ${field} of ${this.owner} (${identity}) names two different entries of the shared files: an overlay cannot change an entry's identity`,
        );
        return;
      }
      const index = matched[0];
      if (index !== undefined) {
        const target = base[index] as Data;
        const changed = named.find((k) => target[k] !== undefined && target[k] !== entry[k]);
        if (changed !== undefined) {
          error(
            `an overlay's entry of ${field} of ${this.owner} (${identity}) would change the ${changed} of the entry it matches (${String(target[changed])}): an overlay cannot change an entry's identity; change it in the shared file`,
            childPointer(there, changed),
          );
          return;
        }
      }
      const exclude = entry.exclude === true;
      const body = { ...entry };
      delete body.exclude;
      if (index === undefined) {
        if (exclude) {
          error(
            `an overlay excludes an entry of ${field} of ${this.owner} (${identity}) that the shared files do not declare`,
          );
          return;
        }
        const at = childPointer(rel, base.length);
        base.push(withoutNulls(body));
        this.slot.origins.set(at, this.origin(there));
        this.slot.marks.push({ pointer: at, how: "added", source: sourceOf(this.file, there) });
        return;
      }
      if (exclude) {
        // Later entries keep their own origins as they move up.
        for (let i = index; i < base.length; i++) this.pin(childPointer(rel, i));
        base.splice(index, 1);
        this.slot.origins.removeEntry(rel, index);
        this.slot.marks = this.slot.marks.flatMap((mark) => {
          if (!mark.pointer.startsWith(`${rel}/`)) return [mark];
          const [head, ...tail] = splitPointer(mark.pointer.slice(rel.length));
          const i = Number(head);
          if (i === index) return [];
          if (i < index) return [mark];
          return [{ ...mark, pointer: [childPointer(rel, i - 1), ...tail].join("/") }];
        });
        this.slot.marks.push({
          pointer: rel,
          how: "excluded",
          source: sourceOf(this.file, there),
          detail: identity,
        });
        return;
      }
      this.map(base[index] as Data, body, childPointer(rel, index), there, new Set(named));
    });
  }

  origin(pointer: string): Origin {
    return { file: this.file, pointer };
  }

  /** Where the node at `rel` of the declaration was written, before this overlay changed it. */
  sourceOf(rel: string): SourceRef | undefined {
    const found = this.slot.origins.find(rel);
    if (found === undefined) return undefined;
    return sourceOf(found.origin.file, found.origin.pointer + found.rest.map((s) => `/${s}`).join(""));
  }

  /** Records the origin of the node at `rel` on that node itself (it is about to move). */
  pin(rel: string): void {
    this.slot.origins.pin(rel);
  }
}
