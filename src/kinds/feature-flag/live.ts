/**
 * A project's live flags, read with the fewest requests for what the files declare (SPEC §6): the flag
 * list (100 a page); the archived flags (a list of their own) only when a declaration is missing from
 * it, declares `archived`, or depends on a flag it lacks; a pinned id found in neither by id (a
 * soft-deleted flag, which the service still reads by id). The cohorts a flag names are the cohort
 * kind's (the read stage reads them when a declaration names one by name).
 * A change-scoped read (SPEC §3 "Change-scoped plans") reads the change's flags and the flags they
 * depend on by key and id instead (the model's search: archived ones included), never a list of flags; besides
 * them, the flags their live conditions name that were not read, by id (so the plan names them by
 * key, as the full plan does).
 * Live objects carry their key as `name` (the planner matches identities by `name`); the service's
 * `name`, the flag's description, is kept as `description`.
 */
import type { Declared } from "../../config/types.js";
import { UserError } from "../../errors.js";
import type { LiveKind, LiveObject, ObjectLink } from "../../plan/types.js";
import { compareText } from "../../plan/values.js";
import type { ReadScope } from "../../read/kinds.js";
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import { findReferences } from "../define/references.js";
import type { FeatureFlag } from "./answers.js";
import { FEATURE_FLAG } from "./name.js";
import { FLAG_CONDITIONS } from "./references.js";
import { featureFlagsApi } from "./service.js";

/** What the reads need of a declared flag (fields.ts's `DesiredFlag`). */
type DeclaredFlag = Declared & { id?: number; archived?: boolean };

export type LiveFlag = Omit<FeatureFlag, "name"> &
  LiveObject & { id: number; name: string; description: string };

export interface LiveFlags extends LiveKind {
  objects: LiveFlag[];
  /** The keys the files declare in the project (a dependency may name a flag this apply creates). */
  declared: string[];
  /**
   * Archived flags no file declares that a declared flag depends on, and in a change-scoped read the
   * flags the change's live flags depend on: known for keys and ids, never matched or pruned (an
   * archived flag is hidden from the service's list, and from --prune).
   */
  referable: LiveFlag[];
}

/** What was read besides the flag list, so that `apply --plan` reads exactly the same again. */
export interface FlagReads {
  archived: boolean;
  /** Pinned ids in neither list, read one by one. */
  pinned: number[];
  declared: string[];
  /** Every pinned id the files declare (an archived flag is kept only when declared by key or pin). */
  pins: number[];
  /**
   * A change-scoped read's: the ids the live conditions of the change's flags name that it did not
   * read otherwise, read one by one.
   */
  linked?: number[];
}

export function asLive(flag: FeatureFlag): LiveFlag {
  return { ...flag, name: flag.key, description: flag.name ?? "" };
}

/** The ids of the flags a live flag's conditions name, as the service writes them. */
export function dependencyIds(flag: Pick<FeatureFlag, "filters">): string[] {
  return [
    ...new Set(findReferences(flag.filters, FLAG_CONDITIONS).map(({ spec, node }) => String(node[spec.id]))),
  ];
}

/** The keys of the flags a declaration's conditions name. */
const flagsNamed = (d: Declared) =>
  (d.refs ?? []).flatMap((r) => (r.kind === FEATURE_FLAG && r.name !== undefined ? [r.name] : []));

function reads(
  declared: readonly DeclaredFlag[],
  objects: readonly LiveFlag[],
): Omit<FlagReads, "pinned" | "pins"> {
  const keys = new Set(objects.map((f) => f.key));
  const ids = new Set(objects.map((f) => f.id));
  const declaredKeys = new Set(declared.map((d) => d.name));
  const archived = declared.some(
    (d) =>
      d.archived === true ||
      (d.id !== undefined ? !ids.has(d.id) : !keys.has(d.name)) ||
      flagsNamed(d).some((key) => !keys.has(key) && !declaredKeys.has(key)),
  );
  return { archived, declared: [...declaredKeys] };
}

/** One flag by id, soft-deleted or archived; undefined when the service has none. */
async function byId(client: ServiceClient, project: number, id: number): Promise<LiveFlag | undefined> {
  try {
    return asLive(await featureFlagsApi(client).get(project, id));
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

const found = (flags: ReadonlyArray<LiveFlag | undefined>): LiveFlag[] =>
  flags.filter((f): f is LiveFlag => f !== undefined);

async function withDetails(
  client: ServiceClient,
  project: number,
  objects: LiveFlag[],
  read: FlagReads,
): Promise<LiveFlags> {
  const archived = read.archived ? (await featureFlagsApi(client).listAll(project, true)).map(asLive) : [];
  const keys = new Set(read.declared);
  const pins = new Set(read.pins);
  const isDeclared = (f: LiveFlag) => keys.has(f.key) || pins.has(f.id);
  const all = [...objects, ...archived.filter(isDeclared)];
  const known = new Set(all.map((f) => f.id));
  const [pinned, linked] = await Promise.all([
    Promise.all(read.pinned.filter((id) => !known.has(id)).map((id) => byId(client, project, id))),
    Promise.all((read.linked ?? []).filter((id) => !known.has(id)).map((id) => byId(client, project, id))),
  ]);
  const live: LiveFlags = {
    objects: [...all, ...found(pinned)],
    declared: read.declared,
    referable: [...archived.filter((f) => !isDeclared(f)), ...found(linked)],
  };
  return live;
}

/** The ids of the flags a live flag's conditions name, as numbers. */
function dependencyNumbers(flag: Pick<FeatureFlag, "filters">): number[] {
  return dependencyIds(flag)
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

/**
 * What a change-scoped read reads besides its objects (found by key and id already, archived and
 * soft-deleted ones included): the flags the change's live flags depend on that it did not find.
 */
function scopedReads(declared: readonly DeclaredFlag[], objects: readonly LiveFlag[]): FlagReads {
  const keys = new Set(declared.map((d) => d.name));
  const pins = new Set(declared.flatMap((d) => (d.id !== undefined ? [d.id] : [])));
  const ids = new Set(objects.map((f) => f.id));
  const linked = objects
    .filter((f) => keys.has(f.key) || pins.has(f.id))
    .flatMap(dependencyNumbers)
    .filter((id) => !ids.has(id));
  return {
    archived: false,
    pinned: [],
    declared: [...keys],
    pins: [...pins],
    linked: [...new Set(linked)],
  };
}

export async function readFlags(
  client: ServiceClient,
  project: number,
  declared: readonly Declared[],
  _run: unknown,
  list: () => Promise<LiveFlag[]>,
  scope?: ReadScope,
): Promise<{ live: LiveFlags; read: FlagReads }> {
  const flags = declared as readonly DeclaredFlag[];
  const objects = await list();
  if (scope !== undefined) {
    const read = scopedReads(flags, objects);
    return { live: await withDetails(client, project, objects, read), read };
  }
  const ids = new Set(objects.map((f) => f.id));
  const read: FlagReads = {
    ...reads(flags, objects),
    pinned: flags.flatMap((d) => (d.id !== undefined && !ids.has(d.id) ? [d.id] : [])),
    pins: flags.flatMap((d) => (d.id !== undefined ? [d.id] : [])),
  };
  return { live: await withDetails(client, project, objects, read), read };
}

export async function rereadFlags(
  client: ServiceClient,
  project: number,
  read: unknown,
  _run: unknown,
  list: () => Promise<LiveFlag[]>,
): Promise<LiveFlags> {
  const r = read as Partial<FlagReads> | null;
  const ids = (value: unknown) =>
    Array.isArray(value) && value.every((id) => Number.isSafeInteger(id) && id > 0);
  const valid =
    r !== null &&
    typeof r === "object" &&
    typeof r.archived === "boolean" &&
    ids(r.pinned) &&
    ids(r.pins) &&
    (r.linked === undefined || ids(r.linked)) &&
    Array.isArray(r.declared) &&
    r.declared.every((k) => typeof k === "string");
  if (!valid) throw new UserError("the saved plan's record of what was read for feature flags is damaged");
  return withDetails(client, project, await list(), r as FlagReads);
}

/** A flag's state besides the table's fields: its version (a write anyone made bumps it) and what it depends on. */
export function flagDetails(live: LiveFlag, kindLive: LiveFlags): Record<string, unknown> {
  const keys = new Map([...kindLive.objects, ...kindLive.referable].map((f) => [String(f.id), f.key]));
  return {
    version: live.version ?? null,
    depends_on: dependencyIds(live).map((id) => keys.get(id) ?? `#${id}`),
  };
}

/** The project's live flags (not deleted) whose conditions name `flag`: its dependents, by key. */
export function liveDependents(
  flag: Pick<LiveFlag, "id">,
  kindLive: Pick<LiveFlags, "objects" | "referable">,
): ObjectLink[] {
  const id = String(flag.id);
  return [...kindLive.objects, ...kindLive.referable]
    .filter((other) => other.id !== flag.id && !other.deleted && dependencyIds(other).includes(id))
    .sort((a, b) => compareText(a.key, b.key))
    .map((other) => ({ kind: FEATURE_FLAG, name: other.key, id: other.id }));
}

/** The live flags a live flag's conditions name, among those read: what it depends on now. */
export function liveDependencies(
  flag: Pick<FeatureFlag, "filters">,
  kindLive: Pick<LiveFlags, "objects" | "referable">,
): ObjectLink[] {
  const byId = new Map([...kindLive.objects, ...kindLive.referable].map((f) => [String(f.id), f]));
  return dependencyIds(flag).flatMap((id) => {
    const found = byId.get(id);
    return found === undefined ? [] : [{ kind: FEATURE_FLAG, name: found.key, id: found.id }];
  });
}
