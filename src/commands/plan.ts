/**
 * `posthog-gitops plan [PATH...]`: reads live state (GET requests only) and prints what apply would
 * change. Exit 0, or with --detailed-exitcode 0 (no changes) / 2 (changes); 1 on any error or refused plan.
 */
import { resolve } from "node:path";
import { savedPlanText } from "../apply/saved-plan.js";
import { writeOutput } from "../files.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { colorEnabled, type PlanFormat, planAnnotations, renderPlan, vocabulary } from "../render/index.js";
import { scrubValue } from "../scrub.js";
import { VERSION } from "../version.js";
import { readConfig } from "./config.js";
import { withConnection } from "./connect.js";
import { type EnvironmentFlags, selectEnvironments } from "./environments.js";
import { appendStepSummary, fullPlanHint, inGitHubActions, workspacePath } from "./github.js";
import { failIfUnsafe, savedOptions } from "./reconcile.js";
import { reviewPlan, warnIfPartial } from "./review.js";
import { chooseBase, planChosen, type ScopeFlags } from "./scope.js";

export interface PlanFlags extends ScopeFlags, EnvironmentFlags {
  format?: PlanFormat;
  out?: string;
  detailedExitcode?: boolean;
}

export async function run(flags: PlanFlags, io: Io): Promise<number> {
  const desired = await readConfig(flags.args, flags, io, "plan", "plan");
  if (desired.environments !== undefined) {
    const { planEnvironments } = await import("./plan-environments.js");
    return planEnvironments(flags, io, desired);
  }
  selectEnvironments(desired, flags);
  const choice = await chooseBase(flags, desired, io, "plan");
  const { made, host } = await withConnection(flags, io, async ({ client, host, progress, io: out }) => {
    progress.step("reading live state");
    const made = await planChosen(client, desired, flags, choice, out);
    return { made: { ...made, plan: await reviewPlan(made, flags, choice.commit, out) }, host };
  });
  const { plan } = made;
  warnIfPartial(plan, io.stderr);
  // Renderers escape and cut what they show: they get it scrubbed (scrub.ts), and so does the saved plan.
  const shown = scrubValue(io, plan);
  const format = flags.format ?? "text";
  io.stdout.write(
    renderPlan(shown, format, {
      kinds: KINDS,
      color: format === "text" && colorEnabled(io.env, io.stdout.isTTY === true),
      ...fullPlanHint(io),
    }),
  );
  if (inGitHubActions(io)) io.stderr.write(planAnnotations(shown, vocabulary(KINDS), workspacePath(io)));
  await appendStepSummary(shown, KINDS, io);
  failIfUnsafe(made, flags);
  if (flags.out) {
    // Relative to the command's working folder (io.cwd), like the configuration paths.
    const saved = {
      tool_version: VERSION,
      host,
      options: { ...savedOptions(flags), ...(made.planned !== undefined ? { scope: made.planned } : {}) },
      config: { paths: flags.args.length > 0 ? [...flags.args] : ["posthog"], digests: desired.digests },
      // Only the plan holds text from the service or the files: scrubbed. The rest is read back as is.
      plan: shown,
      reads: made.reads,
    };
    const file = resolve(io.cwd, flags.out);
    await writeOutput(io, "write the plan to", flags.out, file, savedPlanText(saved), {
      mode: 0o600,
      scrubbed: true,
    });
    io.stderr.write(
      `Saved the plan to ${flags.out}; apply it with: posthog-gitops apply --plan ${flags.out}\n`,
    );
  }
  return flags.detailedExitcode && plan.actions.length > 0 ? 2 : 0;
}
