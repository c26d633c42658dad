/**
 * A kind's field table: one entry per YAML key of an item, written once. From an entry come the key's
 * JSON Schema (composed into schemas/config.schema.json), its TypeScript types (what the file holds,
 * `In`; what the planner compares and sends, `Out`), how a file's value becomes the desired one, how
 * both sides are normalised and compared, where the value sits in the service's answers and bodies,
 * and how `pull` writes it back. See ./index.ts for how a kind uses the table.
 *
 * The constructors below cover the plain fields (text, long text, switches, numbers, word ↔ code
 * choices, tag sets, instants, lists); `field()` takes any schema with the types spelt out, for what a
 * kind's hooks handle (a dashboard's collaborators, a batch export's destination).
 */
import type { ObjectContext } from "../../config/context.js";
import type { SchemaNode } from "../../config/kinds.js";
import type { Declared } from "../../config/types.js";
import type { PlanVerb } from "../../plan/kinds.js";
import type { FieldChange, LiveObject } from "../../plan/types.js";
import { normaliseInstant, normaliseTags, normaliseText } from "../shared/normalise.js";
import type { ReferenceSpec } from "./references.js";

/**
 * How a declared value is compared with the live one (SPEC §3 "Comparison"), after `normalise` on both
 * sides:
 * - `value`: deep equality;
 * - `set`: a set (normalise sorts it; tags);
 * - `text`: long text: equality, and a change carries a unified diff (descriptions, HogQL);
 * - `instant`: timestamps as instants (normaliseInstant);
 * - `keys`: an object compared on the keys the file declares only (what the service adds or rewrites
 *   under other keys is never a diff: a flag's `filters`, an insight's `query`);
 * - `none`: never compared by `update`: the field is reconciled by a verb of its own (`paused`, a
 *   dashboard's `sharing`) or by a hook (collaborators, a destination), or it is write-only.
 */
export type CompareMode = "value" | "set" | "text" | "instant" | "keys" | "none";

/**
 * How `pull` writes a field: `always` (defaults included, so a later edit in the UI shows as drift),
 * `present` (not null), `nonEmpty` (not null, a blank text or an empty list), or `never`.
 */
export type PullForm = "always" | "present" | "nonEmpty" | "never";

/** Where a field's `declare` reports and reads: the item's context and the field's own pointer. */
export interface FieldContext {
  ctx: ObjectContext;
  /** JSON pointer of the value inside the item, e.g. `/description`. */
  pointer: string;
  /** The whole schema-valid item, for a value whose form depends on another field (encrypted payloads). */
  item: Readonly<Record<string, unknown>>;
}

/**
 * One entry of a field table. `In` is the YAML value once the schema accepted it, `Out` the desired
 * value the planner compares and sends (`words` map one to the other; tags are lowercased, …).
 */
export interface Field<In = unknown, Out = In> {
  readonly schema: SchemaNode;
  /** In the item's `required` list. */
  readonly required: boolean;
  /** Dotted path in the service's answers and request bodies; the YAML key when absent. */
  readonly wire?: string;
  /**
   * The desired object's property that keeps the declared value; the YAML key when absent. A declared
   * object's own properties (`name`, the identity whatever its YAML key, and `kind`, `id`, `deleted`,
   * `source`) are taken: a field whose YAML key is one of them, other than the identity, keeps its value
   * under another (a flag's `name`, its description, identified by `key`, as `description`).
   */
  readonly keptAs?: string;
  /** A schema-valid YAML value → the desired value; undefined (after reporting) when it is not usable. */
  declare(value: In, at: FieldContext): Out | undefined;
  /** The comparable form, applied to the desired and to the live value alike. */
  readonly normalise: (value: unknown) => unknown;
  /** The desired value as an update's `after` (what is sent); absent: its comparable form. */
  readonly send?: (value: unknown) => unknown;
  readonly compare: CompareMode;
  /** Write-only (SPEC §3 "Secrets"): never compared, never pulled, sent on create and rotation. */
  readonly secret: boolean;
  /** YAML words for the service's codes, e.g. `{ everyone: 21, only_collaborators: 37 }`. */
  readonly words?: Readonly<Record<string, string | number>>;
  /**
   * The raw live value out of one answer (before `normalise`); absent: the value at `wire`. `false`:
   * the field has no live side in the kind's list answer (`backfill_on_unpause`; details a hook reads).
   */
  readonly live?: false | ((answer: Readonly<Record<string, unknown>>) => unknown);
  /**
   * Older services leave it out of their answers: a live object without it is not compared on it
   * (the plan says so), and its comparable state lists it after the fields every service reports.
   */
  readonly newer: boolean;
  readonly pull: PullForm;
  /**
   * A switch the service changes through verbs of its own, never an update (compare `none`): the plain
   * plan turns it `on` / `off` when the declared value differs from the live one, and after a create
   * that declares it on. `before` / `after` of those actions are `{ <key>: live }` / `{ <key>: declared }`.
   */
  readonly toggles?: { readonly on: PlanVerb; readonly off: PlanVerb };
  /**
   * The raw live value as `pull` writes it (references already by name), `answer` the whole live
   * object; absent: its YAML word (`words`), else as the service sent it.
   */
  readonly toYaml?: (value: unknown, answer: Readonly<Record<string, unknown>>) => unknown;
  /**
   * Where the value names other objects (./references.ts): recorded at declare, resolved per project
   * at plan, compared by name, written by id in what apply sends, by name in what `pull` writes.
   */
  readonly references?: readonly ReferenceSpec[];
  /** A nested value's comparison (a `json` field): see `JsonCodec`. */
  readonly codec?: JsonCodec;
  /** Phantom (never set): carries `In` and `Out` for the types a table derives. */
  types?(value: In): Out;
}

/** The declared and the live object a nested value belongs to, for comparisons that depend on them. */
export interface CodecPair {
  desired: Declared;
  live: LiveObject | undefined;
  /** `--rotate-secrets`: write-only values are sent again. */
  rotateSecrets: boolean;
}

/**
 * How a nested value (a `json` field) is compared, after its references are named on both sides: its
 * comparable form (the service's rewrites undone), compared on the top-level keys the file declares,
 * one change per differing key (`<field>.<key>`) with a reviewer's words; or a comparison of its own.
 */
export interface JsonCodec {
  /** The comparable form of a value, of either side. Absent: as it is. */
  readonly normalise?: (
    value: Readonly<Record<string, unknown>>,
    side: "desired" | "live",
    pair: CodecPair,
  ) => Record<string, unknown>;
  /** What a change of one key does, in words (`path` e.g. `filters.groups`); none: the values show. */
  readonly says?: (path: string, before: unknown, after: unknown) => string[];
  /** The value is one change (its path the field's key), whole on a create too (an insight's query). */
  readonly whole?: boolean;
  /** A comparison of its own instead of the declared keys' (an insight query's, with a diff). */
  readonly compare?: (
    declared: Readonly<Record<string, unknown>>,
    live: unknown,
    pair: CodecPair,
  ) => FieldChange[];
}

/** A field table: YAML key → entry, in the order the schema and the comparison list them. */
export type FieldTable = Readonly<Record<string, Field<unknown, unknown>>>;

type Options<In, Out> = Partial<Omit<Field<In, Out>, "schema" | "types">>;

/**
 * An entry with the types spelt out: `In` as the file holds it, `Out` as the planner sees it. Without
 * a `declare`, the value is kept as the schema accepted it, strings interpolated (`${NAME}` from the
 * file's `variables:`), lists and objects deeply: `Out` is then `In`'s shape.
 */
export function field<In, Out = In>(schema: SchemaNode, options: Options<In, Out> = {}): Field<In, Out> {
  return {
    schema,
    required: false,
    declare: (value, at): Out | undefined => at.ctx.deep(at.pointer, value) as Out,
    normalise: (value) => value,
    compare: "value",
    secret: false,
    newer: false,
    pull: "always",
    ...options,
  };
}

/** `{ type, description, ...keywords }`: the order the published schema writes them in. */
function node(type: string | string[], description: string, keywords: SchemaNode = {}): SchemaNode {
  return { type, description, ...keywords };
}

/** A one-line string. */
export function text(description: string, keywords: SchemaNode = {}, options: Options<string, string> = {}) {
  return field<string>(node("string", description, keywords), options);
}

/** Long text: compared after dropping the trailing newline a YAML block adds; a change shows a diff. */
export function longText(description: string, options: Options<string, string> = {}) {
  return field<string>(node("string", description), {
    declare: (value, at) => at.ctx.text(at.pointer, value),
    normalise: normaliseText,
    compare: "text",
    ...options,
  });
}

export function flag(description: string, options: Options<boolean, boolean> = {}) {
  return field<boolean>(node("boolean", description), { declare: (value) => value, ...options });
}

export function integer(
  description: string,
  keywords: SchemaNode = {},
  options: Options<number, number> = {},
) {
  return field<number>(node("integer", description, keywords), { declare: (value) => value, ...options });
}

/** One of a closed list of strings. */
export function choice<const T extends string>(
  values: readonly T[],
  description: string,
  options: Options<T, T> = {},
) {
  return field<T>({ enum: [...values], description }, { declare: (value) => value, ...options });
}

/**
 * A service code with YAML words for it, e.g. `{ everyone: 21, only_collaborators: 37 }`: the file takes
 * either, the plan holds the code, outputs and `pull` show the word.
 */
export function words<const W extends Record<string, string | number>>(
  table: W,
  description: string,
  options: Options<keyof W | W[keyof W], W[keyof W]> = {},
) {
  return field<keyof W | W[keyof W], W[keyof W]>(
    { enum: [...Object.keys(table), ...Object.values(table)], description },
    {
      words: table,
      declare: (value) =>
        Object.hasOwn(table, value as string) ? table[value as keyof W] : (value as W[keyof W]),
      ...options,
    },
  );
}

/** A case-insensitive set of tags: trimmed, lowercased, unique and sorted on both sides. */
export function tags(description: string, options: Options<string[], string[]> = {}) {
  return field<string[], string[]>(
    { type: "array", items: { type: "string", minLength: 1 }, description },
    {
      declare: (value, at) => normaliseTags(value.map((t, i) => at.ctx.text(`${at.pointer}/${i}`, t))),
      normalise: normaliseTags,
      toYaml: normaliseTags,
      compare: "set",
      ...options,
    },
  );
}

/**
 * A timestamp, compared as an instant (`…Z`, `….000000Z` and `…+00:00` are the same), sent as
 * declared, pulled as the instant (`…Z` when it has no fraction of a second).
 */
export function instant(description: string, options: Options<string | null, string | null> = {}) {
  return field<string | null>(node(["string", "null"], description), {
    normalise: normaliseInstant,
    send: (value) => value,
    compare: "instant",
    pull: "nonEmpty",
    toYaml: (value) => normaliseInstant(value)?.replace(".000000Z", "Z"),
    ...options,
  });
}

/**
 * A nested value (SPEC §2 "Only declared fields are managed"): its declared shape (`schema`), how it
 * compares (`codec`: on the top-level keys the file declares, both sides normalised) and where it
 * names other objects (`references`). Strings are interpolated; `declare` may check more. `pull`
 * writes it when present.
 */
export function json<In extends Record<string, unknown> = Record<string, unknown>, Out = In>(
  schema: SchemaNode,
  options: Options<In, Out> & { codec?: JsonCodec; references?: readonly ReferenceSpec[] } = {},
) {
  return field<In, Out>(schema, { codec: {}, pull: "present", ...options });
}

/** The YAML value a field holds once the schema accepted it. */
export type InOf<F> = F extends { types?: (value: infer In) => unknown } ? In : never;
/** The desired value a field gives the planner. */
export type OutOf<F> = F extends { types?: (value: never) => infer Out } ? Out : never;

/** What a schema-valid item of the table holds (every key optional: the schema's `required` is checked first). */
export type InputOf<T extends FieldTable> = { [K in keyof T]?: InOf<T[K]> };
/** The desired values of a table's fields, each absent when the file leaves it out (SPEC §2: not managed). */
export type DesiredFieldsOf<T extends FieldTable> = { -readonly [K in keyof T]?: OutOf<T[K]> };
