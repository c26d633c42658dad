/**
 * --target KIND/NAME narrows a plan to the named objects (declared name, or live name for pruned ones).
 * The whole plan is built first, so identity and prune see every declared object; only then are the
 * actions and notes of other objects dropped. A target that names nothing declared or live is an error.
 * KIND is a kind's name, its YAML key or either with dashes (`batch_export`, `batch_exports`, `batch-export`).
 */
import { type DesiredProject, declaredOf } from "../config/types.js";
import type { PlanSink } from "./context.js";
import type { PlanKind } from "./kinds.js";
import { type Action, type LiveProject, liveOf, type PlanNote } from "./types.js";

type Named = Pick<PlanKind, "name"> & { key?: string };

export function parseTarget(
  kinds: readonly Named[],
  target: string,
): { kind: string; name: string } | undefined {
  const slash = target.indexOf("/");
  if (slash <= 0) return undefined;
  const word = target.slice(0, slash).replaceAll("-", "_");
  const kind = kinds.find((k) => k.name === word || k.key === word);
  const name = target.slice(slash + 1);
  return kind && name !== "" ? { kind: kind.name, name } : undefined;
}

export function narrowToTargets(
  kinds: readonly Named[],
  sink: PlanSink,
  desired: readonly DesiredProject[],
  live: readonly LiveProject[],
  targets: readonly string[],
): { actions: Action[]; notes: PlanNote[] } {
  const wanted = new Set<string>();
  for (const target of targets) {
    const parsed = parseTarget(kinds, target);
    if (!parsed) {
      const forms = kinds.map((k) => `${k.name}/NAME`).join(" or ");
      sink.errors.push({ message: `--target ${target}: expected ${forms}` });
      continue;
    }
    wanted.add(`${parsed.kind}/${parsed.name}`);
    if (!known(parsed.kind, parsed.name, desired, live)) {
      sink.errors.push({ message: `--target ${target}: no declared or live ${parsed.kind} has this name` });
    }
  }
  const keep = (ref: { kind: string; name: string } | undefined) =>
    ref !== undefined && wanted.has(`${ref.kind}/${ref.name}`);
  return {
    actions: sink.actions.filter((a) => keep(a.object) || keep(liveNameOf(a))),
    notes: sink.notes.filter((n) => keep(n.object)),
  };
}

/** Pruned objects with a shared name carry an id suffix; the target still names them by live name. */
function liveNameOf(action: Action): { kind: string; name: string } | undefined {
  const name = action.before?.name;
  return typeof name === "string" && action.object.source === undefined
    ? { kind: action.object.kind, name }
    : undefined;
}

function known(kind: string, name: string, desired: readonly DesiredProject[], live: readonly LiveProject[]) {
  return (
    desired.some((p) => declaredOf(p, kind).some((d) => d.name === name)) ||
    live.some((p) => liveOf(p, kind).objects.some((o) => o.name === name))
  );
}
