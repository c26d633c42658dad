/**
 * The live objects that hold another object's id, among what the plan read (`ProjectView`): a soft
 * delete runs after them (`required_by`: apply changes or deletes them first) and warns of those
 * that will still name it after this apply, which the service may refuse the delete for. Where each
 * kind keeps such ids is the caller's (`holders`: the service's forms, found anywhere in a field).
 */
import type { Declared } from "../../config/types.js";
import type { ProjectView } from "../../plan/kinds.js";
import type { LiveObject, ObjectLink } from "../../plan/types.js";
import { findReferences, type ReferenceSpec } from "./references.js";

/** A kind whose live objects may hold the target's id: in which field, at which places. */
export interface Holder {
  readonly kind: string;
  readonly field: string;
  readonly specs: readonly ReferenceSpec[];
}

const holds = (value: unknown, specs: readonly ReferenceSpec[], id: string) =>
  findReferences(value, specs).some(({ spec, node }) => {
    const held = node[spec.id];
    return Array.isArray(held) ? held.some((x) => String(x) === id) : String(held) === id;
  });

/**
 * The live objects whose values hold `target`'s id (never `target` itself). With `still`, only those
 * whose declaration in the project still names it after this apply, by name or id (or that no file
 * declares; a tombstoned one does not).
 */
export function liveReferrers(
  target: { kind: string; id: number | string; name: string },
  holders: readonly Holder[],
  view: ProjectView | undefined,
  still = false,
): ObjectLink[] {
  const id = String(target.id);
  return holders.flatMap(({ kind, field, specs }) =>
    ((view?.live(kind)?.objects ?? []) as Array<LiveObject & Record<string, unknown>>)
      .filter((o) => o.deleted !== true && !(kind === target.kind && String(o.id) === id))
      .filter((o) => holds(o[field], specs, id))
      .filter((o) => !still || stillNames(kind, o, target, view))
      .map((o) => ({ kind, name: o.name ?? String(o.id), id: o.id })),
  );
}

/** Whether the declaration of live object `o` (by pin, else name) still names the target; none: yes. */
function stillNames(
  kind: string,
  o: LiveObject,
  target: { kind: string; id: number | string; name: string },
  view: ProjectView | undefined,
): boolean {
  const declared: readonly Declared[] = view?.declared(kind) ?? [];
  const d =
    declared.find((x) => x.id !== undefined && String(x.id) === String(o.id)) ??
    declared.find((x) => x.id === undefined && x.name === o.name);
  if (d === undefined) return true;
  if (d.deleted) return false;
  return (d.refs ?? []).some(
    (r) => r.kind === target.kind && (r.name === target.name || String(r.id) === String(target.id)),
  );
}
