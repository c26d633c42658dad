/**
 * `defineKind`: a kind is one declaration (STYLE practice 9). A new kind is a folder under src/kinds/
 * and one line in src/kinds/index.ts; nothing else in the tool names it.
 *
 * ## How a kind is written
 *
 * ```ts
 * export const noteFields = fieldTable({
 *   name: text("The note's name: its identity.", { minLength: 1 }, { required: true }),
 *   id: integer("Pinned id.", { minimum: 1 }),
 *   text: longText("What it says."),                       // compared as long text, a diff when it changes
 *   colour: words({ red: 1, blue: 2 }, "Its colour."),     // YAML word ↔ service code; outputs show the word
 *   deleted: flag("Delete it."),
 * });
 * export const noteKind = defineKind({
 *   name: "note", key: "notes", words: { one: "note", many: "notes" },
 *   schema: { list: "Notes of the project.", item: "A note.", def: "note" },
 *   fields: noteFields,
 *   verbs: [CREATE, { ...UPDATE, send: patch }, { ...DELETE, send: remove }],
 *   service: { list, findByName, create },                 // on its endpoints (service.ts)
 *   answers: { notePage: NOTE_PAGE, note: NOTE },           // the shapes those check (answers.ts)
 * });
 * ```
 *
 * 1. **The field table** (./fields.ts, one entry per YAML key, in schema order) is the one place a
 *    field is named. From it come the item's JSON Schema (composed into schemas/config.schema.json),
 *    the types (`InputOf<T>` for a schema-valid item, `DesiredOf<T>` for the planner), `declare` (each
 *    value interpolated and normalised), the comparable `state` of a live object, `compare` (by the
 *    field's mode: value, set, long text with a diff, instant, declared keys only), the fields a create
 *    sends (`sent`), the YAML item `pull` writes (`item`) and the words renderers show for codes
 *    (`values`). `fieldTable(fields, roles)` names the structural keys: identity (`name`; a flag's
 *    `key`), pin (`id`) and tombstone (`deleted`). A secret field (`secret: true`) is never compared or
 *    pulled; a switch the service flips through endpoints of its own (`toggles: { on, off }`, a flag's
 *    `archived`) is planned as those verbs. The service's answer type and shape (the kind's
 *    answers.ts) are the only other place a field appears.
 * 2. **Verbs** (src/kinds/kind.ts `Verb`): every action the kind plans, with its symbol, words, step
 *    (apply order), destructiveness, sides (the plan schema's fragment), what `pull --refresh` takes
 *    from it, its body and its request. The shared ones are in ../shared/verbs.ts (`{ ...SOFT_DELETE,
 *    send }`); a kind's own (pause, add_collaborator, a flag's archive, a dashboard's add_tile) sit in
 *    its folder. Labels, the summary, the sort, the plan schema and `pull --refresh` are composed from
 *    the registry's verbs; action names stay those of SPEC §3.
 * 3. **The service part**: how to list a project's objects and create one; where the service can, how
 *    to search them by identity (`search`: a name or key filter, exact matches kept by the caller),
 *    read one by id (`get`) and count them (`count`). A kind with `search` is read by id and search in
 *    a change-scoped plan (SPEC §3 "Change-scoped plans") and has its names looked up before creates
 *    with one search each or one list walk, whichever is fewer requests; without it, both read the
 *    list. `findByName` is derived from `search` (else the list) unless given. The kind's endpoints
 *    are its own (service.ts), on the client's generic `request`, `pages` and `listAll`, each answer
 *    checked against a shape the kind declares in answers.ts (`expect`, written with
 *    src/service/shapes.ts's `answerTypes`, `listPage`, …) and lists in `answers`.
 * 4. **Hooks**, only for what a table cannot say: `declare` (rules across fields: collaborators need
 *    only_collaborators, offsets fit the interval), `read` / `reread` (details such as collaborators,
 *    on the objects their `list()` argument reads: the whole list, or a change-scoped read's objects),
 *    `references` (what a declaration refers to: read with it in a change-scoped read),
 *    `plan` (the whole plan of one object, calling the table's `compare` / `sent` / `state`), `details`
 *    (state read besides the list), `replaced`, `needsFeatures`, `pull`, and the config hooks for
 *    secrets (`checkBroken`, `secretPointers`, `quiet`). Without `plan`, a kind gets the plain plan:
 *    tombstone → its deleting verb, live → `update` of the compared fields and the `toggles` verbs of
 *    switches that differ, absent → `create` (and the `on` verb of a switch declared on).
 *
 * ## Where the next kinds plug in (SPEC §2, §3)
 *
 * - Identity by `key` (flags): `fieldTable(fields, { identity: "key" })`; the loader, duplicates and
 *   `ignore:` globs read `Declared.name`, which holds the identity whatever its YAML key; the kind's
 *   `read` gives live objects whose `name` is that identity. A field called `name` that is not the
 *   identity (a flag's description) says where the desired object keeps it (`keptAs: "description"`)
 *   and, when the kind's live objects keep the service's `name` elsewhere too, where to read it
 *   (`wire`); without `keptAs` the table refuses it rather than let it overwrite the identity.
 * - A flag's `filters` / an insight's `query`: a `json(schema, { codec, references })` field, compared
 *   on the declared keys after its codec's normaliser (or by a comparison of its own); a secret
 *   payload: `secret: true`.
 * - Own actions (`archive` / `unarchive`, `add_tile` / `remove_tile`): verbs with their step and sides;
 *   a guard computed from live data (a flag's `last_called_at`): `destructive: "depends"` and
 *   `makeAction(verb, ref, { destructive })` in the plan hook.
 * - Service endpoints and answer shapes: the kind's service.ts calling `client.request` /
 *   `client.pages` / `client.listAll` with `expect`, a shape from its answers.ts
 *   (`listPage(answerObject(…))`; test/kinds/banner-kind/ does so), listed in `answers`, and the
 *   `service` part above; a rate-budget class of its own (insights' lower limit) is a new budget of
 *   the client's (`RequestSpec.budget`, `BudgetName` in src/service/budget-file.ts) its requests name.
 * - References to objects of other kinds (a tile's insight, a flag's flags and cohorts): declared on
 *   the field that holds them (`references`, ./references.ts), never walked by the kind: the loader
 *   records them (`Declared.refs`), refuses their raw ids in a file shared by several projects
 *   (`ConfigKind.environments.projectIds`), a change-scoped read reads them with the declaration, the plan
 *   resolves them per project (./resolve.ts) into each action's `requires`, apply hands their ids on,
 *   pull names them, and references to the kind's own objects form no cycle (./cycles.ts). A
 *   `references(desired)` hook is for what no field declares. `service.search` is where a flag's
 *   `?key=` lookup goes, `service.get` its read by id (soft-deleted flags answer it); a hook `read`
 *   that lists by itself rather than calling `list()` reads the whole list in a change-scoped plan too
 *   (correct, but not in proportion to the change), so one that needs more than the objects reads it
 *   for the `scope` it is given. Cohorts, which are no kind yet, are read by the flag's own `read`
 *   hook (`LiveKind.foreign`): one cohorts list, only when the declarations it reads name cohorts.
 * - A PostHog model (list with search, retrieve, create, PATCH, soft delete and restore by PATCH of
 *   `deleted`): `defineModel` (./model.ts) gives all of the above from its path and table.
 */

import type { Executed } from "../../apply/kinds.js";
import type { ConfigKind, EnvironmentRules, KindWords } from "../../config/kinds.js";
import type { Declared, DesiredProject } from "../../config/types.js";
import { UserError } from "../../errors.js";
import { makeAction } from "../../plan/context.js";
import type { KindPlanContext, PlanKind, PlanVerb } from "../../plan/kinds.js";
import type { Recognised } from "../../plan/match.js";
import type { Action, FieldChange, LiveKind, LiveObject, ObjectRef } from "../../plan/types.js";
import { getPath, setPath } from "../../plan/values.js";
import type { PromoteKind } from "../../promote/kinds.js";
import type { Pulled, PullKind } from "../../pull/kinds.js";
import type { ReadRun, ReadScope, Reference } from "../../read/kinds.js";
import type { KindScopes } from "../../scopes.js";
import type { AnswerShape, ServiceClient } from "../../service/index.js";
import type { Kind, Verb } from "../kind.js";
import { referenceCycles } from "./cycles.js";
import type { FieldTable, InputOf } from "./fields.js";
import { rawIdRules, referencesToRead } from "./references.js";
import type { DesiredOf, Table } from "./table.js";

export * from "./cycles.js";
export * from "./fields.js";
export * from "./references.js";
export * from "./resolve.js";
export {
  type Compared,
  type CompareWith,
  type DesiredOf,
  fieldTable,
  type Roles,
  type Table,
} from "./table.js";

/**
 * How the kind reaches the service: its list, the look-up of names right before creates (SPEC §3
 * "Concurrency"), creates, and the reads of single objects a change-scoped plan makes (SPEC §3
 * "Change-scoped plans"). A live object's `name` is its identity (a flag's key).
 */
export interface KindService<L extends LiveObject> {
  /** Every live, non-deleted object of a project (the list's pages, 100 each). */
  list(client: ServiceClient, project: number): Promise<L[]>;
  /**
   * The live objects the service's own search finds for `name` (its name or key filter, in one request
   * for any ordinary answer), exact matches or not: callers keep those whose identity is exactly `name`.
   * Absent: the service cannot search the kind, so look-ups and change-scoped reads walk its list.
   */
  search?(client: ServiceClient, project: number, name: string): Promise<L[]>;
  /** One live object by id; undefined when the service has none or it is deleted. Absent: from the list. */
  get?(client: ServiceClient, project: number, id: number | string): Promise<L | undefined>;
  /** How many objects the list holds, from one small request (a change-scoped read's cost estimate). */
  count?(client: ServiceClient, project: number): Promise<number>;
  /**
   * Ids of the live objects named exactly `name`, read fresh. Absent: `search`'s exact matches, else
   * the list's.
   */
  findByName?(client: ServiceClient, project: number, name: string): Promise<Array<number | string>>;
  /** Creates the object; resolves to its new id. Never retried blindly: its answer may be lost. */
  create(client: ServiceClient, project: number, body: Record<string, unknown>): Promise<Executed>;
}

/**
 * The parts of a kind a table cannot say; each absent hook has the plain behaviour described above.
 * `L` is the service's answer type of one object, `D` the desired object, `K` the kind's live state
 * (what `read` returns: the list's objects and any details).
 */
export interface KindHooks<
  T extends FieldTable,
  L extends LiveObject,
  D extends Declared,
  K extends LiveKind,
> {
  /** Rules across fields, after each field's own `declare`; problems go to `ctx`, never thrown. */
  declare?(input: InputOf<T>, desired: D, ctx: ConfigContext): void;
  checkBroken?: ConfigKind["checkBroken"];
  secretPointers?: ConfigKind["secretPointers"];
  quiet?: ConfigKind["quiet"];
  /**
   * Rules across one project's declarations (a dashboard's tiles name declared insights; flags that
   * depend on each other in a cycle).
   */
  checkProject?: ConfigKind["checkProject"];
  /** The id as a pin is matched (a UUID lowercased); absent: as written. */
  pin?(value: unknown): number | string;
  /**
   * This kind's live state, reading details only for what `declared` needs; absent: the objects alone.
   * `run` is what the reads of one run share (the organizations' members). The objects come from
   * `list()`: the kind's list, or in a change-scoped read the scope's objects (found by id and
   * search); a hook that read the list itself would read all of it in that case too. `scope` is that
   * change-scoped read's scope (undefined: `list()` is the whole list, and `declared` every
   * declaration), for a hook that reads more than the objects: it reads it for the scope's objects
   * alone (a flag's archived flags by key rather than their list).
   */
  read?(
    client: ServiceClient,
    project: number,
    declared: readonly D[],
    run: ReadRun,
    list: () => Promise<L[]>,
    scope?: ReadScope,
  ): Promise<{ live: K; read: unknown }>;
  reread?(
    client: ServiceClient,
    project: number,
    read: unknown,
    run: ReadRun,
    list: () => Promise<L[]>,
    scope?: ReadScope,
  ): Promise<K>;
  /** What a declaration refers to (read with it in a change-scoped read): a tile's insight. */
  references?(desired: D): Reference[];
  plan?(desired: D, live: L | undefined, ref: ObjectRef, ctx: KindPlanContext<K>): void;
  /** The new and old objects of a replacement whose delete failed (SPEC §3 "Replacement"). */
  replaced?(desired: D, candidates: readonly L[]): Recognised<L> | undefined;
  needsFeatures?: PlanKind["needsFeatures"];
  /** State read besides the list (a dashboard's collaborators), added after the table's fields. */
  details?(live: L, kindLive: K): Record<string, unknown>;
  /** The delete of an undeclared live object (--prune); absent: the deleting verb on its state. */
  prune?(live: L, ref: ObjectRef, ctx: KindPlanContext<K>): Action;
  pull?: PullKind["pull"];
  /** The static objects (cohorts) of the kind's live state (SPEC §9's warnings). */
  staticObjects?(live: K): Array<{ kind: string; name: string }>;
  /** What the service makes by itself for one pulled item (never adopted by `promote --adopt`). */
  generated?: PromoteKind["generated"];
}

type ConfigContext = Parameters<ConfigKind["declare"]>[1];

export interface KindSpec<
  T extends FieldTable,
  L extends LiveObject,
  D extends Declared,
  K extends LiveKind = LiveKind,
> {
  /** Stable name in plans and outputs, e.g. `batch_export`. */
  name: string;
  /** The file's list key, e.g. `batch_exports`; also its key under `ignore:`. */
  key: string;
  words: KindWords;
  /** The list's description, the item's, its `$defs` name, and definitions its fields refer to. */
  schema: { list: string; item: string; def: string; defs?: ConfigKind["schema"]["defs"] };
  fields: Table<T>;
  verbs: readonly Verb[];
  service: KindService<L>;
  /** The shapes of its answers, by name, that its service part names as `expect` (none: `{}`). */
  answers?: Readonly<Record<string, AnswerShape>>;
  /** The personal API key scopes reading, writing and pulling its objects need (none: nothing declared). */
  scopes?: KindScopes;
  hooks?: KindHooks<T, L, D, K>;
  /**
   * Its lists whose entries merge by identity in an overlay, and the values that are one project's ids
   * (SPEC §9); the pin (`id`) is one without saying so.
   */
  environments?: EnvironmentRules;
}

/** The kind object every stage takes, from its declaration. */
export function defineKind<
  T extends FieldTable,
  L extends LiveObject,
  D extends Declared = DesiredOf<T>,
  K extends LiveKind = LiveKind,
>(spec: KindSpec<T, L, D, K>): Kind {
  const { name, words, fields: table, verbs, service } = spec;
  const hooks: KindHooks<T, L, D, K> = spec.hooks ?? {};
  // The one place where the stages' general types meet the kind's own: every declared object of this
  // kind came from its `declare`, every live object and live state from its `read`.
  const verbOf = (action: Action): Verb | undefined => verbs.find((v) => v.name === action.action);
  const deleting = verbs.find((v) => v.deletes);
  const state = (live: LiveObject, kindLive?: LiveKind) => ({
    ...table.state(live),
    ...(kindLive && hooks.details ? hooks.details(live as L, kindLive as K) : {}),
  });
  const prune = (live: LiveObject, ref: ObjectRef): Action => {
    if (deleting === undefined) throw new Error(`kind ${name} declares no deleting verb`);
    return makeAction(deleting, ref, { before: table.state(live) });
  };
  /**
   * The objects a read starts from: the list, or the scope's (by id, and by search with exact matches
   * kept); a kind the service cannot search, or a pin it cannot read alone, reads the list.
   */
  const objects = async (client: ServiceClient, project: number, scope?: ReadScope): Promise<L[]> => {
    const { search, get } = service;
    if (scope === undefined || search === undefined || (get === undefined && scope.ids.length > 0)) {
      return service.list(client, project);
    }
    const names = new Set(scope.names);
    const theirs = new Set(scope.pinnedElsewhere);
    const [byId, byName] = await Promise.all([
      Promise.all(scope.ids.map((id) => get?.(client, project, id))),
      Promise.all(scope.names.map((name) => search(client, project, name))),
    ]);
    const found = new Map<number | string, L>();
    for (const live of byId) if (live !== undefined) found.set(live.id, live);
    for (const live of byName.flat()) {
      if (names.has(live.name ?? "") && !theirs.has(live.id) && !found.has(live.id)) found.set(live.id, live);
    }
    return [...found.values()];
  };
  // References among the kind's own objects form no cycle (the service refuses them): `validate` says so.
  const selfSpec = table.references.find((r) => r.kind === name);
  const checkProject = (project: DesiredProject) => [
    ...(selfSpec ? referenceCycles(project, name, words, selfSpec) : []),
    ...(hooks.checkProject?.(project) ?? []),
  ];
  /** Marks a change-scoped read's state: its objects are not the whole list. */
  const scoped = <R extends { live: LiveKind }>(result: R, scope?: ReadScope): R => {
    if (scope !== undefined && service.search !== undefined) result.live.scoped = {};
    return result;
  };

  return {
    name,
    key: spec.key,
    identityKey: table.roles.identity,
    environments: {
      ...(spec.environments?.keyedLists ? { keyedLists: spec.environments.keyedLists } : {}),
      // The pin, the raw ids the fields' references may hold, and the kind's own.
      projectIds: [
        { path: `/${table.roles.pin}` },
        ...rawIdRules(table.fields),
        ...(spec.environments?.projectIds ?? []),
      ],
      ...(spec.environments?.needs ? { needs: spec.environments.needs } : {}),
    },
    words,
    values: table.values,
    verbs,
    answers: spec.answers ?? {},
    scopes: spec.scopes ?? { read: [], write: [], pull: [] },
    schema: {
      description: spec.schema.list,
      item: { $ref: `#/$defs/${spec.schema.def}` },
      defs: { [spec.schema.def]: table.schema(spec.schema.item), ...spec.schema.defs },
    },
    declare(input, ctx) {
      const item = input as InputOf<T>;
      const desired = table.declare(name, item, ctx, hooks.pin) as D;
      hooks.declare?.(item, desired, ctx);
      return desired;
    },
    ...(hooks.checkBroken ? { checkBroken: hooks.checkBroken } : {}),
    ...(hooks.secretPointers ? { secretPointers: hooks.secretPointers } : {}),
    ...(hooks.quiet ? { quiet: hooks.quiet } : {}),
    ...(hooks.checkProject || selfSpec ? { checkProject } : {}),
    ...(service.search ? { searches: true } : {}),
    async read(client, project, declared, run, scope) {
      const list = () => objects(client, project, scope);
      const read = hooks.read
        ? await hooks.read(client, project, declared as readonly D[], run, list, scope)
        : { live: { objects: await list() }, read: {} };
      return scoped(read, scope);
    },
    async reread(client, project, read, run, scope) {
      const list = () => objects(client, project, scope);
      if (hooks.reread) {
        return scoped({ live: await hooks.reread(client, project, read, run, list, scope) }, scope).live;
      }
      if (read !== undefined && !isEmptyRecord(read)) {
        throw new UserError(`the saved plan's record of what was read for ${words.many} is damaged`);
      }
      return scoped({ live: { objects: await list() } }, scope).live;
    },
    ...(service.count ? { count: service.count } : {}),
    ...(hooks.references
      ? { references: (declared: Declared) => hooks.references?.(declared as D) ?? [] }
      : table.references.length > 0
        ? { references: referencesToRead }
        : {}),
    plan(desired, live, ref, ctx) {
      if (hooks.plan) hooks.plan(desired as D, live as L | undefined, ref, ctx as KindPlanContext<K>);
      else planPlain(table, verbs, desired, live, ref, ctx, prune);
    },
    ...(hooks.replaced
      ? {
          replaced: (desired: Declared, candidates: readonly LiveObject[]) =>
            hooks.replaced?.(desired as D, candidates as readonly L[]),
        }
      : {}),
    prune: (live, ref, ctx) =>
      hooks.prune ? hooks.prune(live as L, ref, ctx as KindPlanContext<K>) : prune(live, ref),
    state,
    ...(hooks.needsFeatures ? { needsFeatures: hooks.needsFeatures } : {}),
    requestBody: (action, env, referenced) =>
      verbOf(action)?.body?.(action, env, `${words.one} "${action.object.name}"`, referenced),
    create: service.create,
    send(client, action, id, body, referenced) {
      const send = verbOf(action)?.send;
      if (send === undefined) throw new UserError(`${action.action} does not apply to a ${words.one}`);
      return send(client, action, id, body, referenced);
    },
    findByName:
      service.findByName ??
      (async (client, project, wanted) =>
        (await (service.search ?? ((c, p) => service.list(c, p)))(client, project, wanted))
          .filter((live) => (live.name ?? "") === wanted)
          .map((live) => live.id)),
    listLive: service.list,
    ...(hooks.staticObjects
      ? { staticObjects: (live: LiveKind) => hooks.staticObjects?.(live as K) ?? [] }
      : {}),
    ...(hooks.generated ? { generated: hooks.generated } : {}),
    pull:
      hooks.pull ??
      (async (client, project): Promise<Pulled> => ({
        items: (await service.list(client, project)).map((live) => table.item(live)),
        variables: [],
      })),
  };
}

function isEmptyRecord(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/**
 * The sides of an update of `changes` (plan format 2): the changed fields, nested by their paths, the
 * live values in `before` (null where unset) and in `after` what the body sends for them (the table's
 * `sent`: a nested value in the file's form, naming objects by name), the same keys on both sides; a
 * write-only value (a secret: never compared, so never a change of the reviewer's sides) goes to
 * `sends` at its path.
 */
export function updateSides<T extends FieldTable>(
  table: Table<T>,
  desired: Declared,
  changes: readonly FieldChange[],
): { before: Record<string, unknown>; after: Record<string, unknown>; sends: Record<string, unknown> } {
  const sent = table.sent(desired);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const sends: Record<string, unknown> = {};
  for (const c of changes) {
    const value = getPath(sent, c.path);
    if (c.secret === true) {
      setPath(sends, c.path, value === undefined ? c.after : value);
      continue;
    }
    setPath(before, c.path, c.before ?? null);
    setPath(after, c.path, value === undefined ? c.after : value);
  }
  return { before, after, sends };
}

/**
 * The update that makes the changed fields live: `before` and `after` hold only those fields (SPEC §3),
 * keyed by their paths; none when nothing changed.
 */
export function updateAction(verb: PlanVerb, ref: ObjectRef, changes: FieldChange[]): Action | undefined {
  if (changes.length === 0) return undefined;
  const before = Object.fromEntries(changes.map((c) => [c.path, c.before]));
  const after = Object.fromEntries(changes.map((c) => [c.path, c.after]));
  return makeAction(verb, ref, { before, after, changes });
}

/** The plain plan of one object: tombstone → the deleting verb; live → update; absent → create. */
function planPlain<T extends FieldTable>(
  table: Table<T>,
  verbs: readonly Verb[],
  desired: Declared,
  live: LiveObject | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
  prune: (live: LiveObject, ref: ObjectRef) => Action,
): void {
  const verb = (name: string) => {
    const found = verbs.find((v) => v.name === name);
    if (found === undefined) throw new Error(`the kind of ${ref.kind} declares no ${name} verb`);
    return found;
  };
  if (desired.deleted) {
    if (live) ctx.sink.actions.push(prune(live, ref));
    return;
  }
  if (live === undefined) {
    const after = table.sent(desired);
    const changes: FieldChange[] = Object.entries(after).map(([path, value]) => ({ path, after: value }));
    ctx.sink.actions.push(makeAction(verb("create"), ref, { after, changes }));
    toggle(table, desired, undefined, ref, ctx);
    return;
  }
  const state = table.state(live);
  const update = updateAction(verb("update"), ref, table.compare(desired, state).changes);
  if (update) ctx.sink.actions.push(update);
  toggle(table, desired, state, ref, ctx);
}

/** The switches (`toggles`) whose declared value differs from the live one (absent live: off). */
function toggle<T extends FieldTable>(
  table: Table<T>,
  desired: Declared,
  state: Readonly<Record<string, unknown>> | undefined,
  ref: ObjectRef,
  ctx: KindPlanContext,
): void {
  for (const [key, f] of Object.entries(table.fields)) {
    const wanted = table.valueOf(desired, key);
    if (f.toggles === undefined || typeof wanted !== "boolean") continue;
    const now = state?.[key] === true;
    if (now === wanted) continue;
    ctx.sink.actions.push(
      makeAction(wanted ? f.toggles.on : f.toggles.off, ref, {
        before: { [key]: now },
        after: { [key]: wanted },
      }),
    );
  }
}
