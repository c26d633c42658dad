/**
 * What a PostHog model kind declares (`defineModel`, ./model.ts) and what the kit gives back: its
 * search, its hooks, its verbs and the model's api.
 */
import type { Declared } from "../../config/types.js";
import type { KindPlanContext } from "../../plan/kinds.js";
import type { Action, LiveKind, LiveObject, ObjectLink, ObjectRef } from "../../plan/types.js";
import type { ServiceClient } from "../../service/index.js";
import type { Kind, Verb } from "../kind.js";
import type { FieldTable } from "./fields.js";
import type { KindHooks, KindService, KindSpec } from "./index.js";
import type { ModelApi, ModelEndpoints } from "./model-api.js";

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
