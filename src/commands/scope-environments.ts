/**
 * `--base REF` and `--changed-only` with environments (SPEC §9): the change is told per environment,
 * from each one's merged declarations at REF (src/drift/environments.ts), so a shared file's change
 * is planned in every environment it serves and an overlay's in its own; an environment whose entry
 * changed is read whole, saying why. The single-project files beside them are told per project the
 * same way. The same change labels drift in each section's plan.
 */

import type { LoadResult } from "../config/index.js";
import type { ChangeStatus } from "../drift/changes.js";
import { type EnvironmentChange, environmentChanges } from "../drift/environments.js";
import { resolveBase, systemGit } from "../drift/index.js";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { KINDS } from "../kinds/index.js";
import { type BaseChoice, baseUnknownForApply, type ScopeFlags, type ScopeMode } from "./scope.js";
import { type Target, targetConfig, targetLabel, targetName } from "./targets.js";

export interface EnvironmentBase extends BaseChoice {
  /** The environment's change since `--base`, for its drift labels. */
  change?: EnvironmentChange;
}

export async function chooseEnvironmentBases(
  flags: ScopeFlags,
  desired: LoadResult,
  selected: readonly Target[],
  io: Io,
  mode: ScopeMode,
): Promise<Map<string, EnvironmentBase>> {
  const each = (choice: (t: Target) => EnvironmentBase) =>
    new Map(selected.map((t) => [targetName(t), choice(t)]));
  if (flags.base === undefined) {
    if (flags.changedOnly) {
      throw new UserError("--changed-only needs --base REF: the revision the change is measured from");
    }
    return each(() => ({}));
  }
  const base = flags.base;
  const git = systemGit(io.cwd, io.env);
  const declarations = (t: Target) =>
    targetConfig(t).projects.reduce(
      (n, p) => n + Object.values(p.objects).reduce((m, l) => m + l.length, 0),
      0,
    );
  const full = (e: Target, reason: string, commit?: string): EnvironmentBase => ({
    ...(commit !== undefined ? { commit } : {}),
    scope: { base, declarations: declarations(e), full: reason },
  });
  let commit: string;
  try {
    commit = await resolveBase(git, base, io.cwd);
  } catch (error) {
    if (!(error instanceof UserError) || !flags.changedOnly) throw error;
    if (mode === "plan") return each((e) => full(e, error.message));
    throw baseUnknownForApply(error);
  }
  const changes = await environmentChanges({
    kinds: KINDS,
    base,
    commit,
    git,
    cwd: io.cwd,
    paths: flags.args,
    desired,
    load: { env: io.env },
  });
  return each((e) => {
    const change = changes.get(targetName(e));
    if (!flags.changedOnly) return { commit, ...(change ? { change } : {}) };
    if (flags.prune) {
      return full(e, "--prune reads every live object, to find those no file declares", commit);
    }
    if (change === undefined || "full" in change) {
      const reason = change?.full ?? `${targetLabel(e)} cannot be compared with ${base}`;
      if (mode === "plan") return { ...full(e, reason, commit), ...(change ? { change } : {}) };
      // apply writes only what changed: here that is every declaration of the environment, never a prune.
      const changed = new Map<import("../config/types.js").Declared, ChangeStatus>();
      for (const p of targetConfig(e).projects)
        for (const l of Object.values(p.objects)) for (const d of l) changed.set(d, "modified");
      return { commit, scope: { base, declarations: declarations(e), changed, removed: [], unsure: reason } };
    }
    return { commit, change, scope: { base, declarations: declarations(e), ...change } };
  });
}
