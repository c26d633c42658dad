/**
 * What the loader needs of a resource kind: its YAML key, its words for messages, the JSON Schema of
 * one item (the config schema is composed from these, see schema.ts), and `declare`, which turns one
 * schema-valid item into the kind's desired object with the rules a schema cannot express. The loader
 * never branches on a kind's name.
 */
import type { ObjectContext } from "./context.js";
import type { Declared, DesiredProject, SourceRef } from "./types.js";

/** A problem found across the declarations of one project (a tile naming an insight no file declares). */
export interface ProjectProblem {
  source: SourceRef;
  message: string;
  /** Absent: an error. */
  severity?: "warning";
}

/** A JSON Schema node, as far as the loader reads one. */
export type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  enum?: unknown[];
  description?: string;
  "x-secret"?: boolean;
  "x-expect"?: string;
  $defs?: Record<string, SchemaNode>;
  [keyword: string]: unknown;
};

/**
 * What one set of files serving several projects needs of a kind (SPEC §9), by pointer patterns
 * relative to an item (`*` stands for any key or index, `**` for any depth): which lists inside an
 * item merge entry by entry in an overlay, and which values are one project's ids.
 */
export interface EnvironmentRules {
  /**
   * Lists whose entries have an identity (a collaborator's `email` or `user_uuid`, a variant's `key`):
   * an overlay's entries merge into the shared ones with the same identity, and cannot change it.
   * Every other list is replaced whole.
   */
  keyedLists?: readonly { path: string; keys: readonly string[] }[];
  /**
   * Values that are ids of one project (a pin, a cohort or an insight by id, an integration by number):
   * refused in a file that serves several environments. `where`: only when the mapping holding the
   * value has these values (a property of `type: cohort`); `numbers`: only when the value is a number.
   */
  projectIds?: readonly { path: string; where?: Record<string, unknown>; numbers?: boolean }[];
  /**
   * What a declaration needs that each project has on its own (SPEC §9's warnings before promoting and
   * in plans of several environments): where an item names a group type index it aggregates by,
   * an integration by `{kind, name}` or a member (an email, else a UUID); the objects it names by
   * name are its references, which the kit declares.
   */
  needs?: readonly NeedRule[];
}

/**
 * One place of a kind's items where something each project has on its own is named: a pointer from
 * the item (`*` any key or item, `**` any depth), `where` as in `projectIds`.
 */
export interface NeedRule {
  what: "group_type" | "integration" | "member";
  path: string;
  where?: Record<string, unknown>;
}

/** How messages and outputs name a kind: `dashboard` / `dashboards`. */
export interface KindWords {
  one: string;
  many: string;
}

export interface ConfigKind {
  /** Stable name in plans and outputs, e.g. `batch_export`. */
  readonly name: string;
  /** The file's list key, e.g. `batch_exports`; also its key under `ignore:`. */
  readonly key: string;
  readonly words: KindWords;
  readonly schema: {
    /** Describes the list in editors. */
    description: string;
    /** Schema of one item; may refer to `#/$defs/…`. */
    item: SchemaNode;
    /** Definitions the item refers to; names must not clash with other kinds'. */
    defs: Record<string, SchemaNode>;
  };
  /** The YAML key holding an item's identity, as messages name it (`name`, a flag's `key`); default `name`. */
  readonly identityKey?: string;
  /** Overlay merging and the ids a shared file may not hold (SPEC §9); absent: lists replaced, no ids. */
  readonly environments?: EnvironmentRules;
  /**
   * One schema-valid item → the kind's desired object. Problems go to `ctx` (never thrown); `ctx.text`
   * interpolates non-secret strings.
   */
  declare(input: Record<string, unknown>, ctx: ObjectContext): Declared;
  /**
   * For an item left out of the desired state because of schema errors: checks that must still be
   * reported in the same run (a literal secret must leave Git whatever else is wrong).
   */
  checkBroken?(input: unknown, ctx: ObjectContext): void;
  /**
   * JSON pointers inside an item (e.g. `/destination/config/password`) of its secret fields: `${NAME}`
   * there follows the secret rule, not the `variables:` one. Absent: the kind has no secret fields.
   */
  secretPointers?(input: unknown): string[];
  /**
   * True for a JSON pointer inside an item (e.g. `/destination/config/password`) whose value must never
   * be echoed in a message, because it may be a secret written by mistake.
   */
  quiet?(pointer: string): boolean;
  /**
   * Rules across the kinds of one project, once every file is read: what this kind's objects name in
   * other kinds (a dashboard's tiles, the insights the files declare). Absent: none.
   */
  checkProject?(project: DesiredProject): ProjectProblem[];
}
