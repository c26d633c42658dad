/**
 * --prune: live objects of a project that no file declares (by id or name; tombstones count as
 * declared) are deleted, only for the kinds the project's files list, never those whose name matches
 * the project's `ignore` globs.
 */
import picomatch from "picomatch";
import type { DesiredProject } from "../config/types.js";
import { batchExportHandler } from "../kinds/batch-export.js";
import { dashboardHandler } from "../kinds/dashboard.js";
import { makeAction, type PlanSink } from "./context.js";
import type { LiveProject, ObjectRef, ResourceKind } from "./types.js";

interface Claimed {
  dashboards: Set<number | string>;
  batchExports: Set<number | string>;
}

export function planPrune(
  desired: DesiredProject,
  live: LiveProject,
  claimed: Claimed,
  sink: PlanSink,
): void {
  if (desired.manages.dashboards) {
    const ignored = matcher(desired.ignore.dashboards);
    const names = nameCounts(live.dashboards.map((d) => d.name ?? ""));
    for (const d of live.dashboards) {
      const name = d.name ?? "";
      if (claimed.dashboards.has(d.id) || ignored(name)) continue;
      const ref = pruneRef("dashboard", live.project, name, d.id, names);
      sink.actions.push(makeAction("soft_delete", ref, { before: { ...dashboardHandler.normaliseLive(d) } }));
    }
  }
  if (desired.manages.batch_exports) {
    const ignored = matcher(desired.ignore.batch_exports);
    const names = nameCounts(live.batchExports.map((b) => b.name));
    for (const b of live.batchExports) {
      if (claimed.batchExports.has(b.id) || ignored(b.name)) continue;
      const ref = pruneRef("batch_export", live.project, b.name, b.id, names);
      sink.actions.push(makeAction("delete", ref, { before: { ...batchExportHandler.normaliseLive(b) } }));
    }
  }
}

function matcher(globs: string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false;
  return picomatch(globs, { dot: true });
}

function nameCounts(names: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** A live name shared by several pruned objects gets its id appended so that each has its own key. */
function pruneRef(
  kind: ResourceKind,
  project: number,
  name: string,
  id: number | string,
  counts: Map<string, number>,
): ObjectRef {
  const unique = (counts.get(name) ?? 0) <= 1;
  return { kind, project, name: unique ? name : `${name} (id ${id})`, id };
}
