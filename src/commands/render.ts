/**
 * `posthog-gitops render --env E [PATH...] [--format yaml|json]` (SPEC §9): prints what environment E
 * gets once its overlays are laid over the shared files, as one single-project document; planning that
 * document plans what `plan --env E` does. Offline: no key, no network.
 */
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { type DocumentFormat, renderEnvironmentDocument } from "../pull/environment-document.js";
import { readConfig } from "./config.js";
import { configurationError, selectEnvironments } from "./environments.js";

export interface RenderFlags {
  args: string[];
  env?: string[];
  format?: DocumentFormat;
  project?: string;
  quiet?: boolean;
}

export async function run(flags: RenderFlags, io: Io): Promise<number> {
  const wanted = flags.env ?? [];
  if (wanted.length !== 1) throw new UserError("render needs one environment: --env NAME");
  const desired = await readConfig(flags.args, flags, io, "validate");
  if (desired.environments === undefined) {
    throw new UserError("render shows an environment, and the files declare none (an environments: mapping)");
  }
  const [environment] = selectEnvironments(desired, { env: wanted, project: flags.project });
  if (environment === undefined) throw new UserError(`--env ${wanted[0]}: no such environment`);
  const invalid = configurationError(environment);
  if (invalid !== undefined) throw invalid;
  io.stdout.write(
    renderEnvironmentDocument(
      environment.document,
      environment.entry,
      flags.format ?? "yaml",
      desired.environments.declaredIn,
      KINDS,
    ),
  );
  return 0;
}
