/**
 * What the read stage needs of a resource kind: its live state in one project, read with the fewest
 * requests for what the files declare, and a record of what was read so that `apply --plan` reads
 * exactly the same things again (and its fingerprints compare like with like).
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

export interface ReadKind {
  readonly name: string;
  /**
   * This kind's live state in `project`, for the objects the files declare (details such as
   * collaborators only where declared). `read` is plain JSON, saved with a plan.
   */
  read(
    client: ServiceClient,
    project: number,
    declared: readonly Declared[],
    run: ReadRun,
  ): Promise<{ live: LiveKind; read: unknown }>;
  /**
   * Reads again exactly what `read` recorded. `read` comes from a saved plan file: a kind checks its
   * shape and throws a `UserError` when it is not one it wrote.
   */
  reread(client: ServiceClient, project: number, read: unknown, run: ReadRun): Promise<LiveKind>;
}
