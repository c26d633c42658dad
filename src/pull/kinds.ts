/**
 * What `pull` needs of a resource kind: every live object of a project as the YAML item that declares
 * it, such that planning the pulled files against the same live state gives no action.
 */
import type { KindWords } from "../config/kinds.js";
import type { Action, LiveObject } from "../plan/types.js";
import type { ServiceClient } from "../service/index.js";

/**
 * A `${NAME}` reference a kind writes on purpose (a secret field's placeholder). Every other `${` in a
 * pulled item is live text and is written as `$${`, so adopting a project never turns service text
 * into a variable lookup.
 */
export class Placeholder {
  constructor(readonly variable: string) {}
}

export interface Pulled {
  /** YAML-level items (symbolic levels, `Placeholder`s for secrets, id pins). */
  items: Record<string, unknown>[];
  /** Environment variables the placeholders name, in order of first appearance. */
  variables: string[];
}

/** What `pull --refresh` needs of an action verb: which of the item's YAML values it says differ. */
export interface RefreshVerb {
  readonly name: string;
  /** The object is not live before this action (create, restore): there is no live value to write. */
  readonly absentBefore?: boolean;
  /** Paths inside the declared item (`["sharing", "enabled"]`) whose live values differ; absent: none. */
  readonly refreshes?: (action: Action) => string[][];
}

/** What one kind's pull knows of the whole pull: the kinds written with it (by name). */
export interface PullContext {
  kinds: readonly string[];
  /**
   * The live objects (id and name) of a kind of the registry, read once per pull, for the names its
   * items give ids of that kind (a kind not pulled with it too: a flag names its cohorts by name,
   * which plan resolves among the live ones); undefined for a kind that cannot list them.
   */
  live?(kind: string): Promise<LiveObject[]> | undefined;
}

export interface PullKind {
  readonly name: string;
  /** The file's list key, e.g. `dashboards`. */
  readonly key: string;
  readonly words: KindWords;
  readonly verbs: readonly RefreshVerb[];
  /**
   * `context` says which kinds are pulled together: an item may name an object of another kind that
   * is written too (a tile's insight by name), else it names it by id.
   */
  pull(client: ServiceClient, project: number, context?: PullContext): Promise<Pulled>;
  /** Every live object of the kind (id and name): what other kinds' items name by name. */
  listLive?(client: ServiceClient, project: number): Promise<LiveObject[]>;
}
