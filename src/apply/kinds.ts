/**
 * What the apply stage needs of a resource kind: the body an action sends (secrets resolved at that
 * moment), the request(s) that carry it out, and a name lookup, made right before creates (in batches,
 * ./lookups.ts) and again when a create's answer was lost. The executor orders, parallelises, recovers and reports the
 * same way for every kind.
 */
import type { KindWords } from "../config/kinds.js";
import type { Env } from "../plan/secrets.js";
import type { Action, LiveObject, ObjectLink } from "../plan/types.js";
import type { ServiceClient } from "../service/index.js";

/** What one executed action learnt: the object's id (after a create) and things the user should know. */
export interface Executed {
  id?: number | string;
  notes: string[];
}

/** An object of the same project an action refers to (a tile's insight), by kind and name. */
export type Reference = ObjectLink;

/**
 * The ids apply knows of the objects an action `requires`: the id an earlier action of this apply
 * created or worked on, else the live id the plan holds; undefined when neither knows one (the object
 * was to be created and was not).
 */
export interface ReferencedIds {
  idOf(ref: Pick<ObjectLink, "kind" | "name">): number | string | undefined;
}

/** What the executor needs of an action verb. */
export interface ApplyVerb {
  readonly name: string;
  /** Removes the object: runs after all other work, and not when other work on the object failed. */
  readonly deletes?: boolean;
}

export interface ApplyKind {
  readonly name: string;
  readonly words: KindWords;
  readonly verbs: readonly ApplyVerb[];
  /**
   * The JSON body an action sends (undefined when its request has none), with every `SecretRef`
   * resolved from `env` (a missing variable is a `UserError`) and the objects it names by name
   * written by the ids `referenced` gives (absent: before apply, checking the body alone).
   */
  requestBody(action: Action, env: Env, referenced?: ReferencedIds): Record<string, unknown> | undefined;
  /** Creates the object; resolves to its new id. Never retried by the client: its answer may be lost. */
  create(client: ServiceClient, project: number, body: Record<string, unknown>): Promise<Executed>;
  /**
   * Carries out any other action on the live object `id`. Answers that mean the goal is already
   * reached (a collaborator already added, an export already deleted) count as success, so an apply
   * after a partial failure converges.
   */
  send(
    client: ServiceClient,
    action: Action,
    id: number | string,
    body: Record<string, unknown> | undefined,
    referenced?: ReferencedIds,
  ): Promise<Executed>;
  /**
   * Ids of the live objects named exactly `name` in `project`, read fresh (one request where the
   * service can filter by name): the look-up before creates and after a lost create's answer.
   */
  findByName(client: ServiceClient, project: number, name: string): Promise<Array<number | string>>;
  /**
   * True when `findByName` asks the service's name search (about one request a name); otherwise it
   * reads the kind's list, and one walk of the list serves any number of names.
   */
  readonly searches?: boolean;
  /**
   * Every live object of the kind in `project` (id and name), for names looked up in a batch (right
   * before creates, and in the check after them): one list walk instead of a `findByName` per name,
   * when that costs fewer requests (./lookups.ts). Absent: name by name.
   */
  listLive?(client: ServiceClient, project: number): Promise<LiveObject[]>;
}
