/**
 * Fingerprints of live state for saved plans: sha256 of the canonical JSON of each touched object's
 * state as its kind normalises it (with the details that were read, e.g. collaborators). Server-owned
 * fields that move on their own (last_accessed_at, latest_runs, …) are not part of it, so only a change
 * that matters to the plan makes `apply --plan` refuse.
 */
import { createHash } from "node:crypto";
import type { PlanKind } from "./kinds.js";
import type { Action, LiveKind, LiveObject, LiveProject, ObjectRef } from "./types.js";
import { fingerprintKeys, liveOf } from "./types.js";
import { canonicalJson } from "./values.js";

export const ABSENT = "absent";

interface LiveIndex {
  /** The array (and length) the index was built from: a different list rebuilds it. */
  from: [LiveObject[], number];
  byKey: Map<number | string, LiveObject>;
}

const indexes = new WeakMap<LiveKind, LiveIndex>();

/** Id and name lookups of one kind's live objects, built once (a plan may touch thousands). */
function indexOf(live: LiveKind): LiveIndex {
  let index = indexes.get(live);
  if (!index || index.from[0] !== live.objects || index.from[1] !== live.objects.length) {
    index = { from: [live.objects, live.objects.length], byKey: new Map() };
    for (const object of live.objects) {
      const name = `name:${object.name ?? ""}`;
      if (!index.byKey.has(name)) index.byKey.set(name, object);
      index.byKey.set(object.id, object);
    }
    indexes.set(live, index);
  }
  return index;
}

/** The fingerprint of one object's live state (by id when the ref has one, else by name), or "absent". */
export function fingerprintLive(
  kinds: readonly PlanKind[],
  live: LiveProject | undefined,
  ref: ObjectRef,
): string {
  const kind = kinds.find((k) => k.name === ref.kind);
  if (!live || !kind) return ABSENT;
  const kindLive = liveOf(live, ref.kind);
  const object = indexOf(kindLive).byKey.get(ref.id ?? `name:${ref.name}`);
  if (object === undefined) return ABSENT;
  return createHash("sha256")
    .update(canonicalJson(kind.state(object, kindLive)))
    .digest("hex");
}

/** Fingerprints of every object the actions touch, keyed by `fingerprintKeys`; the first action's ref wins. */
export function fingerprintActions(
  kinds: readonly PlanKind[],
  actions: readonly Action[],
  live: readonly LiveProject[],
): Record<string, string> {
  const byProject = new Map(live.map((p) => [p.project, p]));
  const keys = fingerprintKeys(actions);
  const out: Record<string, string> = {};
  for (const [i, action] of actions.entries()) {
    const key = keys[i] as string;
    if (key in out) continue;
    out[key] = fingerprintLive(kinds, byProject.get(action.object.project), action.object);
  }
  return out;
}
