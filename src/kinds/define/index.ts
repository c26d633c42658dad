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
 * 3. **The service part**: how to list a project's objects, find them by name right before a create,
 *    and create one. The kind's endpoints are its own (service.ts), on the client's generic
 *    `request`, `pages` and `listAll`, each answer checked against a shape the kind declares in
 *    answers.ts (`expect`, written with src/service/shapes.ts's `answerTypes`, `listPage`, …) and
 *    lists in `answers`.
 * 4. **Hooks**, only for what a table cannot say: `declare` (rules across fields: collaborators need
 *    only_collaborators, offsets fit the interval), `read` / `reread` (details such as collaborators),
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
 *   `read` gives live objects whose `name` is that identity.
 * - A flag's `filters` / an insight's `query`: `compare: "keys"` with a `normalise` that removes what
 *   the service adds or rewrites; a secret payload: `secret: true`.
 * - Own actions (`archive` / `unarchive`, `add_tile` / `remove_tile`): verbs with their step and sides;
 *   a guard computed from live data (a flag's `last_called_at`): `destructive: "depends"` and
 *   `makeAction(verb, ref, { destructive })` in the plan hook.
 * - Service endpoints and answer shapes: the kind's service.ts calling `client.request` /
 *   `client.pages` / `client.listAll` with `expect`, a shape from its answers.ts
 *   (`listPage(answerObject(…))`; test/kinds/banner-kind/ does so), listed in `answers`, and the
 *   `service` part above; a rate-budget class of its own (insights' lower limit) is a new budget of
 *   the client's (`RequestSpec.budget`, `BudgetName` in src/service/budget-file.ts) its requests name.
 * - References to objects of other kinds (a tile's insight, a flag's flags and cohorts) for apply order
 *   and change-scoped reads (#26): a `references(desired)` hook next to `plan`, and `service.get` /
 *   `service.search` (read one by id, search by name or key) next to `findByName`.
 */
import type { Executed } from "../../apply/kinds.js";
import type { ConfigKind, KindWords } from "../../config/kinds.js";
import type { Declared } from "../../config/types.js";
import { UserError } from "../../errors.js";
import { makeAction } from "../../plan/context.js";
import type { KindPlanContext, PlanKind, PlanVerb } from "../../plan/kinds.js";
import type { Recognised } from "../../plan/match.js";
import type { Action, FieldChange, LiveKind, LiveObject, ObjectRef } from "../../plan/types.js";
import type { Pulled, PullKind } from "../../pull/kinds.js";
import type { ReadRun } from "../../read/kinds.js";
import type { AnswerShape, ServiceClient } from "../../service/index.js";
import type { Kind, Verb } from "../kind.js";
import type { FieldTable, InputOf } from "./fields.js";
import type { DesiredOf, Table } from "./table.js";

export * from "./fields.js";
export { type Compared, type DesiredOf, fieldTable, type Roles, type Table } from "./table.js";

/** How the kind reaches the service (SPEC §3 "Concurrency": a name is looked up right before a create). */
export interface KindService<L extends LiveObject> {
  /** Every live, non-deleted object of a project (the list's pages). */
  list(client: ServiceClient, project: number): Promise<L[]>;
  /** Ids of the live objects named exactly `name`, read fresh (one request where the service filters). */
  findByName(client: ServiceClient, project: number, name: string): Promise<Array<number | string>>;
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
  /** Rules across the kinds of one project (a dashboard's tiles name declared insights). */
  checkProject?: ConfigKind["checkProject"];
  /** The id as a pin is matched (a UUID lowercased); absent: as written. */
  pin?(value: unknown): number | string;
  /**
   * This kind's live state, reading details only for what `declared` needs; absent: the list alone.
   * `run` is what the reads of one run share (the organizations' members).
   */
  read?(
    client: ServiceClient,
    project: number,
    declared: readonly D[],
    run: ReadRun,
  ): Promise<{ live: K; read: unknown }>;
  reread?(client: ServiceClient, project: number, read: unknown, run: ReadRun): Promise<K>;
  plan?(desired: D, live: L | undefined, ref: ObjectRef, ctx: KindPlanContext<K>): void;
  /** The new and old objects of a replacement whose delete failed (SPEC §3 "Replacement"). */
  replaced?(desired: D, candidates: readonly L[]): Recognised<L> | undefined;
  needsFeatures?: PlanKind["needsFeatures"];
  /** State read besides the list (a dashboard's collaborators), added after the table's fields. */
  details?(live: L, kindLive: K): Record<string, unknown>;
  pull?: PullKind["pull"];
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
  hooks?: KindHooks<T, L, D, K>;
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
  const listRead = async (client: ServiceClient, project: number) => ({
    live: { objects: await service.list(client, project) },
    read: {},
  });

  return {
    name,
    key: spec.key,
    words,
    values: table.values,
    verbs,
    answers: spec.answers ?? {},
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
    ...(hooks.checkProject ? { checkProject: hooks.checkProject } : {}),
    read: (client, project, declared, run) =>
      hooks.read ? hooks.read(client, project, declared as readonly D[], run) : listRead(client, project),
    reread:
      hooks.reread ??
      (async (client: ServiceClient, project: number, read: unknown) => {
        if (read !== undefined && !isEmptyRecord(read)) {
          throw new UserError(`the saved plan's record of what was read for ${words.many} is damaged`);
        }
        return (await listRead(client, project)).live;
      }),
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
    prune,
    state,
    ...(hooks.needsFeatures ? { needsFeatures: hooks.needsFeatures } : {}),
    requestBody: (action, env) => verbOf(action)?.body?.(action, env, `${words.one} "${action.object.name}"`),
    create: service.create,
    send(client, action, id, body, referenced) {
      const send = verbOf(action)?.send;
      if (send === undefined) throw new UserError(`${action.action} does not apply to a ${words.one}`);
      return send(client, action, id, body, referenced);
    },
    findByName: service.findByName,
    listLive: service.list,
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
    const wanted = Reflect.get(desired, key);
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
