/**
 * Identity: a declared object matches the live object with its pinned `id`, else the one live object
 * with its name. Pins are matched first so that an object renamed through its pin is not also claimed
 * by name. Several live objects with the declared name and no pin is an error naming their ids, unless
 * `several` recognises them (the new and the old object of a replacement whose delete failed): then the
 * declaration matches the one it names and the others are the pair's leftovers.
 */
import type { SourceRef } from "../config/types.js";
import type { PlanError } from "./context.js";

interface DesiredIdentity {
  name: string;
  id?: number | string;
  source: SourceRef;
}

interface LiveIdentity {
  id: number | string;
  name: string | null;
}

/** What `several` makes of the live objects that share an unpinned declared name. */
export interface Recognised<L> {
  /** The one the declaration describes. */
  live: L;
  /** The rest, left behind by a replacement; deleted by the plan. */
  leftovers: L[];
  /** Why, for the reviewer (and for the error when the plan may not delete them). */
  why: string;
}

export interface Matching<D, L> {
  pairs: {
    desired: D;
    live: L | undefined;
    /** Set when several live objects share the name and `several` recognised them. */
    replaced?: Recognised<L>;
  }[];
  /** Ids of live objects that some declared object (tombstones included) claims. */
  claimed: Set<number | string>;
}

export function matchObjects<D extends DesiredIdentity, L extends LiveIdentity>(
  desired: readonly D[],
  live: readonly L[],
  label: string,
  errors: PlanError[],
  several?: (desired: D, candidates: readonly L[]) => Recognised<L> | undefined,
): Matching<D, L> {
  const byId = new Map<number | string, L>();
  for (const object of live) byId.set(object.id, object);
  const claimed = new Set<number | string>();
  const pinnedBy = new Map<number | string, D>();
  for (const d of desired) {
    if (d.id === undefined) continue;
    const first = pinnedBy.get(d.id);
    if (first) {
      errors.push({
        message: `${label} "${d.name}": id ${d.id} is already pinned by "${first.name}" (${first.source.file}:${first.source.line}); one live object cannot be declared twice`,
        source: d.source,
      });
    }
    pinnedBy.set(d.id, d);
    if (byId.has(d.id)) claimed.add(d.id);
  }
  const byName = new Map<string, L[]>();
  for (const object of live) {
    if (claimed.has(object.id)) continue;
    const name = object.name ?? "";
    const list = byName.get(name);
    if (list) list.push(object);
    else byName.set(name, [object]);
  }
  const pairs: Matching<D, L>["pairs"] = [];
  for (const d of desired) {
    if (d.id !== undefined) {
      pairs.push({ desired: d, live: byId.get(d.id) });
      continue;
    }
    const candidates = byName.get(d.name) ?? [];
    const recognised = candidates.length > 1 ? several?.(d, candidates) : undefined;
    if (recognised) {
      for (const c of candidates) claimed.add(c.id);
      pairs.push({ desired: d, live: recognised.live, replaced: recognised });
      continue;
    }
    if (candidates.length > 1) {
      const ids = candidates.map((c) => String(c.id)).join(", ");
      errors.push({
        message: `${label} "${d.name}": ${candidates.length} live objects have this name (ids ${ids}); add an \`id:\` pin to say which one is meant`,
        source: d.source,
      });
      continue;
    }
    const match = candidates[0];
    if (match) claimed.add(match.id);
    pairs.push({ desired: d, live: match });
  }
  return { pairs, claimed };
}
