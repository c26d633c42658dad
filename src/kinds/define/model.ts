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
import { resolveSecrets } from "../../plan/secrets.js";
import type { Action, LiveKind, LiveObject } from "../../plan/types.js";
import { deepEqual } from "../../plan/values.js";
import type { PullContext, Pulled } from "../../pull/kinds.js";
import { ServiceError } from "../../service/errors.js";
import type { ServiceClient } from "../../service/index.js";
import { collect } from "../../service/pages.js";
import type { Verb } from "../kind.js";
import { restoring } from "../shared/restore.js";
import { ignoredTags } from "../shared/tags.js";
import { CREATE, deepMerge, RESTORE, SOFT_DELETE, UPDATE } from "../shared/verbs.js";
import type { FieldTable } from "./fields.js";
import { defineKind, type KindHooks, type KindService } from "./index.js";
import { modelApi } from "./model-api.js";
import { modelPlanner } from "./model-plan.js";
import { placeholders, pullNames } from "./model-pull.js";
import type { Model, ModelHooks, ModelSpec, ModelVerbs } from "./model-types.js";
import type { DesiredOf, Table } from "./table.js";

export type * from "./model-types.js";

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
  /**
   * PATCH exactly `{deleted}` (older services refuse any other key on a deleted object). A 404 means a
   * soft delete's goal is reached (deleted since the plan), and a restore's id never existed: the
   * outcome names the pin and the fix (`restoring`).
   */
  const patchDeleted =
    (deleted: boolean): Verb["send"] =>
    async (client, action, id) => {
      const send = () => api(client).update(action.object.project, id, { deleted });
      if (!deleted) await restoring(action, id, words.one, send);
      else {
        try {
          await send();
        } catch (error) {
          if (!(error instanceof ServiceError && error.status === 404)) throw error;
        }
      }
      return { id, notes: [] };
    };
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
    softDelete: { ...SOFT_DELETE, send: patchDeleted(true), ...spec.verbs?.softDelete },
    restore: { ...RESTORE, send: patchDeleted(false), ...spec.verbs?.restore },
  };
  const own = spec.verbs?.own ?? [];

  const planner = modelPlanner<T, L, D, K>({
    table,
    words,
    readsDeleted: spec.readsDeleted === true,
    readBack: spec.readBack === true,
    verbs,
    hooks,
  });

  /**
   * Where the service reads soft-deleted objects by id (`readsDeleted`) and the kind reads nothing
   * else: the list, and each pinned id the list lacks, by id (soft-deleted, it is restored).
   */
  const withPins = async (client: ServiceClient, project: number, pinned: readonly number[], list: L[]) => {
    const ids = new Set(list.map((o) => String(o.id)));
    const found = await Promise.all(
      pinned.filter((id) => !ids.has(String(id))).map((id) => get(client, project, id)),
    );
    return { objects: [...list, ...found.filter((o) => o !== undefined)] } as unknown as K;
  };
  const pinReads: Pick<KindHooks<T, L, D, K>, "read" | "reread"> = spec.readsDeleted &&
  hooks.read === undefined
    ? {
        async read(client, project, declared, _run, list, scope) {
          const pinned =
            scope === undefined ? declared.flatMap((d) => (typeof d.id === "number" ? [d.id] : [])) : [];
          return { live: await withPins(client, project, pinned, await list()), read: { pinned } };
        },
        async reread(client, project, read, _run, list) {
          const pinned = (read as { pinned?: unknown } | null)?.pinned;
          if (!Array.isArray(pinned) || !pinned.every((id) => Number.isSafeInteger(id) && id > 0)) {
            throw new UserError(`the saved plan's record of what was read for ${words.many} is damaged`);
          }
          return withPins(client, project, pinned as number[], await list());
        },
      }
    : {};

  const kindHooks: KindHooks<T, L, D, K> = {
    ...pinReads,
    ...hooks,
    plan: planner.plan,
    prune: planner.prune,
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
    ...(spec.environments ? { environments: spec.environments } : {}),
    ...(spec.scopes ? { scopes: spec.scopes } : {}),
    hooks: kindHooks,
  });
  return { kind, api, live: asLive, verbs };
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
