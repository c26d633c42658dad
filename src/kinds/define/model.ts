/**
 * `defineModel`: a kind whose service object is a PostHog model of the usual shape (dashboards,
 * insights, feature flags; cohorts and actions next: service-api.md §12, §13): a list with a
 * `search` (or `key`) filter, retrieve by id, create, PATCH, soft delete by PATCH `deleted`, restore.
 * It declares where the model lives and its field table; from the kit it gets:
 *
 * - the endpoints (./model-api.ts) and the service part: the list, the search by identity (exact
 *   matches kept), the read by id, the count, the look-up by name before creates, the create;
 * - the verbs `create`, `update` (PATCH), `soft_delete` (PATCH `deleted: true`; an object already
 *   gone is the goal reached) and `restore` (PATCH exactly `deleted: false`; an id that never existed
 *   says to remove the pin), their bodies naming other objects by the ids apply hands on;
 * - the plan: a tombstone is a soft delete; a live object an update of the declared fields that
 *   differ (nested values through their codec, references compared by name), its switches
 *   (`toggles`); a pinned object missing from the list a restore (read back by id, deleted, when
 *   the service answers that: `readsDeleted`; else restored with every declared field sent); else a
 *   create. References are resolved per project first: each action `requires` what it names (ids
 *   known, or created in this apply), and what cannot be resolved is an error at its place. Tags
 *   the organization's plan would drop are a note, never a perpetual change;
 * - prune (the soft delete), pull (the list, references by name where the name is the object's own).
 *
 * What is truly a kind's own stays in its hooks: `action` decorates or drops each action the plan
 * makes (a flag's guards, preconditions and the flags that depend on it), `extras` plans what the
 * table cannot say after the object's own actions (a dashboard's collaborators, sharing and tiles),
 * and every hook of `defineKind` (reads of details, own verbs, checks across a project).
 */
import type { ReferencedIds } from "../../apply/kinds.js";
import type { Declared } from "../../config/types.js";
import { UserError } from "../../errors.js";
import { makeAction } from "../../plan/context.js";
import type { KindPlanContext } from "../../plan/kinds.js";
import { resolveSecrets } from "../../plan/secrets.js";
import type { Action, FieldChange, LiveKind, LiveObject, ObjectLink, ObjectRef } from "../../plan/types.js";
import { deepEqual, isPlainObject } from "../../plan/values.js";
import { Placeholder, type PullContext, type Pulled } from "../../pull/kinds.js";
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import { collect } from "../../service/pages.js";
import type { Kind, Verb } from "../kind.js";
import { blindUpdate, restoreAction } from "../shared/restore.js";
import { ignoredTags, warnIgnoredTags, withoutIgnoredTags } from "../shared/tags.js";
import { CREATE, deepMerge, RESTORE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { FieldTable } from "./fields.js";
import { defineKind, type KindHooks, type KindService, type KindSpec, updateSides } from "./index.js";
import { type ModelApi, type ModelEndpoints, modelApi } from "./model-api.js";
import { findReferences, nameOf, resolveReferences } from "./references.js";
import type { DesiredOf, Table } from "./table.js";

/** How the model's list finds objects by identity: its filter, how long a value it takes, its page. */
export interface ModelSearch {
  /** The query parameter: `search` (a contains-match on the name), `key` (exact, case-insensitive). */
  readonly param: string;
  /** The longest value it takes (the first characters of a longer name still find it). */
  readonly max?: number;
  /** One page of this size instead of pages of 100 (a short name may match hundreds). */
  readonly limit?: number;
}

/** What the plan knows when a model hook decorates an action. */
export interface ModelActionContext<D, L, K extends LiveKind> {
  desired: D | undefined;
  live: L | undefined;
  ctx: KindPlanContext<K>;
  /** What the declaration's references resolved to (empty for a prune). */
  links: readonly ObjectLink[];
}

export interface ModelHooks<
  T extends FieldTable,
  L extends LiveObject,
  D extends Declared,
  K extends LiveKind,
> extends Omit<KindHooks<T, L, D, K>, "plan" | "prune" | "references"> {
  /** Decorates each action the model plans (or returns undefined after reporting why it cannot be). */
  action?(action: Action, about: ModelActionContext<D, L, K>): Action | undefined;
  /**
   * What the table cannot say, planned after the object's own actions (`how` the object is planned;
   * `links` what its references resolved to).
   */
  extras?(
    desired: D,
    live: L | undefined,
    ref: ObjectRef,
    ctx: KindPlanContext<K>,
    how: "create" | "update" | "restore",
    links: readonly ObjectLink[],
  ): void;
  /**
   * The objects, by kind, whose names the pulled items' ids stand for and that neither the kind's list
   * nor the kinds pulled with it hold (a flag's cohorts, the archived flags a flag depends on).
   */
  foreign?(client: ServiceClient, project: number, live: readonly L[]): Promise<Record<string, LiveObject[]>>;
}

export interface ModelSpec<
  T extends FieldTable,
  A extends { id: number | string },
  L extends LiveObject,
  D extends Declared,
  K extends LiveKind,
> extends Omit<KindSpec<T, L, D, K>, "service" | "verbs" | "hooks">,
    ModelEndpoints<A> {
  /** A live object of an answer (a flag: its key as `name`); absent: the answer itself. */
  readonly live?: (answer: A) => L;
  /** The list's search by identity, or how the kind finds its objects by identity itself. */
  readonly search: ModelSearch | ((api: ModelApi<A>, project: number, name: string) => Promise<A[]>);
  /**
   * The service's retrieve answers soft-deleted objects (flags): the plan reads a pinned one and
   * restores it with a compared update, and a pin no object answers is an error. Absent: retrieve
   * answers 404 for them, and a pinned object missing from the list is restored blindly.
   */
  readonly readsDeleted?: boolean;
  /** What every create sends besides the declared fields (insights: `saved: true`). */
  readonly createExtra?: Readonly<Record<string, unknown>>;
  /** After a blind restore, the update reads the object back and sends only what differs (dashboards). */
  readonly readBack?: boolean;
  /** Notes on what the service answered to a write; absent: tags it dropped (the tagging feature). */
  readonly notes?: (body: Record<string, unknown>, answer: A) => string[];
  /** The ids of the live objects named exactly `name`, read fresh; absent: the search's exact matches. */
  readonly findByName?: KindService<L>["findByName"];
  /** The order `pull` writes objects in; absent: the list's. */
  readonly pullOrder?: (a: L, b: L) => number;
  /** Overrides of the model's verbs, and the kind's own, in the order the kind lists them. */
  readonly verbs?: {
    readonly create?: Partial<Verb>;
    readonly update?: Partial<Verb>;
    readonly softDelete?: Partial<Verb>;
    readonly restore?: Partial<Verb>;
    readonly own?: readonly Verb[];
  };
  readonly hooks?: ModelHooks<T, L, D, K>;
}

/** The model's verbs, as `defineModel` builds them (a kind's overrides applied). */
export interface ModelVerbs {
  create: Verb;
  update: Verb;
  softDelete: Verb;
  restore: Verb;
}

export interface Model<A, L> {
  kind: Kind;
  /** The model's endpoints on a client. */
  api(client: ServiceClient): ModelApi<A>;
  /** The live object of an answer. */
  live(answer: A): L;
  verbs: ModelVerbs;
}

/**
 * A create's or update's body: its changed fields with what it sends besides, secrets resolved now,
 * and the objects it names by name written by the ids apply knows (`referenced`).
 */
export function modelBody<T extends FieldTable>(
  table: Table<T>,
  action: Action,
  env: Parameters<NonNullable<Verb["body"]>>[1],
  owner: string,
  referenced: ReferencedIds | undefined,
): Record<string, unknown> {
  const body = resolveSecrets(deepMerge(action.after ?? {}, action.sends ?? {}), env, owner);
  if (referenced === undefined || table.references.length === 0) return body;
  return table.withIds(body, (kind, name) => {
    const id = referenced.idOf({ kind, name });
    if (id === undefined) {
      throw new UserError(
        `${owner} names ${kind.replaceAll("_", " ")} "${name}", which has no id in project ${action.object.project} (it was not created by this apply); run plan again`,
      );
    }
    return id;
  });
}

export function defineModel<
  T extends FieldTable,
  A extends { id: number | string; deleted?: boolean | null },
  L extends LiveObject = LiveObject & A,
  D extends Declared = DesiredOf<T>,
  K extends LiveKind = LiveKind,
>(spec: ModelSpec<T, A, L, D, K>): Model<A, L> {
  const { fields: table, words } = spec;
  const hooks: ModelHooks<T, L, D, K> = spec.hooks ?? {};
  const api = (client: ServiceClient) => modelApi<A>(client, spec);
  const asLive = (answer: A): L => (spec.live ? spec.live(answer) : (answer as unknown as L));
  const notes = (body: Record<string, unknown>, answer: A): string[] =>
    spec.notes ? spec.notes(body, answer) : ignoredTags(body, (answer as { tags?: string[] }).tags);
  const hasTags = Object.hasOwn(table.fields, "tags");

  // ---- the service part ----
  const search = async (client: ServiceClient, project: number, name: string): Promise<L[]> => {
    const how = spec.search;
    if (typeof how === "function") return (await how(api(client), project, name)).map(asLive);
    const value = how.max === undefined ? name : name.slice(0, how.max);
    const query = { [how.param]: value };
    const found =
      how.limit === undefined
        ? await api(client).listAll(project, query)
        : await collect(api(client).list(project, { ...query, limit: how.limit }));
    return found.map(asLive);
  };
  /** One object by id: undefined for no service id, a 404, or (unless `readsDeleted`) a soft-deleted one. */
  const get = async (client: ServiceClient, project: number, id: number | string) => {
    const numeric = Number(id);
    if (!Number.isSafeInteger(numeric) || numeric < 1) return undefined;
    try {
      const found = await api(client).get(project, numeric);
      return found.deleted === true && !spec.readsDeleted ? undefined : asLive(found);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) return undefined;
      throw error;
    }
  };
  const service: KindService<L> = {
    list: async (client, project) => (await api(client).listAll(project)).map(asLive),
    search,
    get,
    count: (client, project) => api(client).count(project),
    ...(spec.findByName ? { findByName: spec.findByName } : {}),
    async create(client, project, body) {
      const created = await api(client).create(project, { ...body, ...spec.createExtra });
      return { id: created.id, notes: notes(body, created) };
    },
  };

  // ---- the verbs ----
  const body: Verb["body"] = (action, env, owner, referenced) =>
    modelBody(table, action, env, owner, referenced);
  const gone = (what: string) => (action: Action, id: number | string) =>
    new UserError(
      `${what} of ${words.one} "${action.object.name}": id ${id} does not exist, live or soft-deleted; remove the \`id:\` pin to create it`,
    );
  const verbs: ModelVerbs = {
    create: { ...CREATE, body, ...spec.verbs?.create },
    update: {
      ...UPDATE,
      body,
      async send(client, action, id, sent) {
        const { project } = action.object;
        const unknownLive = action.preconditions?.live === "unknown";
        const changed =
          spec.readBack && unknownLive && sent !== undefined
            ? await onlyChanged(table, await api(client).get(project, id), sent)
            : (sent ?? {});
        if (Object.keys(changed).length === 0) {
          return { id, notes: [`the restored ${words.one} already had the declared values: nothing sent`] };
        }
        return { id, notes: notes(changed, await api(client).update(project, id, changed)) };
      },
      ...spec.verbs?.update,
    },
    softDelete: {
      ...SOFT_DELETE,
      async send(client, action, id) {
        try {
          await api(client).update(action.object.project, id, { deleted: true });
        } catch (error) {
          // Already gone (deleted since the plan): the goal is reached.
          if (!(error instanceof ServiceError && error.status === 404)) throw error;
        }
        return { id, notes: [] };
      },
      ...spec.verbs?.softDelete,
    },
    restore: {
      ...RESTORE,
      async send(client, action, id) {
        try {
          // Older services refuse any other key on a deleted object: the body is exactly this.
          await api(client).update(action.object.project, id, { deleted: false });
        } catch (error) {
          if (error instanceof ServiceError && error.status === 404) throw gone("restore")(action, id);
          throw error;
        }
        return { id, notes: [] };
      },
      ...spec.verbs?.restore,
    },
  };
  const own = spec.verbs?.own ?? [];

  // ---- the plan ----
  type Ctx = KindPlanContext<K>;
  const decorate = (action: Action, about: ModelActionContext<D, L, K>): Action | undefined =>
    hooks.action ? hooks.action(action, about) : action;
  const softDelete = (live: L, ref: ObjectRef, about: ModelActionContext<D, L, K>) =>
    decorate(makeAction(verbs.softDelete, ref, { before: table.state(live) }), about);
  const isGone = (live: L | undefined) => (live as { deleted?: unknown } | undefined)?.deleted === true;

  function plan(desired: D, live: L | undefined, ref: ObjectRef, ctx: Ctx): void {
    const owner = `${words.one} "${desired.name}"`;
    const push = (action: Action | undefined) => {
      if (action) ctx.sink.actions.push(action);
      return action !== undefined;
    };
    if (desired.deleted) {
      if (live && !isGone(live)) push(softDelete(live, ref, { desired, live, ctx, links: [] }));
      return;
    }
    const links = resolveReferences(desired, table.references, ctx, owner);
    if (links === undefined) return;
    const about: ModelActionContext<D, L, K> = { desired, live, ctx, links };
    if (live === undefined) {
      if (desired.id !== undefined && spec.readsDeleted) {
        ctx.sink.errors.push({
          message: `${owner} pins id ${desired.id}, which project ${ctx.project} does not have (live or soft-deleted): remove the \`id:\` pin to create it`,
          source: desired.source,
        });
        return;
      }
      if (desired.id !== undefined) {
        push(decorate(restoreAction(ref, desired.id), about));
        const warning = `the live values are unknown while the ${words.one} is deleted: apply ${spec.readBack ? "reads it back after the restore and sends the declared fields that differ" : "sends every declared field"}`;
        push(decorate(blindUpdate(verbs.update, ref, table.sent(desired), warning), about));
        hooks.extras?.(desired, undefined, ref, ctx, "restore", links);
        return;
      }
      const after = table.sent(desired);
      const created = push(
        decorate(
          makeAction(verbs.create, ref, {
            after,
            changes: createChanges(table, after),
            requires: linksIn(table, after, links),
          }),
          about,
        ),
      );
      if (!created) return;
      if (hasTags) warnIgnoredTags(table.valueOf(desired, "tags") as string[] | undefined, ref, ctx);
      toggles(undefined);
      hooks.extras?.(desired, undefined, ref, ctx, "create", links);
      return;
    }
    if (isGone(live)) {
      push(decorate(restoreAction(ref, undefined), about));
    }
    const state = table.state(live);
    const names = nameOf(ctx);
    const compared = table.compare(desired, state, {
      live,
      nameOf: names,
      rotateSecrets: ctx.options.rotateSecrets,
    });
    const changes = hasTags ? withoutIgnoredTags(compared.changes, ref, ctx) : compared.changes;
    if (changes.length > 0) {
      const sides = updateSides(table, desired, changes);
      const requires = linksIn(table, deepMerge(sides.after, sides.sends), links);
      push(decorate(makeAction(verbs.update, ref, { ...sides, changes, requires }), about));
    }
    toggles(state);
    hooks.extras?.(desired, live, ref, ctx, "update", links);

    /** The switches (`toggles`) whose declared value differs from the live one (absent live: off). */
    function toggles(current: Readonly<Record<string, unknown>> | undefined) {
      for (const [key, f] of Object.entries(table.fields)) {
        const wanted = table.valueOf(desired, key);
        if (f.toggles === undefined || typeof wanted !== "boolean") continue;
        const now = current?.[key] === true;
        if (now === wanted) continue;
        const verb = wanted ? f.toggles.on : f.toggles.off;
        push(decorate(makeAction(verb, ref, { before: { [key]: now }, after: { [key]: wanted } }), about));
      }
    }
  }

  const kindHooks: KindHooks<T, L, D, K> = {
    ...hooks,
    plan,
    prune: (live, ref, ctx) => {
      const about = { desired: undefined, live, ctx, links: [] };
      return softDelete(live, ref, about) ?? makeAction(verbs.softDelete, ref, { before: table.state(live) });
    },
    ...(hasTags
      ? {
          needsFeatures: (actions: readonly Action[]) =>
            (hooks.needsFeatures?.(actions) ?? false) ||
            actions.some(
              (a) =>
                a.object.kind === spec.name &&
                ((a.action === verbs.update.name && a.changes.some((c) => c.path === "tags")) ||
                  (a.action === verbs.create.name &&
                    Array.isArray(a.after?.tags) &&
                    a.after.tags.length > 0)),
            ),
        }
      : {}),
    pull:
      hooks.pull ??
      (async (client, project, context?: PullContext): Promise<Pulled> => {
        const live = (await api(client).listAll(project)).map(asLive);
        const ordered = spec.pullOrder ? [...live].sort(spec.pullOrder) : live;
        const foreign = hooks.foreign ? await hooks.foreign(client, project, live) : {};
        const names = await pullNames(spec.name, live, foreign, context, table);
        const items = ordered.map((l) => table.item(l, names));
        return { items, variables: placeholders(items) };
      }),
  };

  const kind = defineKind<T, L, D, K>({
    name: spec.name,
    key: spec.key,
    words,
    schema: spec.schema,
    fields: table,
    verbs: [verbs.create, verbs.update, verbs.softDelete, verbs.restore, ...own],
    service,
    ...(spec.answers ? { answers: spec.answers } : {}),
    hooks: kindHooks,
  });
  return { kind, api, live: asLive, verbs };
}

/** The changes a create lists: each declared field, a nested value key by key with its words. */
function createChanges<T extends FieldTable>(table: Table<T>, after: Record<string, unknown>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [path, value] of Object.entries(after)) {
    const codec = (table.fields as FieldTable)[path]?.codec;
    if (codec === undefined || codec.whole === true || !isPlainObject(value)) {
      changes.push({ path, after: value });
      continue;
    }
    for (const [key, part] of Object.entries(value)) {
      const says = codec.says?.(`${path}.${key}`, undefined, part) ?? [];
      changes.push({ path: `${path}.${key}`, after: part, ...(says.length > 0 ? { says } : {}) });
    }
  }
  return changes;
}

/** The links whose objects the sides' nested values name: what the update's body needs ids for. */
function linksIn<T extends FieldTable>(
  table: Table<T>,
  after: Record<string, unknown>,
  links: readonly ObjectLink[],
): ObjectLink[] {
  const named = new Set<string>();
  for (const [key, f] of Object.entries(table.fields)) {
    const value = after[key];
    if (value === undefined || f.references === undefined) continue;
    for (const { spec, node } of findReferences(value, f.references)) {
      const name = node[spec.name];
      const id = node[spec.id];
      if (typeof name === "string") named.add(`${spec.kind}\u0000${name}`);
      else if (id !== undefined) named.add(`${spec.kind}\u0000#${String(id)}`);
    }
  }
  return links.filter((l) => named.has(`${l.kind}\u0000${l.name}`) || named.has(`${l.kind}\u0000#${l.id}`));
}

/** The fields of a body that differ from the object as it is now (a blind update after a restore). */
function onlyChanged<T extends FieldTable>(
  table: Table<T>,
  current: { id: number | string },
  body: Record<string, unknown>,
): Record<string, unknown> {
  const live = table.state({ name: null, ...current } as LiveObject);
  return Object.fromEntries(
    Object.entries(body).filter(([key, value]) => !deepEqual(table.normalised(key, value), live[key])),
  );
}

/**
 * What `pull` writes for an id another object's value names: the name, when no other object of that
 * kind holds it and it is not empty. Its own kind's from its list; a kind pulled together from the
 * registry's list of it; a kind the registry lacks from the model's `foreign` reader. A kind whose
 * names must be declared (a tile's insight) is named only when it is pulled too.
 */
async function pullNames<T extends FieldTable>(
  own: string,
  live: readonly LiveObject[],
  foreign: Readonly<Record<string, readonly LiveObject[]>>,
  context: PullContext | undefined,
  table: Table<T>,
): Promise<(kind: string, id: number | string) => string | undefined> {
  const kinds = [...new Set(table.references.map((s) => s.kind))];
  const lists = new Map<string, readonly LiveObject[]>();
  for (const kind of kinds) {
    const pulled = kind === own ? undefined : context?.live?.(kind);
    if (kind === own) lists.set(kind, [...live, ...(foreign[kind] ?? [])]);
    else if (pulled !== undefined) lists.set(kind, await pulled);
    else if (foreign[kind] !== undefined) lists.set(kind, foreign[kind]);
  }
  const unique = new Map<string, Map<string, string>>();
  for (const [kind, list] of lists) {
    const count = new Map<string, number>();
    for (const o of list) count.set(o.name ?? "", (count.get(o.name ?? "") ?? 0) + 1);
    const ids = new Map<string, string>();
    for (const o of list) {
      const name = o.name ?? "";
      if (name.trim() !== "" && count.get(name) === 1) ids.set(String(o.id), name);
    }
    unique.set(kind, ids);
  }
  return (kind, id) => unique.get(kind)?.get(String(id));
}

/** The variables of the `${NAME}` placeholders pulled items hold (encrypted payloads), in order. */
function placeholders(items: readonly unknown[]): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (value instanceof Placeholder) out.push(value.variable);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(items);
  return out;
}
