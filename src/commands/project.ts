/**
 * The one project precedence every command follows (SPEC §4): a file's `project:` governs that file;
 * `--project`, else POSTHOG_PROJECT_ID, fills in for files that name none; an explicit `--project` that
 * differs from a file's `project:` is an error naming both (see config.ts).
 */
import { UserError } from "../errors.js";
import type { Io } from "../io.js";

/** A positive integer project id, or undefined; anything else is a UserError naming its origin. */
export function parseProjectId(value: string | number | undefined, origin: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const text = String(value).trim();
  if (!/^[1-9]\d{0,15}$/.test(text))
    throw new UserError(`${origin} must be a project id (a positive integer), got "${text}"`);
  return Number(text);
}

/** The project for files (and commands) that name none, and where it came from. */
export interface ProjectChoice {
  project: number | undefined;
  /** `--project` when given on the command line; undefined when it came from the environment or nowhere. */
  from: "--project" | undefined;
}

export function projectChoice(flags: { project?: string | undefined }, io: Io): ProjectChoice {
  if (flags.project !== undefined)
    return { project: parseProjectId(flags.project, "--project"), from: "--project" };
  return { project: parseProjectId(io.env.POSTHOG_PROJECT_ID, "POSTHOG_PROJECT_ID"), from: undefined };
}
