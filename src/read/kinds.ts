/**
 * What the read stage needs of a resource kind: its live state in one project, read with the fewest
 * requests for what the files declare, and a record of what was read so that `apply --plan` reads
 * exactly the same things again (and its fingerprints compare like with like). A change-scoped read
 * (`--changed-only`, SPEC §3 "Change-scoped plans") hands a `ReadScope`: only those objects are read,
 * by id or through the service's search, never the whole list of a kind the service can search.
 */
import type { Declared } from "../config/types.js";
import type { LiveKind } from "../plan/types.js";
import type { ServiceClient } from "../service/index.js";
import type { MemberDirectory } from "./people.js";

export type { ReadVerb } from "./people.js";

/** What the reads of one run share: the organizations' members, read at most once each. */
export interface ReadRun {
  members: MemberDirectory;
}

/** What a change-scoped read reads of one kind in one project. */
export interface ReadScope {
  /** Pinned ids, each read on its own. */
  ids: Array<number | string>;
  /** Identities (names; a flag's keys), each found with the service's search, exact matches kept. */
  names: string[];
  /**
   * Ids pinned by declarations outside the scope: a live object one of them pins is theirs, never the
   * match of a name in the scope (as in the full plan, where pins claim objects first).
   */
  pinnedElsewhere: Array<number | string>;
}

/** An object a declaration refers to (a tile's insight, a flag's flags): read with it, not planned. */
export interface Reference {
  /** The kind's name. */
  kind: string;
  name?: string;
  id?: number | string;
}

export interface ReadKind {
  readonly name: string;
  /**
   * True when the service can search the kind by identity (one request a name); a change-scoped read
   * of a kind without it reads the kind's whole list, as the full read does.
   */
  readonly searches?: boolean;
  /**
   * This kind's live state in `project`, for the objects the files declare (details such as
   * collaborators only where declared), or with `scope` for those objects alone. `read` is plain
   * JSON, saved with a plan.
   */
  read(
    client: ServiceClient,
    project: number,
    declared: readonly Declared[],
    run: ReadRun,
    scope?: ReadScope,
  ): Promise<{ live: LiveKind; read: unknown }>;
  /**
   * Reads again exactly what `read` recorded (with the same scope). `read` comes from a saved plan
   * file: a kind checks its shape and throws a `UserError` when it is not one it wrote.
   */
  reread(
    client: ServiceClient,
    project: number,
    read: unknown,
    run: ReadRun,
    scope?: ReadScope,
  ): Promise<LiveKind>;
  /** How many live objects the kind has in `project`, from one small request (absent: unknown). */
  count?(client: ServiceClient, project: number): Promise<number>;
  /** The objects of other kinds (or its own) a declaration refers to; absent: none. */
  references?(declared: Declared): Reference[];
}
