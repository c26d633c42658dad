/**
 * The check after an apply (SPEC §3 "Concurrency"): every name this apply created is looked up again,
 * and one that now has several live objects of its kind in its project is reported, naming their ids.
 * The look-up right before each create stops a second apply that starts after the first one created;
 * this catches what it cannot: two applies whose look-ups both came before either create. Of two such
 * applies, the one that checks last sees both objects, so at least one of them reports it.
 *
 * Objects the plan itself names (the old export of a replacement whose delete failed, a pinned object
 * renamed away from the name) are not counted: their outcome is already reported action by action.
 */
import type { LiveProject, Plan } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { type ActionResult, kindKey, planKnownIds } from "./apply.js";
import type { ApplyKind } from "./kinds.js";
import { lookUpNames, totalOf } from "./lookups.js";

export interface Duplicate {
  kind: string;
  project: number;
  name: string;
  /** Every live id with the name that the plan did not already know, in the service's order. */
  ids: Array<number | string>;
}

export interface DuplicateCheck {
  duplicates: Duplicate[];
  /** Why some names could not be checked (a list request failed). */
  unchecked?: string;
}

/**
 * Per project and kind that this apply created objects in: the created names looked up with one
 * search each or one walk of the kind's list, whichever needs fewer requests (./lookups.ts; `live`,
 * the state the plan was made from, gives the list's size). Nothing is read when nothing was created.
 */
export async function findDuplicates(
  plan: Plan,
  results: readonly ActionResult[],
  deps: { kinds: readonly ApplyKind[]; client: ServiceClient; live?: readonly LiveProject[] },
): Promise<DuplicateCheck> {
  const created = new Map<string, { kind: ApplyKind; project: number; names: Set<string> }>();
  for (const { action, outcome } of results) {
    if (action.action !== "create" || outcome !== "ok") continue;
    const kind = deps.kinds.find((k) => k.name === action.object.kind);
    if (kind === undefined) continue;
    const key = kindKey(action.object);
    const entry = created.get(key) ?? { kind, project: action.object.project, names: new Set() };
    entry.names.add(action.object.name);
    created.set(key, entry);
  }
  const known = planKnownIds(plan);
  const problems: string[] = [];
  const found = await Promise.all(
    [...created].map(async ([key, { kind, project, names }]) => {
      try {
        const before = totalOf(deps.live, project, kind.name);
        const total = before === undefined ? undefined : before + names.size;
        const ids = await lookUpNames(kind, deps.client, project, names, total);
        const ignore = known.get(key) ?? new Set();
        return [...names].flatMap((name): Duplicate[] => {
          const others = (ids.get(name) ?? []).filter((id) => !ignore.has(id));
          return others.length > 1 ? [{ kind: kind.name, project, name, ids: others }] : [];
        });
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
        return [];
      }
    }),
  );
  const duplicates = found.flat().sort(compare);
  return problems.length > 0 ? { duplicates, unchecked: problems.join("; ") } : { duplicates };
}

/** By project, then kind, then name. */
function compare(a: Duplicate, b: Duplicate): number {
  return a.project - b.project || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name);
}

/** `dashboard "X" now has 2 live objects in project 12345 (ids 12, 15): pin the right one …` */
export function duplicateMessage(duplicate: Duplicate, word: string): string {
  const { name, project, ids } = duplicate;
  return `${word} "${name}" now has ${ids.length} live objects in project ${project} (ids ${ids.join(", ")}): pin the right one with \`id:\` and delete the others`;
}
