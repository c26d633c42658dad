/**
 * The change-scoped read (SPEC §3 "Change-scoped plans", `--changed-only`): live state for the
 * declarations a change touches, read by pinned id or with the service's search (exact matches kept),
 * never by listing a kind the service can search. Also read, not planned: the declarations the change
 * removed (to say what stays live) and what the changed ones refer to (a tile's insight, a flag's
 * flags). A kind the service cannot search (batch exports: a project has few) reads its list, as the
 * full read does.
 *
 * Identity is decided as in the full plan: a live object some other declaration pins is never the
 * match of a name in the change, and a declaration whose name a changed pin takes an object away from
 * (the pinned object bore its name) is planned with the change. The lists are cheaper, and asked for
 * instead (`full`), when some kind's objects to read one by one outnumber its list's pages.
 */
import { type Declared, type DesiredProject, declaredOf } from "../config/types.js";
import { DELETE_FLOOR, declarationKey, displaced } from "../plan/index.js";
import type { LiveKind, LiveProject } from "../plan/types.js";
import type { ServiceClient } from "../service/client.js";
import { LIST_PAGE } from "../service/pages.js";
import { inProject, type ReadSet } from "./fetch.js";
import type { ReadKind, ReadRun, ReadScope } from "./kinds.js";

/** A declaration REF had and the files have no more. */
export interface GoneDeclaration {
  project: number | undefined;
  kind: string;
  name: string;
  id?: number | string;
}

export interface ChangeToRead {
  /** The declarations of the change (the loader's objects): read and planned. */
  changed: ReadonlySet<Declared>;
  /** Declarations the change removed: read, never planned (nothing prunes). */
  removed: readonly GoneDeclaration[];
}

/** A removed declaration and what is live under its identity. */
export interface RemovedLive extends GoneDeclaration {
  project: number;
  /** The live object's id, when one is live. */
  live?: number | string;
}

export interface ScopedRead {
  live: LiveProject[];
  reads: ReadSet[];
  /** `declarationKey`s of the declarations to plan. */
  planned: string[];
  removed: RemovedLive[];
}

/** The change's live state, or why the full read is cheaper. */
export async function fetchChangedState(
  kinds: readonly ReadKind[],
  client: ServiceClient,
  desired: readonly DesiredProject[],
  change: ChangeToRead,
  run: ReadRun,
): Promise<ScopedRead | { full: string }> {
  const projects = desired.filter((p): p is DesiredProject & { project: number } => p.project !== undefined);
  const plans = projects.map((p) => scopeOf(kinds, p, change));
  // What the change costs to read one by one, against the list pages of the kinds it touches.
  const totals = await Promise.all(
    plans.map((plan) => inProject(plan.project, () => estimate(kinds, client, plan))),
  );
  const tooBig = totals.find((t): t is string => typeof t === "string");
  if (tooBig !== undefined) return { full: tooBig };
  const read = await Promise.all(
    plans.map((plan, i) =>
      inProject(plan.project, () => readScope(kinds, client, plan, totals[i] as Map<string, number>, run)),
    ),
  );
  return {
    live: read.map((r) => r.live),
    reads: read.map((r) => r.reads),
    planned: plans.flatMap(plannedKeys),
    removed: plans.flatMap((plan, i) => removedLive(plan, read[i]?.live as LiveProject)),
  };
}

/**
 * The change against live state read whole (when the lists cost fewer requests than the change):
 * the declarations to plan (the change and those it displaces) and what its removed ones left live.
 */
export function changeOnLive(
  kinds: readonly ReadKind[],
  desired: readonly DesiredProject[],
  change: ChangeToRead,
  live: readonly LiveProject[],
): Pick<ScopedRead, "planned" | "removed"> {
  const projects = desired.filter((p): p is DesiredProject & { project: number } => p.project !== undefined);
  const plans = projects.map((p) => scopeOf(kinds, p, change));
  return {
    planned: plans.flatMap((plan) => {
      const read = live.find((l) => l.project === plan.project);
      for (const [kind] of plan.scopes) if (read?.kinds[kind]) claimNeighbours(plan, kind, read.kinds[kind]);
      return plannedKeys(plan);
    }),
    removed: plans.flatMap((plan) => {
      const read = live.find((l) => l.project === plan.project);
      return read === undefined ? [] : removedLive(plan, read);
    }),
  };
}

function plannedKeys(plan: ProjectScope): string[] {
  return [...plan.planned].flatMap(([, list]) => list.map((d) => declarationKey(plan.project, d)));
}

/** One project's scope: per kind, the declarations to plan and what to read. */
interface ProjectScope {
  project: number;
  declared: DesiredProject;
  planned: Map<string, Declared[]>;
  scopes: Map<string, ReadScope>;
  removed: GoneDeclaration[];
}

function scopeOf(
  kinds: readonly ReadKind[],
  project: DesiredProject & { project: number },
  change: ChangeToRead,
) {
  const plan: ProjectScope = {
    project: project.project,
    declared: project,
    planned: new Map(),
    scopes: new Map(),
    removed: change.removed.filter((r) => r.project === project.project),
  };
  for (const kind of kinds) {
    const planned = declaredOf(project, kind.name).filter((d) => change.changed.has(d));
    if (planned.length > 0) plan.planned.set(kind.name, planned);
  }
  for (const [kind, list] of plan.planned) for (const d of list) want(plan, kind, d);
  for (const gone of plan.removed) want(plan, gone.kind, gone);
  for (const [kind, list] of plan.planned) {
    const refer = kinds.find((k) => k.name === kind)?.references;
    for (const reference of list.flatMap((d) => refer?.(d) ?? [])) {
      // A declared object is read the way it is identified: a name declared unpinned by its name,
      // else by the pin of the declaration with that name.
      const declared = declaredOf(project, reference.kind);
      const named = (pinned: boolean) =>
        declared.find((d) => d.name === reference.name && (d.id !== undefined) === pinned);
      const found = reference.id !== undefined ? undefined : (named(false) ?? named(true));
      want(plan, reference.kind, found ?? reference);
    }
  }
  for (const [kind, scope] of plan.scopes) scope.pinnedElsewhere = pinsOutside(plan, kind);
  return plan;
}

/** Adds one identity to what is read of `kind`. */
function want(plan: ProjectScope, kind: string, who: { name?: string; id?: number | string }): void {
  let scope = plan.scopes.get(kind);
  if (scope === undefined) {
    scope = { ids: [], names: [], pinnedElsewhere: [] };
    plan.scopes.set(kind, scope);
  }
  if (who.id !== undefined) {
    if (!scope.ids.includes(who.id)) scope.ids.push(who.id);
  } else if (who.name !== undefined && !scope.names.includes(who.name)) scope.names.push(who.name);
}

/** The ids that declarations of `kind` outside the plan pin. */
function pinsOutside(plan: ProjectScope, kind: string): Array<number | string> {
  const planned = new Set(plan.planned.get(kind) ?? []);
  return declaredOf(plan.declared, kind).flatMap((d) =>
    d.id !== undefined && !planned.has(d) ? [d.id] : [],
  );
}

/**
 * Per kind that the service can search: its live count, asked (one small request) only where the
 * change might cost more than the list (more objects to read than its declarations fill pages) or
 * deletes enough that the delete guard needs the count. A string: the full read is cheaper.
 */
async function estimate(
  kinds: readonly ReadKind[],
  client: ServiceClient,
  plan: ProjectScope,
): Promise<Map<string, number> | string> {
  const totals = new Map<string, number>();
  for (const [name, scope] of plan.scopes) {
    const kind = kinds.find((k) => k.name === name);
    if (kind?.searches !== true || kind.count === undefined) continue;
    const each = scope.ids.length + scope.names.length;
    const declared = declaredOf(plan.declared, name).length;
    const deletes = (plan.planned.get(name) ?? []).filter((d) => d.deleted).length;
    if (each <= Math.max(1, Math.ceil(declared / LIST_PAGE)) && deletes <= DELETE_FLOOR) continue;
    const total = await kind.count(client, plan.project);
    totals.set(name, total);
    const pages = Math.max(1, Math.ceil(total / LIST_PAGE));
    if (pages < each) {
      return `the change reads ${each} ${name.replaceAll("_", " ")} objects one by one in project ${plan.project}, and their list is ${pages} ${pages === 1 ? "page" : "pages"}`;
    }
  }
  return totals;
}

async function readScope(
  kinds: readonly ReadKind[],
  client: ServiceClient,
  plan: ProjectScope,
  totals: ReadonlyMap<string, number>,
  run: ReadRun,
): Promise<{ live: LiveProject; reads: ReadSet }> {
  const live: LiveProject = { project: plan.project, kinds: {} };
  const reads: ReadSet = { project: plan.project, kinds: {}, scope: {} };
  const readKind = async (kind: ReadKind, scope: ReadScope) => {
    const planned = plan.planned.get(kind.name) ?? [];
    const result = await kind.read(client, plan.project, planned, run, scope);
    const total = totals.get(kind.name);
    if (result.live.scoped !== undefined && total !== undefined) result.live.scoped.total = total;
    return result;
  };
  await Promise.all(
    [...plan.scopes].map(async ([name, scope]) => {
      const kind = kinds.find((k) => k.name === name);
      if (kind === undefined) return;
      let result = await readKind(kind, scope);
      // A changed pin that took a live object away from an unchanged declaration's name: that
      // declaration is planned too (the full plan would create its object again).
      if (claimNeighbours(plan, name, result.live)) {
        scope.pinnedElsewhere = pinsOutside(plan, name);
        if (result.live.scoped !== undefined) result = await readKind(kind, scope);
      }
      live.kinds[name] = result.live;
      reads.kinds[name] = result.read;
      (reads.scope as Record<string, ReadScope>)[name] = scope;
    }),
  );
  // The kinds the change does not touch are not read: their state is unknown, not empty.
  for (const kind of kinds) {
    if (plan.declared.manages.includes(kind.name) && !(kind.name in live.kinds)) {
      live.kinds[kind.name] = { objects: [], scoped: {} };
    }
  }
  return { live, reads };
}

/** The declarations the planned ones displace (plan/scope.ts) join the plan. True when any did. */
function claimNeighbours(plan: ProjectScope, kind: string, live: LiveKind): boolean {
  const planned = plan.planned.get(kind) ?? [];
  const keys = new Set(planned.map((d) => declarationKey(plan.project, d)));
  const neighbours = displaced(plan.project, declaredOf(plan.declared, kind), keys, live.objects);
  if (neighbours.length === 0) return false;
  plan.planned.set(kind, [...planned, ...neighbours]);
  for (const d of neighbours) want(plan, kind, d);
  return true;
}

/** Each removed declaration with the live object under its identity, if any. */
function removedLive(plan: ProjectScope, live: LiveProject): RemovedLive[] {
  return plan.removed.map((gone) => {
    // An object a declaration pins is that declaration's, whatever name it bears.
    const pins = new Set(
      declaredOf(plan.declared, gone.kind).flatMap((d) => (d.id === undefined ? [] : [d.id])),
    );
    const objects = (live.kinds[gone.kind]?.objects ?? []).filter((o) => !pins.has(o.id));
    const found =
      gone.id !== undefined
        ? objects.find((o) => o.id === gone.id)
        : objects.filter((o) => o.name === gone.name).length === 1
          ? objects.find((o) => o.name === gone.name)
          : undefined;
    return { ...gone, project: plan.project, ...(found !== undefined ? { live: found.id } : {}) };
  });
}
