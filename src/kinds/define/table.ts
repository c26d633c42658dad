/**
 * The plain parts of a kind, derived from its field table: the item's JSON Schema, the desired object
 * (declare), the comparable state of a live object, the field changes of an update, the fields a create
 * sends, the YAML item `pull` writes, and the words for coded values. A kind's hooks call these for
 * the fields they do not handle themselves.
 */
import type { ObjectContext } from "../../config/context.js";
import type { SchemaNode } from "../../config/kinds.js";
import type { Declared } from "../../config/types.js";
import type { FieldChange, LiveObject } from "../../plan/types.js";
import { deepEqual, getPath, isPlainObject } from "../../plan/values.js";
import type { ValueWords } from "../../render/kinds.js";
import { textChange } from "../shared/text-diff.js";
import type { CodecPair, DesiredFieldsOf, Field, FieldTable, InputOf } from "./fields.js";
import { declaredReferences, type ReferenceSpec, withIds, withNames } from "./references.js";

/** What a comparison of nested values needs: the live answer and the names of the ids it holds. */
export interface CompareWith {
  live: LiveObject;
  /** The name an id of a kind stands for in the project (undefined: unknown, or not its own). */
  nameOf: (kind: string, id: number | string) => string | undefined;
  rotateSecrets?: boolean;
}

/** Which keys of a table are the structural ones (SPEC §2, §3); each must be a key of the table. */
export interface Roles {
  /** The object's identity within the project: `name` (a flag's `key`). Compared like any field. */
  identity: string;
  /** The optional `id:` pin, kept across renames. Never compared. */
  pin: string;
  /** `deleted: true`: the tombstone. Never compared. */
  tombstone: string;
}

/**
 * The properties every declared object has (src/config/types.ts `Declared`): `name` holds the identity,
 * whatever the identity's YAML key; no other field's value may be kept under one of them.
 */
const DECLARED_PROPERTIES = new Set(["kind", "name", "id", "deleted", "source"]);

/** A value of an object by key (a declared or live object read as the table's fields). */
function ownValue(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** The desired object of a table: what every kind's is, plus the table's fields. */
export type DesiredOf<T extends FieldTable, K extends string = string> = Declared & {
  kind: K;
} & Omit<DesiredFieldsOf<T>, "name" | "id" | "deleted" | "kind" | "source">;

/** The comparison of one object: the changes, and the declared fields the live answer lacks (older service). */
export interface Compared {
  changes: FieldChange[];
  unreported: string[];
}

export interface Table<T extends FieldTable> {
  readonly fields: T;
  readonly roles: Roles;
  /** The item's schema node: `{type: object, description, additionalProperties: false, required, properties}`. */
  schema(description: string): SchemaNode;
  /**
   * A schema-valid item → its desired object (each field's own `declare`; the kind's hook adds the
   * rest): the identity field decides `Declared.name`, every other field is kept under its `keptAs`,
   * else its YAML key.
   */
  declare(
    kind: string,
    input: InputOf<T>,
    ctx: ObjectContext,
    pinned?: (id: unknown) => number | string,
  ): Declared;
  /** The declared value of the field `key`, wherever the desired object keeps it (undefined: not declared). */
  valueOf(desired: Declared, key: string): unknown;
  /** The comparable form of a value of the field `key` (the value itself for a key the table lacks). */
  normalised(key: string, value: unknown): unknown;
  /**
   * The comparable state of a live object: `id`, then every field with a live side in table order,
   * normalised; fields an older service leaves out (`newer`) after the others, only when reported.
   */
  state(answer: LiveObject): Record<string, unknown>;
  /**
   * The compared fields (`compare` other than `none`) the file declares that differ from `state`.
   * Nested values (`json` fields) are compared only `with` the live answer and the project's names.
   */
  compare(desired: Declared, state: Readonly<Record<string, unknown>>, with_?: CompareWith): Compared;
  /** The compared fields the file declares, as a create sends them (identity first). */
  sent(desired: Declared): Record<string, unknown>;
  /** Every declared field with a live side, as the file gives it (identity first). */
  declared(desired: Declared): Record<string, unknown>;
  /**
   * The YAML item that declares `answer` as it is (fields `pull` writes, in table order); the objects
   * its values name by id are named by name where `nameOf` knows one.
   */
  item(
    answer: LiveObject,
    nameOf?: (kind: string, id: number | string) => string | undefined,
  ): Record<string, unknown>;
  /** Words for coded values (`words` fields), as renderers look them up. */
  readonly values: ValueWords;
  /** Every place the table's fields name other objects (./references.ts). */
  readonly references: readonly ReferenceSpec[];
  /** A body with the objects its nested values name by name written by id (`idOf` throws for none). */
  withIds(
    body: Record<string, unknown>,
    idOf: (kind: string, name: string) => number | string,
  ): Record<string, unknown>;
}

export function fieldTable<const T extends FieldTable>(fields: T, roles: Partial<Roles> = {}): Table<T> {
  const all: Roles = { identity: "name", pin: "id", tombstone: "deleted", ...roles };
  const entries: Array<[string, Field]> = Object.entries(fields);
  const identity = entries.find(([key]) => key === all.identity)?.[1];
  if (identity === undefined || !Object.hasOwn(fields, all.pin) || !Object.hasOwn(fields, all.tombstone)) {
    throw new Error(
      `a field table needs its identity, pin and tombstone fields: ${Object.values(all).join(", ")}`,
    );
  }
  const structural = new Set<string>([all.pin, all.tombstone]);
  const plain = entries.filter(([key]) => !structural.has(key));
  // Where the desired object keeps each field: the identity is `Declared.name`, the others their own.
  const kept = new Map(plain.map(([key, f]) => [key, f.keptAs ?? key]));
  for (const [key, property] of kept) {
    if (key !== all.identity && DECLARED_PROPERTIES.has(property)) {
      throw new Error(
        `field "${key}" would be kept as the declared object's \`${property}\`${property === "name" ? `, which holds the identity (\`${all.identity}\`)` : ""}: give it \`keptAs\`, another property`,
      );
    }
  }
  const compared = plain.filter(([, f]) => f.compare !== "none" && !f.secret);
  const stateful = plain.filter(([, f]) => f.live !== false);
  const rawLive = (key: string, f: Field, answer: LiveObject): unknown => {
    if (typeof f.live === "function") return f.live({ ...answer });
    const wire = f.wire ?? key;
    return wire.includes(".") ? getPath({ ...answer }, wire) : ownValue(answer, wire);
  };
  const desiredValue = (desired: Declared, key: string) =>
    key === all.identity ? desired.name : ownValue(desired, kept.get(key) ?? key);
  const values: Record<string, Record<string, string>> = {};
  for (const [key, f] of entries) {
    if (f.words === undefined) continue;
    values[key] = Object.fromEntries(
      Object.entries(f.words).map(([word, code]) => [JSON.stringify(code), word]),
    );
  }

  const referring = plain.filter(([, f]) => (f.references ?? []).length > 0);
  return {
    fields,
    roles: all,
    values,
    references: referring.flatMap(([, f]) => f.references ?? []),

    withIds(body, idOf) {
      const out = { ...body };
      for (const [key, f] of referring) {
        if (out[key] !== undefined) out[key] = withIds(out[key], f.references ?? [], idOf);
      }
      return out;
    },

    schema(description) {
      return {
        type: "object",
        description,
        additionalProperties: false,
        required: entries.filter(([, f]) => f.required).map(([key]) => key),
        properties: Object.fromEntries(entries.map(([key, f]) => [key, f.schema])),
      };
    },

    declare(kind, input, ctx, pinned) {
      const given = ownValue(input, all.identity);
      const name = identity.declare(given, { ctx, pointer: `/${all.identity}`, item: input });
      const out: Declared & Record<string, unknown> = {
        kind,
        name: typeof name === "string" ? name : String(given ?? ""),
        deleted: ownValue(input, all.tombstone) === true,
        source: ctx.source(),
      };
      const pin = ownValue(input, all.pin);
      if (typeof pin === "number" || typeof pin === "string") out.id = pinned ? pinned(pin) : pin;
      for (const [key, f] of plain) {
        const value = ownValue(input, key);
        if (key === all.identity || value === undefined) continue;
        const declared = f.declare(value, { ctx, pointer: `/${key}`, item: input });
        if (declared === undefined) continue;
        out[kept.get(key) ?? key] = declared;
        if (f.references !== undefined) {
          const refs = declaredReferences(declared, f.references, `/${key}`, (p) => ctx.at(p));
          if (refs.length > 0) out.refs = [...((out.refs as Declared["refs"]) ?? []), ...refs];
        }
      }
      return out;
    },

    valueOf: desiredValue,

    normalised(key, value) {
      const f = entries.find(([k]) => k === key)?.[1];
      return f === undefined ? value : f.normalise(value);
    },

    state(answer) {
      const state: Record<string, unknown> = { id: answer.id };
      const later: Array<[string, unknown]> = [];
      for (const [key, f] of stateful) {
        const raw = rawLive(key, f, answer);
        if (f.newer) {
          if (raw !== undefined) later.push([key, f.normalise(raw)]);
        } else state[key] = f.normalise(raw);
      }
      for (const [key, value] of later) state[key] = value;
      return state;
    },

    compare(desired, state, with_) {
      const out: Compared = { changes: [], unreported: [] };
      for (const [key, f] of compared) {
        const value = desiredValue(desired, key);
        if (value === undefined) continue;
        if (f.codec !== undefined) {
          if (with_ !== undefined) out.changes.push(...nestedChanges(key, f, value, desired, with_, rawLive));
          continue;
        }
        const before = state[key];
        if (before === undefined && f.newer) {
          out.unreported.push(key);
          continue;
        }
        const wanted = f.normalise(value);
        const live = f.compare === "keys" ? declaredKeys(before, wanted) : before;
        if (deepEqual(wanted, live)) continue;
        const after = f.send ? f.send(value) : wanted;
        const change: FieldChange = { path: key, before: live, after };
        if (live === undefined) delete change.before;
        if (f.compare === "text") Object.assign(change, textChange(String(live ?? ""), String(after ?? "")));
        out.changes.push(change);
      }
      return out;
    },

    sent(desired) {
      const body: Record<string, unknown> = {};
      for (const [key, f] of compared) {
        const value = desiredValue(desired, key);
        if (value !== undefined) body[key] = f.send ? f.send(value) : f.normalise(value);
      }
      return body;
    },

    declared(desired) {
      const body: Record<string, unknown> = {};
      for (const [key] of stateful) {
        const value = desiredValue(desired, key);
        if (value !== undefined) body[key] = value;
      }
      return body;
    },

    item(answer, nameOf) {
      const item: Record<string, unknown> = {};
      for (const [key, f] of entries) {
        if (key === all.tombstone || f.secret || f.pull === "never") continue;
        let raw = key === all.pin ? answer.id : rawLive(key, f, answer);
        if (f.references !== undefined && nameOf !== undefined && raw !== undefined && raw !== null) {
          raw = withNames(raw, f.references, nameOf);
        }
        if (f.live === false && key !== all.pin) continue;
        if (f.newer && raw === undefined) continue;
        if (f.pull === "present" && (raw === undefined || raw === null)) continue;
        if (f.pull === "nonEmpty" && isEmpty(raw)) continue;
        item[key] = yamlValue(f, key, raw, values, answer);
      }
      return item;
    },
  };
}

/** Nothing to write: null, a blank text, an empty list. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  return Array.isArray(value) && value.length === 0;
}

function yamlValue(f: Field, key: string, raw: unknown, values: ValueWords, answer: LiveObject): unknown {
  if (f.toYaml) return f.toYaml(raw, { ...answer });
  const word = values[key]?.[JSON.stringify(raw)];
  return word ?? raw;
}

/** The live object narrowed to the keys the desired one declares (compare mode `keys`). */
function declaredKeys(live: unknown, desired: unknown): unknown {
  if (!isPlainObject(live) || !isPlainObject(desired)) return live;
  return Object.fromEntries(
    Object.keys(desired)
      .filter((k) => k in live)
      .map((k) => [k, live[k]]),
  );
}

/**
 * The changes of a nested value (a `json` field): both sides with their references by name (a raw id
 * and the name of the same object compare equal; an id no name is known for shows as `#id` where the
 * file writes names), then the codec's comparison, or the declared top-level keys that differ after
 * its normaliser, one change each (`<field>.<key>`) with its words.
 */
function nestedChanges(
  key: string,
  f: Field,
  value: unknown,
  desired: Declared,
  with_: CompareWith,
  rawLive: (key: string, f: Field, answer: LiveObject) => unknown,
): FieldChange[] {
  const specs = f.references ?? [];
  const unknown = (id: number | string) => `#${id}`;
  const declared = withNames(value, specs, with_.nameOf, { desired: true, unknown }) as Record<
    string,
    unknown
  >;
  const raw = rawLive(key, f, with_.live);
  const live = raw === undefined || raw === null ? raw : withNames(raw, specs, with_.nameOf, { unknown });
  const codec = f.codec ?? {};
  const pair: CodecPair = { desired, live: with_.live, rotateSecrets: with_.rotateSecrets === true };
  if (codec.compare) return codec.compare(declared, live, pair);
  if (!isPlainObject(declared)) return [];
  const wanted = codec.normalise ? codec.normalise(declared, "desired", pair) : declared;
  const current = isPlainObject(live) ? (codec.normalise ? codec.normalise(live, "live", pair) : live) : {};
  return Object.keys(declared)
    .filter((k) => !deepEqual(wanted[k] ?? null, current[k] ?? null))
    .map((k) => {
      const path = `${key}.${k}`;
      const before = current[k] ?? null;
      const after = wanted[k] ?? null;
      const says = codec.says?.(path, before, after) ?? [];
      return { path, before, after, ...(says.length > 0 ? { says } : {}) };
    });
}
