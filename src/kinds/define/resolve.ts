/**
 * References resolved per project at plan (./references.ts declares them): a name among the project's
 * declarations of the kind first (its live match's id, its pin, or none: created in this apply), then
 * among the live objects (one: its id); found nowhere, or held by several, an error at the reference
 * naming the ids. A raw id is taken as it is (checked against the live objects where the reference
 * says so). The objects are the kind's own live state, with what it read only to be named
 * (`LiveKind.referable`), or, for a kind the project does not manage, what the referring kind read
 * of it (`LiveKind.foreign`).
 */
import type { Declared, DeclaredReference } from "../../config/types.js";
import { declarationKey } from "../../plan/context.js";
import type { KindPlanContext } from "../../plan/kinds.js";
import { matchObjects } from "../../plan/match.js";
import type { LiveKind, LiveObject, ObjectLink } from "../../plan/types.js";
import type { ReferenceSpec } from "./references.js";

/** What the plan knows of one kind's objects in a project, for names to resolve against. */
interface Target {
  /** Declared, not tombstoned: name → the declarations (with their live match). */
  declared: Map<string, Array<{ d: Declared; live: LiveObject | undefined }>>;
  /** Live (not deleted) objects by name, and by id. */
  byName: Map<string, LiveObject[]>;
  byId: Map<string, LiveObject>;
  /** The kind's own live state was read (else: objects another kind read for its references). */
  managed: boolean;
}

const targets = new WeakMap<object, Map<string, Target>>();

/**
 * The objects of `kind` in the plan's project: its declarations matched to its live objects, and the
 * live ones (those the kind read, with what it read only to be named: archived flags). A kind the
 * project does not manage is known from what the referring kind read of it (`LiveKind.foreign`).
 */
function targetOf(kind: string, ctx: KindPlanContext): Target {
  let known = targets.get(ctx);
  if (known === undefined) {
    known = new Map();
    targets.set(ctx, known);
  }
  const cached = known.get(kind);
  if (cached) return cached;
  const own: LiveKind | undefined = ctx.others?.live(kind);
  const objects = own ? [...own.objects, ...(own.referable ?? [])] : [...(ctx.live.foreign?.[kind] ?? [])];
  const alive = objects.filter((o) => (o as { deleted?: unknown }).deleted !== true);
  const declaredList = (ctx.others?.declared(kind) ?? []).filter((d) => !d.deleted);
  const { pairs } = matchObjects(declaredList, own?.objects ?? [], kind, []);
  const target: Target = {
    declared: new Map(),
    byName: new Map(),
    byId: new Map(),
    managed: own !== undefined,
  };
  for (const { desired, live } of pairs) {
    const list = target.declared.get(desired.name) ?? [];
    const gone = (live as { deleted?: unknown } | undefined)?.deleted === true;
    list.push({ d: desired, live: gone ? undefined : live });
    target.declared.set(desired.name, list);
  }
  for (const o of alive) {
    target.byId.set(String(o.id), o);
    const name = o.name ?? "";
    target.byName.set(name, [...(target.byName.get(name) ?? []), o]);
  }
  known.set(kind, target);
  return target;
}

/** The name an id stands for in the plan's project: the live object's, when no other object holds it. */
export function nameOf(ctx: KindPlanContext): (kind: string, id: number | string) => string | undefined {
  return (kind, id) => {
    const target = targetOf(kind, ctx);
    const name = target.byId.get(String(id))?.name;
    if (name === undefined || name === null) return undefined;
    return (target.byName.get(name)?.length ?? 0) === 1 ? name : undefined;
  };
}

/** The name of a live object by id, shared or not (for labels); undefined when none was read. */
export function liveNameOf(ctx: KindPlanContext): (kind: string, id: number | string) => string | undefined {
  return (kind, id) => targetOf(kind, ctx).byId.get(String(id))?.name ?? undefined;
}

const spaced = (kind: string) => kind.replaceAll("_", " ");

/** Where a reference could not be resolved, in words (undefined: it resolves to `link`). */
function resolveOne(
  ref: DeclaredReference,
  spec: ReferenceSpec | undefined,
  ctx: KindPlanContext,
  owner: string,
): { link: ObjectLink } | { problem: string } {
  const target = targetOf(ref.kind, ctx);
  const word = spec?.word ?? spaced(ref.kind);
  const verb = spec?.verb?.one ?? "names";
  const who = spec?.part ? `a ${spec.part} of ${owner}` : owner;
  if (ref.name === undefined) {
    // A raw id: allowed (SPEC §2); named after the declaration pinning it, else the live object.
    const id = ref.id as number | string;
    const pinned = [...target.declared.values()].flat().find(({ d }) => String(d.id) === String(id));
    const live = target.byId.get(String(id));
    if (spec?.checkIds && target.managed && pinned === undefined && live === undefined) {
      return {
        problem: `${who} ${verb} ${word} id ${id}, which is not a live ${word} of project ${ctx.project}`,
      };
    }
    return { link: { kind: ref.kind, name: pinned?.d.name ?? live?.name ?? "", id } };
  }
  const name = ref.name;
  const declared = target.declared.get(name) ?? [];
  if (declared.length > 1) {
    const ids = declared.map(({ d, live }) => live?.id ?? d.id).filter((id) => id !== undefined);
    return {
      problem: `${who} ${verb} ${word} "${name}", a name ${declared.length} declared ${word}s share${ids.length > 0 ? ` (ids ${ids.join(", ")})` : ""}: name it by id instead (${spec?.id ?? "id"}: <id>)`,
    };
  }
  const [one] = declared;
  if (one !== undefined) {
    const id = one.live?.id ?? one.d.id;
    if (id !== undefined) return { link: { kind: ref.kind, name, id } };
    const scope = ctx.options.scope;
    if (scope !== undefined && !scope.includes(declarationKey(ctx.project, one.d))) {
      return {
        problem: `${who} ${verb} ${word} "${name}", which is declared but not live in project ${ctx.project}, and a change-scoped plan leaves its unchanged declaration as it is: a full plan creates it`,
      };
    }
    // Created in this apply: apply hands its new id on.
    return { link: { kind: ref.kind, name } };
  }
  if (spec?.declaredOnly) {
    return { problem: `${who} ${verb} ${word} "${name}", which no file declares for project ${ctx.project}` };
  }
  const live = target.byName.get(name) ?? [];
  if (live.length === 1 && live[0] !== undefined) return { link: { kind: ref.kind, name, id: live[0].id } };
  if (live.length > 1) {
    return {
      problem: `${word} name "${name}" is held by ${word}s ${live.map((o) => o.id).join(", ")} of project ${ctx.project}: name it by id instead (${spec?.id ?? "id"}: <id>)`,
    };
  }
  return {
    problem: target.managed
      ? `${who} ${verb} ${word} "${name}", which is neither declared nor a live ${word} of project ${ctx.project}`
      : `${who} ${verb} ${word} "${name}", which project ${ctx.project} does not have`,
  };
}

/**
 * The objects a declaration's references name, resolved in the plan's project: one link each (by
 * kind and name), with the live id, or without one when this apply creates it. Undefined after an
 * error at each reference that cannot be resolved (in the sink; the declaration is not planned).
 */
export function resolveReferences(
  desired: Declared,
  specs: readonly ReferenceSpec[],
  ctx: KindPlanContext,
  owner: string,
): ObjectLink[] | undefined {
  const links = new Map<string, ObjectLink>();
  let ok = true;
  for (const ref of desired.refs ?? []) {
    const spec = specs.find((s) => s.kind === ref.kind);
    const result = resolveOne(ref, spec, ctx, owner);
    if ("problem" in result) {
      ok = false;
      ctx.sink.errors.push({ message: result.problem, source: ref.source });
      continue;
    }
    links.set(`${result.link.kind}\u0000${result.link.name}\u0000${result.link.id ?? ""}`, result.link);
  }
  return ok ? [...links.values()] : undefined;
}
