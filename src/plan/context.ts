/**
 * The planner's own types (kept out of the fixed contract in types.ts): its options, its errors, and the
 * accumulator each per-kind planner writes into.
 */
import type { Declared, SourceRef } from "../config/types.js";
import type { Action, FieldChange, ObjectLink, ObjectRef, PlanNote, ResourceKind } from "./types.js";
import type { PlanVerb } from "./verbs.js";

export interface BuildOptions {
  /** Delete live objects that no file declares (kinds the project manages, minus `ignore` globs). */
  prune: boolean;
  /** Allow what is otherwise refused: replacing a batch export (delete + create). */
  force: boolean;
  /** `KIND/NAME` (e.g. `dashboard/Weekly KPIs`): narrow the plan to these objects. */
  targets?: string[];
  /** Send every declared secret again in an update. */
  rotateSecrets: boolean;
  /**
   * List, read-only, the live objects no file declares (those --prune would delete) in
   * `Plan.undeclared`; no action for them. Ignored with --prune, and in a change-scoped plan.
   */
  undeclared?: boolean;
  /** When the live state was read; used for `created_at` and unpause gap warnings. */
  now: Date;
  /**
   * A change-scoped plan (`--changed-only`): only these declarations are planned (`declarationKey`),
   * against live state read for them alone; nothing is pruned.
   */
  scope?: readonly string[];
}

/**
 * A declaration's key in a change-scoped plan: its project, kind and pinned id, else its name (names
 * are unique per project and kind among unpinned declarations, pins among pinned ones).
 */
export function declarationKey(project: number, declared: Pick<Declared, "kind" | "name" | "id">): string {
  const identity = declared.id !== undefined ? `#${declared.id}` : `=${declared.name}`;
  return `${project}/${declared.kind}/${identity}`;
}

/** A reason the plan cannot be made; the command prints all of them and exits 1. */
export interface PlanError {
  message: string;
  source?: SourceRef;
}

/** Where per-kind planners put what they find. */
export interface PlanSink {
  actions: Action[];
  notes: PlanNote[];
  errors: PlanError[];
  /** With `undeclared`: the live objects no file declares. */
  undeclared?: ObjectRef[];
}

export function newSink(): PlanSink {
  return { actions: [], notes: [], errors: [] };
}

/**
 * One action of a kind's verb. `destructive` is the verb's, or, for a verb whose destructiveness
 * `depends` on the live object, what the planner says (absent: false).
 */
export function makeAction(
  verb: PlanVerb,
  object: ObjectRef,
  parts: {
    before?: Record<string, unknown>;
    after?: Record<string, unknown>;
    changes?: FieldChange[];
    warnings?: string[];
    destructive?: boolean;
    /** Why the action needs --force (it is then destructive whatever the verb says). */
    guard?: string;
    requires?: ObjectLink[];
    required_by?: ObjectLink[];
    preconditions?: Record<string, unknown>;
    sends?: Record<string, unknown>;
  } = {},
): Action {
  const result: Action = {
    action: verb.name,
    object,
    changes: parts.changes ?? [],
    destructive: verb.destructive === "depends" ? parts.destructive === true : verb.destructive,
    warnings: parts.warnings ?? [],
  };
  if (parts.before !== undefined) result.before = parts.before;
  if (parts.after !== undefined) result.after = parts.after;
  if (parts.requires !== undefined && parts.requires.length > 0) result.requires = parts.requires;
  if (parts.required_by !== undefined && parts.required_by.length > 0) result.required_by = parts.required_by;
  if (parts.preconditions !== undefined) result.preconditions = parts.preconditions;
  if (parts.sends !== undefined && Object.keys(parts.sends).length > 0) result.sends = parts.sends;
  if (parts.guard !== undefined) {
    result.guard = parts.guard;
    result.destructive = true;
  }
  return result;
}

/** The identity of a declared object: its name and source, and the live id (else its pinned id). */
export function declaredRef(
  kind: ResourceKind,
  project: number,
  desired: { name: string; id?: number | string; source: SourceRef },
  live: { id: number | string } | undefined,
): ObjectRef {
  const ref: ObjectRef = { kind, project, name: desired.name, source: desired.source };
  const id = live?.id ?? desired.id;
  if (id !== undefined) ref.id = id;
  return ref;
}
