import type { Declared, DeclaredReference } from "../../config/types.js";
import { isPlainObject } from "../../plan/values.js";

type Json = Record<string, unknown>;

/** One place in a field's value where an object of another kind (or the same) is named. */
export interface ReferenceSpec {
  /** The kind named: its stable name (`cohort`, `feature_flag`, `insight`). */
  readonly kind: string;
  /**
   * Where, from the field's value: keys joined by `/`; `*` is any item of a list (or value of a
   * mapping), `**` any depth. `groups/*\/properties/*` is every property of every condition group.
   */
  readonly at: string;
  /** Only the mappings there whose keys hold these values: `{ type: "cohort" }`. */
  readonly where?: Readonly<Record<string, unknown>>;
  /** The key the file names the object by: `cohort`, `insight` (a flag condition: `key`). */
  readonly name: string;
  /**
   * The key the service keeps its id under: `value`, `insight_id`. The same key as `name` (a flag
   * condition's `key`) holds a name in the file and an id in the service's answers.
   */
  readonly id: string;
  /** Keys the service's form adds beside the id, which the file leaves out: `{ key: "id" }`. */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /** How the service writes the id: a number (default) or a string (a flag condition's `"12"`). */
  readonly idType?: "number" | "string";
  /**
   * The keys hold lists: `name` a list of names, `id` a list of ids (a cohort breakdown's
   * `breakdown: [12, 13]`, written `cohort: [Beta testers, Staff]`). A list is named by name only
   * when every id in it has a name.
   */
  readonly list?: boolean;
  /** How messages name the object: `flag` (default: the kind's name, `_` as a space). */
  readonly word?: string;
  /** How messages say the declaration refers to it: `{ one: "depends on", many: "depend on" }`. */
  readonly verb?: { readonly one: string; readonly many: string };
  /** What holds the reference, for cycle messages: `flag condition`. */
  readonly holder?: string;
  /** The part of the declaration that holds it, for messages: `tile` (a tile of dashboard "KPIs"). */
  readonly part?: string;
  /** A name must be declared in the project (a tile's insight, SPEC §2): a live one alone is not enough. */
  readonly declaredOnly?: boolean;
  /** A raw id must be live, or pinned by a declaration (when the kind was read). */
  readonly checkIds?: boolean;
}

/** A mapping of a value that a spec matches, with its path (keys) from the field's value. */
export interface Found {
  spec: ReferenceSpec;
  node: Json;
  path: string[];
}

/** A copy of the JSON mappings and lists of a value; anything else (a secret's value) is kept as it is. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  }
  return value;
}

const pointerSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** The mappings of `value` at a spec's `at` whose keys match its `where`. */
function nodesAt(
  value: unknown,
  segments: readonly string[],
  path: string[],
  out: Found[],
  spec: ReferenceSpec,
) {
  if (segments.length === 0) {
    if (isPlainObject(value) && Object.entries(spec.where ?? {}).every(([k, v]) => value[k] === v)) {
      out.push({ spec, node: value, path });
    }
    return;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  const children = (): Array<[string, unknown]> =>
    Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : isPlainObject(value)
        ? Object.entries(value)
        : [];
  if (head === "**") {
    nodesAt(value, rest, path, out, spec);
    for (const [key, child] of children()) nodesAt(child, segments, [...path, key], out, spec);
  } else if (head === "*") {
    for (const [key, child] of children()) nodesAt(child, rest, [...path, key], out, spec);
  } else if (isPlainObject(value) && head in value) {
    nodesAt(value[head], rest, [...path, head], out, spec);
  }
}

/** Every mapping of `value` where one of `specs` names an object (by name or by id). */
export function findReferences(value: unknown, specs: readonly ReferenceSpec[]): Found[] {
  const out: Found[] = [];
  for (const spec of specs) {
    const found: Found[] = [];
    nodesAt(value, spec.at.split("/").filter(Boolean), [], found, spec);
    out.push(...found.filter((f) => f.node[spec.name] !== undefined || f.node[spec.id] !== undefined));
  }
  return out;
}

/**
 * Where a kind's fields may hold another object's raw id (a cohort condition's `value`, a tile's
 * `insight_id`), as the rules of the ids a file shared by several projects may not hold (SPEC §9:
 * `EnvironmentRules.projectIds`, pointers from an item, `*` any key, `**` any depth).
 */
export function rawIdRules(
  fields: Readonly<Record<string, { references?: readonly ReferenceSpec[] }>>,
): Array<{ path: string; where?: Record<string, unknown> }> {
  return Object.entries(fields).flatMap(([key, field]) =>
    (field.references ?? [])
      .filter((spec) => spec.id !== spec.name)
      .map((spec) => ({
        path: `/${[key, ...spec.at.split("/").filter(Boolean), spec.id].join("/")}`,
        ...(spec.where ? { where: { ...spec.where } } : {}),
      })),
  );
}

/**
 * The references a declared value makes, each with the JSON pointer of its name (or raw id) inside
 * the item (`base`: the field's pointer) and where the file writes it.
 */
export function declaredReferences(
  value: unknown,
  specs: readonly ReferenceSpec[],
  base: string,
  at: (pointer: string) => DeclaredReference["source"],
): DeclaredReference[] {
  return findReferences(value, specs).flatMap(({ spec, node, path }): DeclaredReference[] => {
    const where = `${base}/${path.map(pointerSegment).join("/")}`.replace(/\/$/, "");
    if (spec.list) return listReferences(spec, node, where, at);
    const name = node[spec.name];
    if (typeof name === "string" || (spec.name === spec.id && typeof name === "number")) {
      const pointer = `${where}/${pointerSegment(spec.name)}`;
      return [{ kind: spec.kind, name: String(name), pointer, source: at(pointer) }];
    }
    const id = node[spec.id];
    if (spec.name !== spec.id && (typeof id === "number" || typeof id === "string")) {
      const pointer = `${where}/${pointerSegment(spec.id)}`;
      return [{ kind: spec.kind, id, pointer, source: at(pointer) }];
    }
    return [];
  });
}

/** The references of a list-valued place: each name (or, without names, each raw id) at its index. */
function listReferences(
  spec: ReferenceSpec,
  node: Json,
  where: string,
  at: (pointer: string) => DeclaredReference["source"],
): DeclaredReference[] {
  const names = node[spec.name];
  const key = Array.isArray(names) ? spec.name : spec.id;
  const values = node[key];
  if (!Array.isArray(values)) return [];
  return values.flatMap((value, i): DeclaredReference[] => {
    const pointer = `${where}/${pointerSegment(key)}/${i}`;
    if (key === spec.name && typeof value === "string") {
      return [{ kind: spec.kind, name: value, pointer, source: at(pointer) }];
    }
    if (key === spec.id && (typeof value === "number" || typeof value === "string")) {
      return [{ kind: spec.kind, id: value, pointer, source: at(pointer) }];
    }
    return [];
  });
}

/**
 * `value` with the objects named by id named by name where `nameOf` knows one (the id and the
 * service's fixed keys replaced by the name, in the id's place). An id it does not know stays an id
 * (its fixed keys dropped); under a key that holds names in the file too (a flag condition's `key`),
 * it becomes `unknown(id)`. With `desired`, only raw ids are named (a name in the file is one already).
 */
export function withNames(
  value: unknown,
  specs: readonly ReferenceSpec[],
  nameOf: (kind: string, id: number | string) => string | undefined,
  options: { desired?: boolean; unknown?: (id: number | string) => unknown } = {},
): unknown {
  const out = copy(value);
  for (const { spec, node } of findReferences(out, specs)) {
    if (options.desired && (spec.name === spec.id || node[spec.name] !== undefined)) continue;
    if (spec.list) {
      nameList(spec, node, nameOf, options.unknown);
      continue;
    }
    const id = node[spec.id];
    if (typeof id !== "number" && typeof id !== "string") continue;
    for (const key of Object.keys(spec.fixed ?? {})) if (key !== spec.id) delete node[key];
    const name = nameOf(spec.kind, id);
    if (name === undefined) {
      if (spec.name === spec.id && options.unknown) node[spec.id] = options.unknown(id);
      continue;
    }
    replaceKey(node, spec.id, spec.name, name);
  }
  return out;
}

/**
 * A list of ids named by name: every id with a name (or, `unknown`, its stand-in for those without);
 * else the ids stay (the fixed keys dropped).
 */
function nameList(
  spec: ReferenceSpec,
  node: Json,
  nameOf: (kind: string, id: number | string) => string | undefined,
  unknown: ((id: number | string) => unknown) | undefined,
): void {
  const ids = node[spec.id];
  for (const key of Object.keys(spec.fixed ?? {})) if (key !== spec.id) delete node[key];
  if (!Array.isArray(ids)) return;
  const names = ids.map((id) =>
    typeof id === "number" || typeof id === "string" ? (nameOf(spec.kind, id) ?? unknown?.(id)) : undefined,
  );
  if (names.every((n) => n !== undefined)) replaceKey(node, spec.id, spec.name, names);
}

/** Puts `value` under `to` where `from` stood (the keys' order kept), `from` removed. */
function replaceKey(node: Json, from: string, to: string, value: unknown): void {
  if (from === to) {
    node[to] = value;
    return;
  }
  const entries = Object.entries(node).filter(([k]) => k !== to);
  for (const key of Object.keys(node)) delete node[key];
  for (const [k, v] of entries) node[k === from ? to : k] = k === from ? value : v;
}

/**
 * `value` in the service's form: each object named by name written by its id, which `idOf` gives (a
 * live id, or one this apply created: it throws for one it has none of), with the spec's fixed keys.
 */
export function withIds(
  value: unknown,
  specs: readonly ReferenceSpec[],
  idOf: (kind: string, name: string) => number | string,
): unknown {
  const out = copy(value);
  for (const { spec, node } of findReferences(out, specs)) {
    const name = node[spec.name];
    if (spec.list) {
      if (Array.isArray(name) && node[spec.id] === undefined) {
        const written = name.map((n) => {
          const id = idOf(spec.kind, String(n));
          return spec.idType === "string" ? String(id) : Number(id);
        });
        replaceKey(node, spec.name, spec.id, written);
      }
      Object.assign(node, spec.fixed ?? {});
      continue;
    }
    const named = typeof name === "string" && (spec.name === spec.id || node[spec.id] === undefined);
    if (named) {
      const id = idOf(spec.kind, name);
      const written = spec.idType === "string" ? String(id) : Number(id);
      if (spec.name === spec.id) node[spec.id] = written;
      else replaceKey(node, spec.name, spec.id, written);
    }
    Object.assign(node, spec.fixed ?? {});
  }
  return out;
}

/** What a change-scoped read reads with a declaration: the objects its references name. */
export function referencesToRead(
  declared: Declared,
): Array<{ kind: string; name?: string; id?: number | string }> {
  if (declared.deleted) return [];
  const seen = new Set<string>();
  const out: Array<{ kind: string; name?: string; id?: number | string }> = [];
  for (const ref of declared.refs ?? []) {
    const key = `${ref.kind}\u0000${ref.name ?? ""}\u0000${ref.id ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref.name !== undefined ? { kind: ref.kind, name: ref.name } : { kind: ref.kind, id: ref.id });
  }
  return out;
}
