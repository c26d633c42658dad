/**
 * Action verbs as the planner knows them: each kind declares its own (src/kinds/<kind>/, the shared ones
 * in src/kinds/shared/verbs.ts); the plan's order, its prune guard and its JSON schema are composed from
 * the verbs of the kinds a plan is made with, never from a list of names.
 */
import type { Action } from "./types.js";

/** Whether an action of a verb carries its `before` / `after` side (the verb's plan-schema fragment). */
export type Side = "required" | "absent";

/**
 * What the planner (and the plan schema) needs of an action verb. Kinds declare their verbs; the names
 * are the stable action names of every output (SPEC §3), and verbs of one name agree across kinds.
 */
export interface PlanVerb {
  /** The action's stable name, e.g. `add_collaborator`. */
  readonly name: string;
  /**
   * Its place among one object's actions (SPEC §3 "Apply order"): 0 create / restore, 1 update, then
   * the kinds' own verbs (collaborator removes 2, adds 3, sharing 4, pause / unpause 5), 6 deletes.
   */
  readonly step: number;
  /**
   * Loses data or access: shown first and guarded. `depends`: each action says (`makeAction`'s
   * `destructive`), e.g. a flag evaluated in the last 30 days.
   */
  readonly destructive: boolean | "depends";
  /** Which sides its actions carry: the plan schema requires or forbids them. */
  readonly sides: { readonly before: Side; readonly after: Side };
  /** Removes the object: after every other action of the plan, counted by the prune guard. */
  readonly deletes?: boolean;
  /** Orders actions of this verb on one object (collaborator actions by user). */
  readonly sortKey?: (action: Action) => string;
  /** Shared by several kinds (create, update, …): the plan schema lists these before the kinds' own. */
  readonly shared?: boolean;
}

/**
 * The verbs of some kinds, one per name, in the order the plan schema lists them: the shared verbs
 * first (as the kinds list them), then each kind's own, kinds by name (SPEC §3's order), so the
 * schema does not change when the registry's output order does. Verbs of one name from several kinds
 * are one verb; when they disagree on destructiveness it is `depends`.
 */
export function planVerbs(
  kinds: readonly { readonly name: string; readonly verbs: readonly PlanVerb[] }[],
): PlanVerb[] {
  const byName = new Map<string, PlanVerb>();
  const add = (verb: PlanVerb) => {
    const known = byName.get(verb.name);
    if (known === undefined) byName.set(verb.name, verb);
    else if (known.destructive !== verb.destructive)
      byName.set(verb.name, { ...known, destructive: "depends" });
  };
  for (const kind of kinds) for (const verb of kind.verbs) if (verb.shared) add(verb);
  const byKindName = [...kinds].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const kind of byKindName) for (const verb of kind.verbs) if (!verb.shared) add(verb);
  return [...byName.values()];
}

/** The verb of an action among `verbs`, by name. */
export function verbNamed(verbs: readonly PlanVerb[], action: Pick<Action, "action">): PlanVerb | undefined {
  return verbs.find((v) => v.name === action.action);
}
