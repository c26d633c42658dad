/**
 * What `plan` and `apply` add to a plan for its reviewer, after it is made: the people it names
 * (collaborators as `name <email>`, read-stage data first, one members list per organization only for
 * users still unknown), when and by whom the service last modified each object it changes (where the
 * service says), and with `--base REF` the drift labels (src/drift). Also the warning Terraform
 * prints for a targeted plan: it is partial.
 */

import { labelDrift, systemGit } from "../drift/index.js";
import type { Io, Output } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { lastModified } from "../plan/modified.js";
import type { Plan } from "../plan/types.js";
import type { MadePlan } from "../read/make-plan.js";
import { withPeople } from "../read/people.js";

export interface ReviewFlags {
  args: string[];
  /** `--base REF`: label drift against this git revision. */
  base?: string;
}

/** The plan with its people and, with `--base`, its drift labels. */
export async function reviewPlan(
  made: MadePlan,
  flags: ReviewFlags,
  commit: string | undefined,
  io: Io,
): Promise<Plan> {
  let plan = await withPeople(withModified(made.plan, made.live), made.live, made.members, KINDS);
  if (flags.base !== undefined && commit !== undefined) {
    plan = await labelDrift(plan, {
      kinds: KINDS,
      base: flags.base,
      commit,
      git: systemGit(io.cwd, io.env),
      cwd: io.cwd,
      paths: flags.args,
      live: made.live,
    });
  }
  return plan;
}

/** Who and when, for every object the plan changes that the service says it of (drift labels too). */
export function withModified(plan: Plan, live: MadePlan["live"]): Plan {
  const actions = plan.actions.map((action) => {
    const modified = action.object.id === undefined ? undefined : lastModified(action, live);
    return modified === undefined ? action : { ...action, modified };
  });
  return { ...plan, actions };
}

/**
 * Terraform's warning for a targeted plan: other objects' changes are not shown. `plan` writes it to
 * stderr (its stdout may be JSON or markdown for a machine); `apply` to stdout, with the plan it shows.
 */
export function warnIfPartial(plan: Plan, stream: Output): void {
  if (plan.targets === undefined || plan.targets.length === 0) return;
  const targets = plan.targets.map((t) => `--target ${t}`).join(", ");
  stream.write(
    `Warning: this plan is partial: ${targets} narrowed it, so changes to other objects are not shown (and not applied). Use --target for exceptions, not as the routine way to apply.\n`,
  );
}
