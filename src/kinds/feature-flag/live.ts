/**
 * A project's live flags, read with the fewest requests for what the files declare (SPEC §6): the flag
 * list (100 a page); the archived flags (a list of their own) only when a declaration is missing from
 * it, declares `archived`, or depends on a flag it lacks; a pinned id found in neither by id (a
 * soft-deleted flag, which the service still reads by id); the cohorts only when a file names one.
 * Live objects carry their key as `name` (the planner matches identities by `name`); the service's
 * `name`, the flag's description, is kept as `description`.
 */
import type { Declared } from "../../config/types.js";
import { UserError } from "../../errors.js";
import type { LiveKind, LiveObject } from "../../plan/types.js";
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import type { Cohort, FeatureFlag } from "../../service/types.js";
import type { DesiredFlag } from "./fields.js";
import { isObject } from "./filters.js";
import { getFlag, listCohorts, listFlags } from "./service.js";

export type LiveFlag = Omit<FeatureFlag, "name"> &
  LiveObject & { id: number; name: string; description: string };

export interface LiveFlags extends LiveKind {
  objects: LiveFlag[];
  /** The project's cohorts, read only when a file names one. */
  cohorts?: Cohort[];
  /** The keys the files declare in the project (a dependency may name a flag this apply creates). */
  declared: string[];
  /**
   * Archived flags no file declares that a declared flag depends on: known for keys and ids, never
   * matched or pruned (an archived flag is hidden from the service's list, and from --prune).
   */
  others: LiveFlag[];
}

/** What was read besides the flag list, so that `apply --plan` reads exactly the same again. */
export interface FlagReads {
  archived: boolean;
  /** Pinned ids in neither list, read one by one. */
  pinned: number[];
  cohorts: boolean;
  declared: string[];
  /** Every pinned id the files declare (an archived flag is kept only when declared by key or pin). */
  pins: number[];
}

export function asLive(flag: FeatureFlag): LiveFlag {
  return { ...flag, name: flag.key, description: flag.name ?? "" };
}

/** The keys of the flags a live flag depends on (ids mapped through the project's flags). */
export function liveReferences(
  flag: Pick<FeatureFlag, "filters">,
  keyOf: (id: string) => string | undefined,
): string[] {
  const out: string[] = [];
  const groups = isObject(flag.filters) && Array.isArray(flag.filters.groups) ? flag.filters.groups : [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.properties)) continue;
    for (const prop of group.properties) {
      if (isObject(prop) && prop.type === "flag" && prop.key !== undefined) {
        const id = String(prop.key);
        out.push(keyOf(id) ?? `#${id}`);
      }
    }
  }
  return [...new Set(out)];
}

function reads(
  declared: readonly DesiredFlag[],
  objects: readonly LiveFlag[],
): Omit<FlagReads, "pinned" | "pins"> {
  const keys = new Set(objects.map((f) => f.key));
  const ids = new Set(objects.map((f) => f.id));
  const declaredKeys = new Set(declared.map((d) => d.name));
  const archived = declared.some(
    (d) =>
      d.archived === true ||
      (d.id !== undefined ? !ids.has(d.id) : !keys.has(d.name)) ||
      d.references.some((r) => !keys.has(r.key) && !declaredKeys.has(r.key)),
  );
  return {
    archived,
    cohorts: declared.some((d) => !d.deleted && d.cohorts.length > 0),
    declared: [...declaredKeys],
  };
}

async function withDetails(
  client: ServiceClient,
  project: number,
  objects: LiveFlag[],
  read: FlagReads,
): Promise<LiveFlags> {
  const archived = read.archived ? (await listFlags(client, project, true)).map(asLive) : [];
  const keys = new Set(read.declared);
  const pins = new Set(read.pins);
  const isDeclared = (f: LiveFlag) => keys.has(f.key) || pins.has(f.id);
  const all = [...objects, ...archived.filter(isDeclared)];
  const known = new Set(all.map((f) => f.id));
  const pinned = await Promise.all(
    read.pinned
      .filter((id) => !known.has(id))
      .map(async (id) => {
        try {
          return asLive(await getFlag(client, project, id));
        } catch (error) {
          if (error instanceof ServiceError && error.status === 404) return undefined;
          throw error;
        }
      }),
  );
  const live: LiveFlags = {
    objects: [...all, ...pinned.filter((f): f is LiveFlag => f !== undefined)],
    declared: read.declared,
    others: archived.filter((f) => !isDeclared(f)),
  };
  if (read.cohorts) live.cohorts = await listCohorts(client, project);
  return live;
}

export async function readFlags(
  client: ServiceClient,
  project: number,
  declared: readonly Declared[],
): Promise<{ live: LiveFlags; read: FlagReads }> {
  const flags = declared as readonly DesiredFlag[];
  const objects = (await listFlags(client, project)).map(asLive);
  const ids = new Set(objects.map((f) => f.id));
  const read: FlagReads = {
    ...reads(flags, objects),
    pinned: flags.flatMap((d) => (d.id !== undefined && !ids.has(d.id) ? [d.id] : [])),
    pins: flags.flatMap((d) => (d.id !== undefined ? [d.id] : [])),
  };
  return { live: await withDetails(client, project, objects, read), read };
}

export async function rereadFlags(client: ServiceClient, project: number, read: unknown): Promise<LiveFlags> {
  const r = read as Partial<FlagReads> | null;
  const valid =
    r !== null &&
    typeof r === "object" &&
    typeof r.archived === "boolean" &&
    typeof r.cohorts === "boolean" &&
    [r.pinned, r.pins].every(
      (ids) => Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id) && id > 0),
    ) &&
    Array.isArray(r.declared) &&
    r.declared.every((k) => typeof k === "string");
  if (!valid) throw new UserError("the saved plan's record of what was read for feature flags is damaged");
  const objects = (await listFlags(client, project)).map(asLive);
  return withDetails(client, project, objects, r as FlagReads);
}

/** A flag's state besides the table's fields: its version (a write anyone made bumps it) and what it depends on. */
export function flagDetails(live: LiveFlag, kindLive: LiveFlags): Record<string, unknown> {
  const keyOf = keysById(kindLive);
  return { version: live.version ?? null, depends_on: liveReferences(live, keyOf) };
}

/** Flag id → key, among the project's live flags. */
export function keysById(
  kindLive: Pick<LiveFlags, "objects" | "others">,
): (id: string) => string | undefined {
  const map = new Map([...kindLive.objects, ...kindLive.others].map((f) => [String(f.id), f.key]));
  return (id) => map.get(id);
}

/** The keys of the project's live flags (not deleted) whose conditions name `flag`: its dependents. */
export function liveDependents(
  flag: Pick<LiveFlag, "id">,
  kindLive: Pick<LiveFlags, "objects" | "others">,
): string[] {
  const id = String(flag.id);
  const named = (other: LiveFlag) => liveReferences(other, (ref) => ref).includes(id);
  return [...kindLive.objects, ...kindLive.others]
    .filter((other) => other.id !== flag.id && !other.deleted && named(other))
    .map((other) => other.key)
    .sort();
}
