/**
 * Names looked up in batches (SPEC §3 "Concurrency"). Right before the first create of a kind in a
 * project, the names of all the plan's creates of that kind there are looked up together: one name
 * search each, or one walk of the kind's list, whichever needs fewer requests. A first apply then costs
 * about one request per object, not two. The check for duplicated names after an apply makes the same
 * choice.
 */
import { type LiveProject, liveOf, liveTotal } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { LIST_PAGE } from "../service/pages.js";
import type { ApplyKind } from "./kinds.js";

/** Live ids by name (every name asked for has an entry, empty when none is live). */
export type LiveIds = Map<string, Array<number | string>>;

/**
 * `search`: one `findByName` per name; `list`: one walk of the kind's list. A kind whose `findByName`
 * reads the list anyway walks it once for several names. A kind with a name search walks the list only
 * when its pages are fewer than the names, which needs its live count (`total`, from the plan's read);
 * unknown, it searches.
 */
export function lookupWay(
  kind: Pick<ApplyKind, "searches" | "listLive">,
  names: number,
  total: number | undefined,
): "search" | "list" {
  if (kind.listLive === undefined || names <= 1) return "search";
  if (kind.searches !== true) return "list";
  if (total === undefined) return "search";
  return Math.max(1, Math.ceil(total / LIST_PAGE)) < names ? "list" : "search";
}

/** The live ids of each of `names` (objects of `kind` in `project`), read fresh the cheaper way. */
export async function lookUpNames(
  kind: ApplyKind,
  client: ServiceClient,
  project: number,
  names: ReadonlySet<string>,
  total: number | undefined,
): Promise<LiveIds> {
  const byName: LiveIds = new Map([...names].map((name) => [name, []]));
  if (lookupWay(kind, names.size, total) === "list" && kind.listLive !== undefined) {
    for (const object of await kind.listLive(client, project)) {
      byName.get(object.name ?? "")?.push(object.id);
    }
    return byName;
  }
  await Promise.all(
    [...names].map(async (name) => byName.set(name, await kind.findByName(client, project, name))),
  );
  return byName;
}

/**
 * How many live objects of `kind` the plan's read found in `project`, when it read them all (a
 * change-scoped read knows only a count it was told); undefined when unknown.
 */
export function totalOf(
  live: readonly LiveProject[] | undefined,
  project: number,
  kind: string,
): number | undefined {
  const read = live?.find((p) => p.project === project);
  return read === undefined || !(kind in read.kinds) ? undefined : liveTotal(liveOf(read, kind));
}
