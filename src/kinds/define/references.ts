/**
 * References across objects, declared once (STYLE practice 16): where, inside a field's value, a name
 * stands for another object's id (a flag condition `{type: flag, key: NAME}`, a cohort condition
 * `{type: cohort, cohort: NAME}` stored as `{key: "id", value: ID}`, a tile's `insight:`). From a
 * field's `references` every stage reads them the same way:
 *
 * - the loader records each one a declaration makes, with its place (`Declared.refs`), raw ids too
 *   (`value: 12`, `insight_id: 5`: what issue 34's shared files refuse, `rawIdPaths`), and reports
 *   cycles among a kind's own objects (`referenceCycles`);
 * - a change-scoped read reads the referenced objects with the declaration (`referencesToRead`);
 * - the plan resolves each name in the project, among the declarations first, then live
 *   (`resolveReferences`): a link with the live id, or without one when this apply creates it; what is
 *   found nowhere, or held by several objects, is an error at its place naming the ids;
 * - both sides are compared by name (`withNames`), so a raw id and the name of the same object are
 *   equal, and an object this apply creates is named before it has an id;
 * - apply writes the ids into the body (`withIds`), the ones created earlier in the same apply
 *   included; `pull` writes names where a name is the object's own (`withNames`).
 */
import type { ProjectProblem } from "../../config/kinds.js";
import type { Declared, DeclaredReference, DesiredProject } from "../../config/types.js";
import { declarationKey } from "../../plan/context.js";
import type { KindPlanContext } from "../../plan/kinds.js";
import { matchObjects } from "../../plan/match.js";
import type { LiveKind, LiveObject, ObjectLink } from "../../plan/types.js";
import { isPlainObject } from "../../plan/values.js";

type Json = Record<string, unknown>;

/** One place in a field's value where an object of another kind (or the same) is named. */
export interface ReferenceSpec {
  /** The kind named: its stable name (`cohort`, `feature_flag`, `insight`). */
  readonly kind: string;
  /**
   * Where, from the field's value: keys joined by `/`; `*` is any item of a list (or value of a
   * mapping), `**` any depth. `groups/*\/properties/*` is every property of every condition group.
   */
  readonly at: string;
  /** Only the mappings there whose keys hold these values: `{ type: "cohort" }`. */
  readonly where?: Readonly<Record<string, unknown>>;
  /** The key the file names the object by: `cohort`, `insight` (a flag condition: `key`). */
  readonly name: string;
  /**
   * The key the service keeps its id under: `value`, `insight_id`. The same key as `name` (a flag
   * condition's `key`) holds a name in the file and an id in the service's answers.
   */
  readonly id: string;
  /** Keys the service's form adds beside the id, which the file leaves out: `{ key: "id" }`. */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /** How the service writes the id: a number (default) or a string (a flag condition's `"12"`). */
  readonly idType?: "number" | "string";
  /** How messages name the object: `flag` (default: the kind's name, `_` as a space). */
  readonly word?: string;
  /** How messages say the declaration refers to it: `{ one: "depends on", many: "depend on" }`. */
  readonly verb?: { readonly one: string; readonly many: string };
  /** What holds the reference, for cycle messages: `flag condition`. */
  readonly holder?: string;
  /** The part of the declaration that holds it, for messages: `tile` (a tile of dashboard "KPIs"). */
  readonly part?: string;
  /** A name must be declared in the project (a tile's insight, SPEC §2): a live one alone is not enough. */
  readonly declaredOnly?: boolean;
  /** A raw id must be live, or pinned by a declaration (when the kind was read). */
  readonly checkIds?: boolean;
}

/** A mapping of a value that a spec matches, with its path (keys) from the field's value. */
export interface Found {
  spec: ReferenceSpec;
  node: Json;
  path: string[];
}

/** A copy of the JSON mappings and lists of a value; anything else (a secret's value) is kept as it is. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  }
  return value;
}

const pointerSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** The mappings of `value` at a spec's `at` whose keys match its `where`. */
function nodesAt(
  value: unknown,
  segments: readonly string[],
  path: string[],
  out: Found[],
  spec: ReferenceSpec,
) {
  if (segments.length === 0) {
    if (isPlainObject(value) && Object.entries(spec.where ?? {}).every(([k, v]) => value[k] === v)) {
      out.push({ spec, node: value, path });
    }
    return;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  const children = (): Array<[string, unknown]> =>
    Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : isPlainObject(value)
        ? Object.entries(value)
        : [];
  if (head === "**") {
    nodesAt(value, rest, path, out, spec);
    for (const [key, child] of children()) nodesAt(child, segments, [...path, key], out, spec);
  } else if (head === "*") {
    for (const [key, child] of children()) nodesAt(child, rest, [...path, key], out, spec);
  } else if (isPlainObject(value) && head in value) {
    nodesAt(value[head], rest, [...path, head], out, spec);
  }
}

/** Every mapping of `value` where one of `specs` names an object (by name or by id). */
export function findReferences(value: unknown, specs: readonly ReferenceSpec[]): Found[] {
  const out: Found[] = [];
  for (const spec of specs) {
    const found: Found[] = [];
    nodesAt(value, spec.at.split("/").filter(Boolean), [], found, spec);
    out.push(...found.filter((f) => f.node[spec.name] !== undefined || f.node[spec.id] !== undefined));
  }
  return out;
}

/** The raw-id places of a kind's fields, as `field/at/id` patterns (issue 34: refused in shared files). */
export function rawIdPaths(
  fields: Readonly<Record<string, { references?: readonly ReferenceSpec[] }>>,
): string[] {
  return Object.entries(fields).flatMap(([key, field]) =>
    (field.references ?? [])
      .filter((spec) => spec.id !== spec.name)
      .map((spec) => {
        const where = Object.entries(spec.where ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
        return `${[key, ...spec.at.split("/").filter(Boolean), spec.id].join("/")}${where.length > 0 ? ` (${where.join(", ")})` : ""}`;
      }),
  );
}

/**
 * The references a declared value makes, each with the JSON pointer of its name (or raw id) inside
 * the item (`base`: the field's pointer) and where the file writes it.
 */
export function declaredReferences(
  value: unknown,
  specs: readonly ReferenceSpec[],
  base: string,
  at: (pointer: string) => DeclaredReference["source"],
): DeclaredReference[] {
  return findReferences(value, specs).flatMap(({ spec, node, path }): DeclaredReference[] => {
    const where = `${base}/${path.map(pointerSegment).join("/")}`.replace(/\/$/, "");
    const name = node[spec.name];
    if (typeof name === "string" || (spec.name === spec.id && typeof name === "number")) {
      const pointer = `${where}/${pointerSegment(spec.name)}`;
      return [{ kind: spec.kind, name: String(name), pointer, source: at(pointer) }];
    }
    const id = node[spec.id];
    if (spec.name !== spec.id && (typeof id === "number" || typeof id === "string")) {
      const pointer = `${where}/${pointerSegment(spec.id)}`;
      return [{ kind: spec.kind, id, pointer, source: at(pointer) }];
    }
    return [];
  });
}

/**
 * `value` with the objects named by id named by name where `nameOf` knows one (the id and the
 * service's fixed keys replaced by the name, in the id's place). An id it does not know stays an id
 * (its fixed keys dropped); under a key that holds names in the file too (a flag condition's `key`),
 * it becomes `unknown(id)`. With `desired`, only raw ids are named (a name in the file is one already).
 */
export function withNames(
  value: unknown,
  specs: readonly ReferenceSpec[],
  nameOf: (kind: string, id: number | string) => string | undefined,
  options: { desired?: boolean; unknown?: (id: number | string) => unknown } = {},
): unknown {
  const out = copy(value);
  for (const { spec, node } of findReferences(out, specs)) {
    if (options.desired && (spec.name === spec.id || node[spec.name] !== undefined)) continue;
    const id = node[spec.id];
    if (typeof id !== "number" && typeof id !== "string") continue;
    for (const key of Object.keys(spec.fixed ?? {})) if (key !== spec.id) delete node[key];
    const name = nameOf(spec.kind, id);
    if (name === undefined) {
      if (spec.name === spec.id && options.unknown) node[spec.id] = options.unknown(id);
      continue;
    }
    replaceKey(node, spec.id, spec.name, name);
  }
  return out;
}

/** Puts `value` under `to` where `from` stood (the keys' order kept), `from` removed. */
function replaceKey(node: Json, from: string, to: string, value: unknown): void {
  if (from === to) {
    node[to] = value;
    return;
  }
  const entries = Object.entries(node).filter(([k]) => k !== to);
  for (const key of Object.keys(node)) delete node[key];
  for (const [k, v] of entries) node[k === from ? to : k] = k === from ? value : v;
}

/**
 * `value` in the service's form: each object named by name written by its id, which `idOf` gives (a
 * live id, or one this apply created: it throws for one it has none of), with the spec's fixed keys.
 */
export function withIds(
  value: unknown,
  specs: readonly ReferenceSpec[],
  idOf: (kind: string, name: string) => number | string,
): unknown {
  const out = copy(value);
  for (const { spec, node } of findReferences(out, specs)) {
    const name = node[spec.name];
    const named = typeof name === "string" && (spec.name === spec.id || node[spec.id] === undefined);
    if (named) {
      const id = idOf(spec.kind, name);
      const written = spec.idType === "string" ? String(id) : Number(id);
      if (spec.name === spec.id) node[spec.id] = written;
      else replaceKey(node, spec.name, spec.id, written);
    }
    Object.assign(node, spec.fixed ?? {});
  }
  return out;
}

/** What a change-scoped read reads with a declaration: the objects its references name. */
export function referencesToRead(
  declared: Declared,
): Array<{ kind: string; name?: string; id?: number | string }> {
  if (declared.deleted) return [];
  const seen = new Set<string>();
  const out: Array<{ kind: string; name?: string; id?: number | string }> = [];
  for (const ref of declared.refs ?? []) {
    const key = `${ref.kind}\u0000${ref.name ?? ""}\u0000${ref.id ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref.name !== undefined ? { kind: ref.kind, name: ref.name } : { kind: ref.kind, id: ref.id });
  }
  return out;
}

// ---- Resolution per project ------------------------------------------------------------------

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

/** The id a resolved link gives a name of a kind (for a desired value's comparable form). */
export function linkedName(links: readonly ObjectLink[]) {
  return (kind: string, id: number | string) =>
    links.find((l) => l.kind === kind && l.id !== undefined && String(l.id) === String(id))?.name;
}

// ---- Cycles --------------------------------------------------------------------------------------

/**
 * The reference cycles among one kind's declarations in a project (the service refuses them: a flag
 * that depends on itself through others, a cohort inside itself), each reported once at the
 * reference that closes it.
 */
export function referenceCycles(
  project: DesiredProject,
  kind: string,
  words: { one: string; many: string },
  spec: ReferenceSpec,
): ProjectProblem[] {
  const declared = (project.objects[kind] ?? []).filter((d) => !d.deleted);
  const refsOf = (d: Declared) => (d.refs ?? []).filter((r) => r.kind === kind && r.name !== undefined);
  const graph = new Map(declared.map((d) => [d.name, refsOf(d).map((r) => r.name as string)]));
  const word = spec.word ?? spaced(kind);
  const holder = spec.holder ?? `${word} reference`;
  const verb = spec.verb ?? { one: "names", many: "name" };
  const problems: ProjectProblem[] = [];
  for (const cycle of dependencyCycles(graph)) {
    const [first, second] = cycle;
    const object = declared.find((d) => d.name === first);
    const at = object && (refsOf(object).find((r) => r.name === second)?.source ?? object.source);
    if (at === undefined) continue;
    problems.push({
      source: at,
      message:
        cycle.length === 2
          ? `${words.one} "${first}" ${verb.one} itself: the service refuses a ${holder} on the ${word} itself`
          : `${words.many} ${verb.many} each other in a cycle (${cycle.join(" → ")}): the service refuses it; remove one of the ${holder}s`,
    });
  }
  return problems;
}

/**
 * The cycles of a graph (`graph`: name → names it refers to), each reported once as the path that
 * closes it (`a → b → a`), starting from the first name in `graph`'s order that lies on it.
 * Iterative, so a long chain cannot exhaust the stack.
 */
export function dependencyCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, "open" | "done">();
  const cycles: string[][] = [];
  const reported = new Set<string>();
  for (const start of graph.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    const stack: Array<{ key: string; next: number }> = [{ key: start, next: 0 }];
    state.set(start, "open");
    path.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { key: string; next: number };
      const deps = graph.get(top.key) ?? [];
      if (top.next >= deps.length) {
        state.set(top.key, "done");
        stack.pop();
        path.pop();
        continue;
      }
      const dep = deps[top.next++] as string;
      if (!graph.has(dep)) continue;
      const seen = state.get(dep);
      if (seen === "open") {
        const cycle = [...path.slice(path.indexOf(dep)), dep];
        const id = [...cycle.slice(0, -1)].sort().join("\u0000");
        if (!reported.has(id)) {
          reported.add(id);
          cycles.push(cycle);
        }
      } else if (seen === undefined) {
        state.set(dep, "open");
        path.push(dep);
        stack.push({ key: dep, next: 0 });
      }
    }
  }
  return cycles;
}
