/**
 * `--target KIND/SELECTOR` narrows a plan to some objects, as Terraform's `-target` does. SELECTOR is
 * a name (the declared name, or the live name of a pruned object), `#ID` (the live or pinned id:
 * `dashboard/#42`, `batch_export/#0190…`), or a glob over names in the syntax of `ignore:` globs
 * (`dashboard/Weekly*`; matched in linear time by the same matcher). A name always matches itself, so
 * a name holding `*`, `?` or `[` still targets exactly that object; `\#` starts a name with `#`.
 * KIND is a kind's name, its YAML key or either with dashes (`batch_export`, `batch_exports`, `batch-export`).
 *
 * The whole plan is built first, so identity and prune see every declared object; only then are the
 * actions and notes of other objects dropped, and the plan records its targets (it is partial). A
 * target that matches no declared or live object is an error.
 */
import { compileGlob, globMatcher } from "../config/ignore.js";
import { type DesiredProject, declaredOf } from "../config/types.js";
import type { PlanSink } from "./context.js";
import type { PlanKind } from "./kinds.js";
import { type Action, type LiveProject, liveOf, type PlanNote } from "./types.js";

type Named = Pick<PlanKind, "name"> & { key?: string };

/** A parsed target: its kind, and whether it names an id or names (exactly, or by a glob). */
export type Target =
  | { kind: string; id: string }
  | { kind: string; name: string; matches: (name: string) => boolean };

export function parseTarget(kinds: readonly Named[], target: string): Target | undefined {
  const slash = target.indexOf("/");
  if (slash <= 0) return undefined;
  const word = target.slice(0, slash).replaceAll("-", "_");
  const kind = kinds.find((k) => k.name === word || k.key === word);
  const selector = target.slice(slash + 1);
  if (!kind || selector === "") return undefined;
  if (selector.startsWith("#")) {
    const id = selector.slice(1).trim();
    return id === "" ? undefined : { kind: kind.name, id };
  }
  const glob = typeof compileGlob(selector) === "string" ? undefined : globMatcher([selector]);
  const name = selector.startsWith("\\#") ? selector.slice(1) : selector;
  return {
    kind: kind.name,
    name,
    matches: (candidate) => candidate === name || (glob?.(candidate) ?? false),
  };
}

/** An object as a target sees it: its kind, its names (declared and live) and its id. */
interface Candidate {
  kind: string;
  names: readonly string[];
  id: number | string | undefined;
}

function hits(target: Target, object: Candidate): boolean {
  if (object.kind !== target.kind) return false;
  if ("id" in target)
    return object.id !== undefined && String(object.id).toLowerCase() === target.id.toLowerCase();
  return object.names.some(target.matches);
}

export function narrowToTargets(
  kinds: readonly Named[],
  sink: PlanSink,
  desired: readonly DesiredProject[],
  live: readonly LiveProject[],
  targets: readonly string[],
): { actions: Action[]; notes: PlanNote[] } {
  const wanted: Target[] = [];
  for (const target of targets) {
    const parsed = parseTarget(kinds, target);
    if (!parsed) {
      const forms = kinds.map((k) => `${k.name}/NAME`).join(", ");
      sink.errors.push({
        message: `--target ${target}: expected ${forms}, KIND/#ID or a glob such as ${kinds[0]?.name ?? "KIND"}/Weekly*`,
      });
      continue;
    }
    wanted.push(parsed);
    if (!candidates(parsed.kind, desired, live).some((c) => hits(parsed, c))) {
      const words = "id" in parsed ? "this id" : isGlob(target) ? "a name matching it" : "this name";
      sink.errors.push({ message: `--target ${target}: no declared or live ${parsed.kind} has ${words}` });
    }
  }
  const keep = (object: Candidate | undefined) => object !== undefined && wanted.some((t) => hits(t, object));
  return {
    actions: sink.actions.filter((a) => keep(actionCandidate(a))),
    notes: sink.notes.filter((n) =>
      keep(n.object && { kind: n.object.kind, names: [n.object.name], id: n.object.id }),
    ),
  };
}

function isGlob(target: string): boolean {
  return /[*?[\\]/.test(target.slice(target.indexOf("/") + 1));
}

/** Pruned objects with a shared name carry an id suffix; the target still names them by live name. */
function actionCandidate(action: Action): Candidate {
  const names = [action.object.name];
  const liveName = action.before?.name;
  if (typeof liveName === "string" && action.object.source === undefined) names.push(liveName);
  return { kind: action.object.kind, names, id: action.object.id };
}

function candidates(
  kind: string,
  desired: readonly DesiredProject[],
  live: readonly LiveProject[],
): Candidate[] {
  const declared = desired.flatMap((p) =>
    declaredOf(p, kind).map((d) => ({ kind, names: [d.name], id: (d as { id?: number | string }).id })),
  );
  const existing = live.flatMap((p) =>
    liveOf(p, kind).objects.map((o) => ({ kind, names: o.name === null ? [] : [o.name], id: o.id })),
  );
  return [...declared, ...existing];
}
