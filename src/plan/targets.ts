/**
 * --target KIND/NAME narrows a plan to the named objects (declared name, or live name for pruned ones).
 * The whole plan is built first, so identity and prune see every declared object; only then are the
 * actions and notes of other objects dropped. A target that names nothing declared or live is an error.
 */
import type { DesiredProject } from "../config/types.js";
import type { PlanSink } from "./context.js";
import type { Action, LiveProject, PlanNote, ResourceKind } from "./types.js";

const KINDS: Record<string, ResourceKind> = {
  dashboard: "dashboard",
  dashboards: "dashboard",
  batch_export: "batch_export",
  batch_exports: "batch_export",
  "batch-export": "batch_export",
};

export function parseTarget(target: string): { kind: ResourceKind; name: string } | undefined {
  const slash = target.indexOf("/");
  const kind = KINDS[target.slice(0, slash)];
  const name = target.slice(slash + 1);
  return slash > 0 && kind && name !== "" ? { kind, name } : undefined;
}

export function narrowToTargets(
  sink: PlanSink,
  desired: readonly DesiredProject[],
  live: readonly LiveProject[],
  targets: readonly string[],
): { actions: Action[]; notes: PlanNote[] } {
  const wanted = new Set<string>();
  for (const target of targets) {
    const parsed = parseTarget(target);
    if (!parsed) {
      sink.errors.push({ message: `--target ${target}: expected dashboard/NAME or batch_export/NAME` });
      continue;
    }
    const key = `${parsed.kind}/${parsed.name}`;
    wanted.add(key);
    if (!known(parsed.kind, parsed.name, desired, live)) {
      sink.errors.push({ message: `--target ${target}: no declared or live ${parsed.kind} has this name` });
    }
  }
  const keep = (ref: { kind: ResourceKind; name: string } | undefined) =>
    ref !== undefined && wanted.has(`${ref.kind}/${ref.name}`);
  return {
    actions: sink.actions.filter((a) => keep(a.object) || keep(liveNameOf(a))),
    notes: sink.notes.filter((n) => keep(n.object)),
  };
}

/** Pruned objects with a shared name carry an id suffix; the target still names them by live name. */
function liveNameOf(action: Action): { kind: ResourceKind; name: string } | undefined {
  const name = action.before?.name;
  return typeof name === "string" && action.object.source === undefined
    ? { kind: action.object.kind, name }
    : undefined;
}

function known(
  kind: ResourceKind,
  name: string,
  desired: readonly DesiredProject[],
  live: readonly LiveProject[],
) {
  if (kind === "dashboard") {
    return (
      desired.some((p) => p.dashboards.some((d) => d.name === name)) ||
      live.some((p) => p.dashboards.some((d) => d.name === name))
    );
  }
  return (
    desired.some((p) => p.batchExports.some((b) => b.name === name)) ||
    live.some((p) => p.batchExports.some((b) => b.name === name))
  );
}
