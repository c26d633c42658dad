/**
 * What the planner needs of a resource kind. The generic planner matches declared objects to live ones
 * (by pinned id, else by name), then hands each pair to its kind; prune, targets, safety, sorting and
 * fingerprints are generic and ask the kind only for its words, its deletes and its normalised state.
 */
import type { KindWords } from "../config/kinds.js";
import type { Declared } from "../config/types.js";
import type { BuildOptions, PlanSink } from "./context.js";
import type { Recognised } from "./match.js";
import type { Action, Features, LiveKind, LiveObject, ObjectRef } from "./types.js";
import type { PlanVerb } from "./verbs.js";

export type { PlanVerb, Side } from "./verbs.js";

/** What a kind's planner sees besides the pair it plans (`K`: the kind's own shape of its live state). */
export interface KindPlanContext<K extends LiveKind = LiveKind> {
  project: number;
  /** This kind's live state in the project. */
  live: K;
  features: Features | undefined;
  options: BuildOptions;
  sink: PlanSink;
  /**
   * The same project's other kinds, for what refers across them (a dashboard's tiles name insights):
   * their declared objects and their live state. Absent in contexts built by hand: read as nothing.
   */
  others?: ProjectView;
}

/** One project's declared objects and live state, by kind name. */
export interface ProjectView {
  declared(kind: string): readonly Declared[];
  /** Undefined when the kind was not read (the project's files do not list it). */
  live(kind: string): LiveKind | undefined;
}

export interface PlanKind {
  readonly name: string;
  readonly words: KindWords;
  /** The actions its planner makes. */
  readonly verbs: readonly PlanVerb[];
  /**
   * Plans one declared object against its live match (undefined when there is none): pushes actions,
   * notes and errors into `ctx.sink`. `ref` is the object's identity as every output shows it.
   */
  plan(desired: Declared, live: LiveObject | undefined, ref: ObjectRef, ctx: KindPlanContext): void;
  /**
   * Several live objects carry a declared name that no `id` pins: the kind may recognise the new and
   * the old object of a replacement whose delete failed (SPEC §3 "Replacement"). Returns the one the
   * declaration describes and the leftovers, which the plan deletes (with --force, as the replacement
   * itself). Absent, or undefined: the usual error asking for an `id` pin.
   */
  replaced?(desired: Declared, candidates: readonly LiveObject[]): Recognised<LiveObject> | undefined;
  /** The delete of a live object no file declares (--prune), e.g. a soft delete. */
  prune(live: LiveObject, ref: ObjectRef, ctx: KindPlanContext): Action;
  /**
   * The comparable state of one live object (server-owned fields dropped, values normalised, with the
   * details that were read): the `before` of deletes and the input of saved-plan fingerprints.
   */
  state(live: LiveObject, kindLive: LiveKind): Record<string, unknown>;
  /**
   * True when the organization's paid features could change these actions of this kind (the read stage
   * then looks them up and plans again). Absent: never.
   */
  needsFeatures?(actions: readonly Action[]): boolean;
}
