/**
 * Fingerprints of live state for saved plans: sha256 of the canonical JSON of each touched object's
 * normalised live state (with its collaborators and sharing when they were fetched). Server-owned
 * fields that move on their own (last_accessed_at, latest_runs, …) are not part of it, so only a change
 * that matters to the plan makes `apply --plan` refuse.
 */
import { createHash } from "node:crypto";
import { batchExportHandler } from "../kinds/batch-export.js";
import { dashboardHandler } from "../kinds/dashboard.js";
import { canonicalJson } from "../kinds/normalise.js";
import type { BatchExport, DashboardBasic } from "../service/types.js";
import type { Action, LiveProject, ObjectRef } from "./types.js";
import { objectKey } from "./types.js";

export const ABSENT = "absent";

interface LiveIndex {
  /** The arrays (and lengths) the index was built from: a different list rebuilds it. */
  from: [LiveProject["dashboards"], number, LiveProject["batchExports"], number];
  dashboards: Map<number | string, DashboardBasic>;
  batchExports: Map<number | string, BatchExport>;
}

const indexes = new WeakMap<LiveProject, LiveIndex>();

/** Id and name lookups of a live project, built once (a plan may touch thousands of objects). */
function indexOf(live: LiveProject): LiveIndex {
  const from: LiveIndex["from"] = [
    live.dashboards,
    live.dashboards.length,
    live.batchExports,
    live.batchExports.length,
  ];
  let index = indexes.get(live);
  if (!index || index.from.some((part, i) => part !== from[i])) {
    index = { from, dashboards: new Map(), batchExports: new Map() };
    for (const d of live.dashboards) {
      if (!index.dashboards.has(`name:${d.name ?? ""}`)) index.dashboards.set(`name:${d.name ?? ""}`, d);
      index.dashboards.set(d.id, d);
    }
    for (const b of live.batchExports) {
      if (!index.batchExports.has(`name:${b.name}`)) index.batchExports.set(`name:${b.name}`, b);
      index.batchExports.set(b.id, b);
    }
    indexes.set(live, index);
  }
  return index;
}

/** The normalised live object a ref names: by id when it has one, else by name. */
function findLive(live: LiveProject, ref: ObjectRef): unknown {
  const key = ref.id ?? `name:${ref.name}`;
  if (ref.kind === "dashboard") {
    const d = indexOf(live).dashboards.get(key);
    if (!d) return undefined;
    const extras: Parameters<typeof dashboardHandler.normaliseLive>[1] = {};
    const collaborators = live.collaborators[d.id];
    const sharing = live.sharing[d.id];
    if (collaborators) extras.collaborators = collaborators;
    if (sharing) extras.sharing = sharing;
    return dashboardHandler.normaliseLive(d, extras);
  }
  const b = indexOf(live).batchExports.get(key);
  return b ? batchExportHandler.normaliseLive(b) : undefined;
}

/** The fingerprint of one object's live state, or "absent" when it is not live. */
export function fingerprintLive(live: LiveProject | undefined, ref: ObjectRef): string {
  const state = live ? findLive(live, ref) : undefined;
  if (state === undefined) return ABSENT;
  return createHash("sha256").update(canonicalJson(state)).digest("hex");
}

/** Fingerprints of every object the actions touch, keyed by `objectKey`; the first action's ref wins. */
export function fingerprintActions(
  actions: readonly Action[],
  live: readonly LiveProject[],
): Record<string, string> {
  const byProject = new Map(live.map((p) => [p.project, p]));
  const out: Record<string, string> = {};
  for (const action of actions) {
    const key = objectKey(action.object);
    if (key in out) continue;
    out[key] = fingerprintLive(byProject.get(action.object.project), action.object);
  }
  return out;
}
