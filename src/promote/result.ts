/**
 * What `promote` found and did (SPEC §9 "Promotion"): the document its three outputs show (text,
 * markdown for a pull request's body, JSON: schemas/promote.schema.json). It never holds a secret's
 * value: the live values it writes went through the run's scrubber check first, and the destination's
 * plan is scrubbed like every plan.
 */
import type { Plan } from "../plan/types.js";
import type { Adopted, LeftOut } from "./adopt.js";
import type { Kept } from "./edits.js";
import type { PreflightWarning } from "./preflight.js";

export const PROMOTE_FORMAT_VERSION = "1";

export interface PromotedEnvironment {
  name: string;
  project: number;
  host?: string;
}

/** One shared file the promotion edits (or creates), as a unified diff of its text. */
export interface PromotedFile {
  path: string;
  created: boolean;
  diff: string;
}

/** One field of a declaration whose live value goes into a shared file. */
export interface PromotedField {
  owner: string;
  field: string;
  file: string;
}

export interface PromoteResult {
  format_version: typeof PROMOTE_FORMAT_VERSION;
  source: PromotedEnvironment;
  destination: PromotedEnvironment;
  /** The edits were written to the files (`--write`); else they are only shown. */
  written: boolean;
  files: PromotedFile[];
  promoted: PromotedField[];
  /** Differences that stay where they are (the source's overlay, its variables, secrets), and why. */
  kept: Kept[];
  adopted: Adopted[];
  left_out: LeftOut[];
  /** Secret variables the adopted objects read (`${NAME}`): set them before applying. */
  variables: string[];
  /** Where the two environments disagree in ways that change what the shared files mean. */
  warnings: PreflightWarning[];
  /** The destination's plan from the edited files, or why it could not be made. */
  plan?: Plan;
  error?: string;
  /** Why `apply` would refuse that plan in the destination (`protect`, `limits`). */
  refusal?: string;
}

/** True when the promotion changes the files. */
export function hasEdits(result: Pick<PromoteResult, "files">): boolean {
  return result.files.length > 0;
}
