/**
 * What the action does, in the order the composite action did it: validate; or plan (markdown to a
 * file, the plan saved with --out, --detailed-exitcode), the outputs, the markdown in the log with
 * workflow commands stopped, then for apply exactly the saved plan when it has changes (with
 * changed-only, never a plan that could not be scoped to the change: it would revert live edits); and
 * last the sticky comment, also after a failed plan or apply. Or promote (SPEC §9): the source's live
 * edits written into the shared files, the markdown (a pull request's body: the diff and the next
 * environment's plan) and the result saved, for the next step to open the pull request. Returns the
 * step's exit code.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Cli } from "./cli-runner.js";
import type { ActionInputs } from "./inputs.js";

export type OutputName = "has-changes" | "destructive" | "plan-file" | "markdown-file";

/** What the action tells the runner (the entry point wires it to @actions/core). */
export interface Reporter {
  info(text: string): void;
  /** An error annotation titled posthog-gitops. */
  error(text: string): void;
  setOutput(name: OutputName, value: string): void;
  startGroup(name: string): void;
  endGroup(): void;
}

export interface ActionContext {
  inputs: ActionInputs;
  cli: Cli;
  /** A new folder (under RUNNER_TEMP) for the saved plan and its markdown. */
  outDir: string;
  /** This run's page, where a failed plan's comment points. */
  runUrl: string;
  report: Reporter;
  /** Keeps the sticky comment; absent when none is wanted (not asked for, or not a pull request). */
  comment?: (markdown: string) => Promise<void>;
}

export async function runAction(ctx: ActionContext): Promise<number> {
  const { inputs, cli, report } = ctx;
  const paths = ["--", ...inputs.paths];
  if (inputs.command === "validate") {
    const { code } = await cli.run(["validate", ...paths]);
    if (code === 0) {
      for (const [name, value] of Object.entries(NO_PLAN)) report.setOutput(name as OutputName, value);
    }
    return code;
  }

  if (inputs.command === "promote") return promote(ctx);

  const planFile = join(ctx.outDir, "plan.json");
  const markdownFile = join(ctx.outDir, "plan.md");
  // The CLI prints the annotations (stderr) and appends the markdown plan to the job summary itself.
  const plan = await cli.run(
    [
      "plan",
      "--format",
      "markdown",
      "--out",
      planFile,
      "--detailed-exitcode",
      ...(inputs.prune ? ["--prune"] : []),
      ...(inputs.undeclared && !inputs.prune ? ["--undeclared"] : []),
      ...(inputs.base !== "" ? [`--base=${inputs.base}`] : []),
      // The saved plan keeps its scope: the apply below writes only the change too.
      ...(inputs.changedOnly ? ["--changed-only"] : []),
      // The saved plan names its environments: the apply below applies them, in promote_from order.
      ...inputs.environments.filter((name) => name !== "all").flatMap((name) => ["--env", name]),
      ...paths,
    ],
    { captureStdout: true },
  );
  if (plan.code !== 0 && plan.code !== 2) {
    // Replace a stale comment rather than leave it: say the plan failed and where to look.
    const note = failedPlanMarkdown(plan.code, ctx.runUrl);
    writeFileSync(markdownFile, note, { flag: "wx" });
    report.setOutput("plan-file", "");
    report.setOutput("markdown-file", markdownFile);
    return keepComment(ctx, note, plan.code);
  }

  writeFileSync(markdownFile, plan.stdout, { flag: "wx" });
  const summary = planSummary(planFile);
  // Objects no file declares (`undeclared`) are something to act on too: the drift workflow opens its
  // issue for them.
  const hasChanges = summary.total + summary.undeclared > 0;
  report.setOutput("has-changes", String(hasChanges));
  report.setOutput("destructive", String(summary.destructive));
  report.setOutput("plan-file", planFile);
  report.setOutput("markdown-file", markdownFile);
  report.info(`has-changes=${hasChanges} destructive=${summary.destructive}`);
  showMarkdown(report, plan.stdout);

  let code = 0;
  if (inputs.command === "apply") {
    if (inputs.changedOnly && !inputs.prune && summary.scope?.read === "full") {
      // The change could not be told from base (the plan says why): applying the full plan would
      // revert every edit made in PostHog, which changed-only is there to prevent.
      report.error(
        `changed-only: the plan is not change-scoped (${summary.scope.reason ?? "no reason given"}); nothing was applied. Apply everything on purpose by running without changed-only.`,
      );
      return keepComment(ctx, plan.stdout, 1);
    }
    if (plan.code === 2) {
      // Exactly the plan shown above; refused if any object it touches changed since.
      code = (await cli.run(["apply", "--auto-approve", "--plan", planFile])).code;
    } else {
      report.info("No changes: nothing to apply.");
    }
  }
  return keepComment(ctx, plan.stdout, code);
}

/**
 * `promote SRC [DST] --write`: the files are edited in the workspace (the job commits them), the
 * markdown is the pull request's body, the JSON result (schemas/promote.schema.json) is `plan-file`.
 */
async function promote(ctx: ActionContext): Promise<number> {
  const { inputs, cli, report } = ctx;
  const resultFile = join(ctx.outDir, "promote.json");
  const markdownFile = join(ctx.outDir, "promote.md");
  const run = await cli.run(
    [
      "promote",
      "--write",
      "--format",
      "markdown",
      "--out",
      resultFile,
      "--detailed-exitcode",
      "--",
      inputs.promoteFrom,
      ...inputs.environments,
      ...inputs.paths,
    ],
    { captureStdout: true },
  );
  if (run.code !== 0 && run.code !== 2) {
    for (const [name, value] of Object.entries(NO_PLAN)) report.setOutput(name as OutputName, value);
    return run.code;
  }
  writeFileSync(markdownFile, run.stdout, { flag: "wx" });
  const result = JSON.parse(readFileSync(resultFile, "utf8")) as {
    files?: unknown[];
    plan?: { summary?: { destructive?: boolean } };
  };
  const hasChanges = (result.files?.length ?? 0) > 0;
  const destructive = result.plan?.summary?.destructive === true;
  report.setOutput("has-changes", String(hasChanges));
  report.setOutput("destructive", String(destructive));
  report.setOutput("plan-file", resultFile);
  report.setOutput("markdown-file", markdownFile);
  report.info(`has-changes=${hasChanges} destructive=${destructive}`);
  showMarkdown(report, run.stdout);
  return 0;
}

const NO_PLAN: Record<OutputName, string> = {
  "has-changes": "false",
  destructive: "false",
  "plan-file": "",
  "markdown-file": "",
};

export function failedPlanMarkdown(code: number, runUrl: string): string {
  return `### posthog-gitops plan failed\n\nThe plan could not be made (exit ${code}): see the [job log](${runUrl}).\n`;
}

type SavedSummary = {
  plan?: {
    summary?: Record<string, unknown>;
    scope?: { read?: string; reason?: string };
    undeclared?: unknown[];
  };
};

/**
 * The saved plan's summary and scope (`.plan.summary`, `.plan.scope`, schemas/plan.schema.json); for
 * the plans of several environments (`.environments[]`), their totals added up, destructive when one
 * is, and the first scope that is not change-scoped.
 */
function planSummary(file: string): {
  total: number;
  undeclared: number;
  destructive: boolean;
  scope?: { read?: string; reason?: string };
} {
  const data = JSON.parse(readFileSync(file, "utf8")) as SavedSummary & { environments?: SavedSummary[] };
  const plans = Array.isArray(data.environments) ? data.environments : [data];
  let total = 0;
  let undeclared = 0;
  let destructive = false;
  let scope: { read?: string; reason?: string } | undefined;
  for (const saved of plans) {
    const summary = saved.plan?.summary;
    if (typeof summary?.total !== "number") throw new Error(`the saved plan ${file} has no summary`);
    total += summary.total;
    undeclared += Array.isArray(saved.plan?.undeclared) ? saved.plan.undeclared.length : 0;
    destructive ||= summary.destructive === true;
    const own = saved.plan?.scope;
    if (own !== undefined && (scope === undefined || (scope.read !== "full" && own.read === "full")))
      scope = own;
  }
  return { total, undeclared, destructive, ...(scope ? { scope } : {}) };
}

/** The markdown in the log, with workflow commands off: object names must not act as commands. */
function showMarkdown(report: Reporter, markdown: string): void {
  const token = `posthog-gitops-${randomUUID()}`;
  report.startGroup("Plan (markdown)");
  report.info(`::stop-commands::${token}`);
  report.info(markdown.replace(/\n$/, ""));
  report.info(`::${token}::`);
  report.endGroup();
}

/** Runs the comment, if any; a comment that fails fails the step, but never hides an earlier failure. */
async function keepComment(ctx: ActionContext, markdown: string, code: number): Promise<number> {
  if (!ctx.comment) return code;
  try {
    await ctx.comment(markdown);
    return code;
  } catch (error) {
    ctx.report.error(`could not keep the pull-request comment: ${(error as Error).message}`);
    return code === 0 ? 1 : code;
  }
}
