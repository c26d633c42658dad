/**
 * What commands add in GitHub Actions (`GITHUB_ACTIONS=true`): annotation paths relative to the
 * repository root, the markdown plan appended to the job summary, and where a cut comment points.
 */
import { relative, resolve, sep } from "node:path";
import { writeOutput } from "../files.js";
import type { Io } from "../io.js";
import type { Plan } from "../plan/types.js";
import type { AnnotationPath } from "../render/github.js";
import { type RenderKind, renderMarkdown, vocabulary } from "../render/index.js";

export function inGitHubActions(io: Io): boolean {
  return io.env.GITHUB_ACTIONS === "true";
}

/**
 * Annotation paths relative to the repository root (GITHUB_WORKSPACE), where GitHub resolves them,
 * whatever folder the step runs in; as they are when no workspace is known.
 */
export function workspacePath(io: Io): AnnotationPath {
  const root = io.env.GITHUB_WORKSPACE;
  if (!root) return (file) => file;
  return (file) => relative(root, resolve(io.cwd, file)).split(sep).join("/");
}

/** GitHub accepts up to 1 MiB of job summary per step: room for far more of a plan than a comment. */
const STEP_SUMMARY_LIMIT = 1_000_000;

/** In GitHub Actions, the markdown plan also goes to the job summary, which holds much more than a comment. */
export async function appendStepSummary(plan: Plan, kinds: readonly RenderKind[], io: Io): Promise<void> {
  if (!inGitHubActions(io) || !io.env.GITHUB_STEP_SUMMARY) return;
  const markdown = renderMarkdown(plan, {
    vocab: vocabulary(kinds),
    maxLength: STEP_SUMMARY_LIMIT,
    fullPlanHint: "run `posthog-gitops plan` (text format) for the full plan",
  });
  await appendText(markdown, io);
}

/** In GitHub Actions, markdown for the job summary (the plan of several environments). */
export async function appendText(markdown: string, io: Io): Promise<void> {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!inGitHubActions(io) || !file) return;
  await writeOutput(
    io,
    "append the plan to the job summary (GITHUB_STEP_SUMMARY)",
    file,
    file,
    `${markdown}\n`,
    {
      append: true,
    },
  );
}

/**
 * Where a markdown plan cut to fit a comment tells readers to look: in GitHub Actions, the run's job
 * summary (which has room for the rest); elsewhere the renderer's default.
 */
export function fullPlanHint(io: Io): { fullPlanHint?: string } {
  const { GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID } = io.env;
  if (!inGitHubActions(io) || !GITHUB_SERVER_URL || !GITHUB_REPOSITORY || !GITHUB_RUN_ID) return {};
  return {
    fullPlanHint: `the full plan is in the [job summary of this run](${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID})`,
  };
}
