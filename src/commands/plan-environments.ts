/**
 * `plan` when the files declare environments (SPEC §9): every environment (or each `--env`), and the
 * single-project files of each project that is no environment's (or the one `--project` names), read
 * in parallel, each with its own key, host and rate budget; one section each; the exit code is the
 * worst of them. A section that cannot be planned (its key unset, its host unreachable, a variable it
 * lacks, an error in its files) is an error for it, and the others still plan. With `--out`, each plan
 * is saved bound to its environment or project (nothing is saved when one could not be planned).
 */
import { resolve } from "node:path";
import { savedPlansText } from "../apply/saved-plan.js";
import type { LoadResult } from "../config/index.js";
import type { EnvironmentConfig } from "../config/load-types.js";
import { labelEnvironmentDrift } from "../drift/environments.js";
import { isUserError } from "../errors.js";
import { writeOutput } from "../files.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import type { Plan } from "../plan/types.js";
import { type EnvironmentFacts, preflightWarnings } from "../promote/preflight.js";
import type { MadePlan } from "../read/make-plan.js";
import { withPeople } from "../read/people.js";
import {
  type EnvironmentSection,
  renderEnvironmentsJson,
  renderEnvironmentsMarkdown,
  renderEnvironmentsText,
  sectionsPhrase,
} from "../render/environments.js";
import { colorEnabled, type PlanFormat, planAnnotations, vocabulary } from "../render/index.js";
import { scrubValue } from "../scrub.js";
import { flat } from "../text.js";
import { VERSION } from "../version.js";
import { planSecretsNote } from "./config.js";
import { environmentNeeds, type FactsWanted, readFacts, wantedBy } from "./environment-facts.js";
import type { EnvironmentFlags } from "./environments.js";
import { appendText, fullPlanHint, inGitHubActions, workspacePath } from "./github.js";
import { progressFor } from "./progress.js";
import { failIfUnsafe, savedOptions } from "./reconcile.js";
import { withModified } from "./review.js";
import { planChosen, type ScopeFlags } from "./scope.js";
import { chooseEnvironmentBases, type EnvironmentBase } from "./scope-environments.js";
import {
  decorator,
  selectTargets,
  type Target,
  targetConfig,
  targetConfigurationError,
  targetConnection,
  targetLabel,
  targetName,
  targetRefusal,
  targetSection,
} from "./targets.js";

export interface PlanEnvironmentsFlags extends ScopeFlags, EnvironmentFlags {
  format?: PlanFormat;
  out?: string;
  detailedExitcode?: boolean;
}

/** One section planned (an environment, or a project's single-project files): what it shows, and what its saved plan keeps. */
export interface PlannedEnvironment {
  target: Target;
  section: EnvironmentSection;
  made?: MadePlan & { planned?: string[] };
  /** What its project has that shared declarations may need (SPEC §9's warnings), when asked for. */
  facts?: EnvironmentFacts;
}

export async function planEnvironments(
  flags: PlanEnvironmentsFlags,
  io: Io,
  desired: LoadResult,
): Promise<number> {
  const selected = selectTargets(desired, flags);
  const bases = await chooseEnvironmentBases(flags, desired, selected, io, "plan");
  const progress = progressFor(io, { quiet: flags.quiet === true });
  const log = (line: string) => progress.io.stderr.write(`${line}\n`);
  progress.step(`reading live state of ${sectionsPhrase(selected.map(targetSection))}`);
  const wanted = factsWanted(selected.flatMap((t) => (t.environment ? [t.environment] : [])));
  let planned: PlannedEnvironment[];
  try {
    planned = await Promise.all(
      selected.map((target) =>
        planTarget(
          target,
          flags,
          bases.get(targetName(target)) ?? {},
          progress.io,
          log,
          progress,
          target.environment && wanted.get(target.environment.name),
        ),
      ),
    );
  } finally {
    progress.stop();
  }
  warnWhereEnvironmentsDisagree(planned);
  for (const p of planned) {
    if (p.section.error !== undefined)
      io.stderr.write(`error: ${targetLabel(p.target)}: ${p.section.error}\n`);
  }
  const sections = planned.map((p) => scrubValue(io, p.section));
  const format = flags.format ?? "text";
  const vocab = vocabulary(KINDS);
  io.stdout.write(
    format === "json"
      ? renderEnvironmentsJson(sections)
      : format === "markdown"
        ? renderEnvironmentsMarkdown(sections, { vocab, ...fullPlanHint(io) })
        : renderEnvironmentsText(sections, {
            vocab,
            color: colorEnabled(io.env, io.stdout.isTTY === true),
          }),
  );
  if (inGitHubActions(io)) {
    for (const s of sections) if (s.plan) io.stderr.write(planAnnotations(s.plan, vocab, workspacePath(io)));
    await appendText(
      renderEnvironmentsMarkdown(sections, {
        vocab,
        maxLength: 1_000_000,
        fullPlanHint: "run `posthog-gitops plan` (text format) for the full plan",
      }),
      io,
    );
  }
  const failed = planned.some((p) => p.section.error !== undefined);
  if (flags.out !== undefined && !failed) await savePlans(planned, flags, io);
  if (flags.out !== undefined && failed)
    io.stderr.write("Saved no plan: an environment could not be planned.\n");
  if (failed) return 1;
  const changes = planned.some((p) => (p.section.plan?.actions.length ?? 0) > 0);
  return flags.detailedExitcode && changes ? 2 : 0;
}

/** One environment's plan, or the error that stopped it (what promote plans DST with). */
export function planEnvironment(
  environment: EnvironmentConfig,
  ...rest: DropFirst<Parameters<typeof planTarget>>
): Promise<PlannedEnvironment> {
  return planTarget({ environment }, ...rest);
}

type DropFirst<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

/** One section's plan, or the error that stopped it (a UserError; anything else is a bug). */
export async function planTarget(
  target: Target,
  flags: PlanEnvironmentsFlags,
  base: EnvironmentBase,
  io: Io,
  log: (line: string) => void,
  progress: ReturnType<typeof progressFor>,
  /** What to read of the project besides, for SPEC §9's warnings (undefined: nothing, no facts). */
  wanted?: FactsWanted,
): Promise<PlannedEnvironment> {
  const name = targetName(target);
  const config = targetConfig(target);
  const section = targetSection(target);
  const failed = (error: unknown): PlannedEnvironment => {
    if (!isUserError(error)) throw error;
    return { target, section: { ...section, error: flat(error.message) } };
  };
  const invalid = targetConfigurationError(target);
  if (invalid !== undefined) return failed(invalid);
  let connection: ReturnType<typeof targetConnection>;
  try {
    connection = targetConnection(target, flags, io, log, progress);
  } catch (error) {
    return failed(error);
  }
  section.host = connection.host;
  // Errors at a line of a standalone project's own files need no name; an environment's do.
  const where = target.environment?.name;
  try {
    const made = await planChosen(connection.client, config, flags, base, io, where);
    let plan: Plan = decorator(target)(
      await withPeople(withModified(made.plan, made.live), made.live, made.members, KINDS),
    );
    planSecretsNote(config, plan, flags, io);
    if (flags.base !== undefined)
      plan = labelEnvironmentDrift(plan, flags.base, base.change, config, made.live);
    failIfUnsafe(made, flags);
    const refusal = targetRefusal(target, plan, { force: flags.force === true });
    const read =
      wanted === undefined
        ? undefined
        : await readFacts(connection.client, section.project, made.live, wanted);
    for (const note of read?.notes ?? []) log(`note: ${targetLabel(target)}: ${note}`);
    return {
      target,
      section: { ...section, plan, ...(refusal !== undefined ? { refusal } : {}) },
      made: { ...made, plan },
      ...(read !== undefined ? { facts: read.facts } : {}),
    };
  } catch (error) {
    return failed(error);
  } finally {
    if (flags.verbose) io.stderr.write(`${name}: ${connection.client.describeStats()}\n`);
    await connection.client.close();
  }
}

/**
 * Which facts each environment reads for SPEC §9's warnings in a plan of several environments: the
 * static cohorts its read holds anyway, and its group types when its shared declarations, or those of
 * an environment promoted from it, aggregate by a group type index (one GET, only then). What an
 * environment lacks (an integration, a member) its own plan reports as an error already.
 */
function factsWanted(selected: readonly EnvironmentConfig[]): Map<string, FactsWanted> {
  const out = new Map<string, FactsWanted>();
  if (selected.length < 2) return out;
  const needsGroups = new Set(
    selected.filter((e) => wantedBy(environmentNeeds(e)).groupTypes).map((e) => e.name),
  );
  for (const environment of selected) {
    const fed = selected.some((e) => e.entry.promoteFrom === environment.name && needsGroups.has(e.name));
    out.set(environment.name, {
      groupTypes: needsGroups.has(environment.name) || fed,
      integrations: false,
      members: false,
    });
  }
  return out;
}

/**
 * Each planned environment promoted from another planned one gets the warnings of SPEC §9 that apply
 * to a plan: a group type index its shared declarations aggregate by that names another group type in
 * the environment it is promoted from, and static cohorts they target.
 */
function warnWhereEnvironmentsDisagree(planned: PlannedEnvironment[]): void {
  const environments = planned.flatMap((p) =>
    p.target.environment ? [{ ...p, environment: p.target.environment }] : [],
  );
  const byName = new Map(environments.map((p) => [p.environment.name, p]));
  for (const to of environments) {
    const from = byName.get(to.environment.entry.promoteFrom ?? "");
    if (from?.facts === undefined || to.facts === undefined) continue;
    const warnings = preflightWarnings(
      environmentNeeds(to.environment),
      { name: from.environment.name, facts: from.facts },
      { name: to.environment.name, facts: to.facts },
      new Set(["group_type", "static_cohort"]),
    );
    if (warnings.length > 0) to.section.warnings = warnings.map((w) => w.message);
  }
}

/**
 * `--out`: each section's plan, bound to it (its host, project and files), in one file; an
 * environment's names it, a standalone project's is bound by its project.
 */
async function savePlans(
  planned: readonly PlannedEnvironment[],
  flags: PlanEnvironmentsFlags,
  io: Io,
): Promise<void> {
  const out = flags.out as string;
  const saved = planned.map(({ target, section, made }) => ({
    tool_version: VERSION,
    ...(target.environment ? { environment: target.environment.name } : {}),
    host: section.host as string,
    options: { ...savedOptions(flags), ...(made?.planned !== undefined ? { scope: made.planned } : {}) },
    config: {
      paths: flags.args.length > 0 ? [...flags.args] : ["posthog"],
      digests: targetConfig(target).digests,
    },
    plan: scrubValue(io, section.plan as Plan),
    reads: made?.reads ?? [],
  }));
  const file = resolve(io.cwd, out);
  await writeOutput(io, "write the plan to", out, file, savedPlansText(saved), {
    mode: 0o600,
    scrubbed: true,
  });
  io.stderr.write(`Saved the plan to ${out}; apply it with: posthog-gitops apply --plan ${out}\n`);
}
