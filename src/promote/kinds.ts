/**
 * What promotion (SPEC §9) needs of a kind besides its config, plan and pull parts: the live facts it
 * knows that do not carry from one project to another, and the objects the service makes by itself
 * for one of its objects (which adopting an environment's live objects leaves out).
 */
import type { LiveKind } from "../plan/types.js";

export interface PromoteKind {
  readonly name: string;
  /**
   * The static objects this kind's live state holds, by kind and name: objects whose members are a
   * list kept in each project and never copied (a static cohort), its own (a cohort kind's) or those it
   * read to resolve the names its declarations give (the cohorts a flag names). Absent: none.
   */
  readonly staticObjects?: (live: LiveKind) => Array<{ kind: string; name: string }>;
  /**
   * What the service makes by itself for one of this kind's pulled items (a flag's usage dashboard),
   * by kind name and name: never adopted into the files. Absent: nothing.
   */
  readonly generated?: (item: Record<string, unknown>) => Array<{ kind: string; name: string }>;
}
