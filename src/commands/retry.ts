/**
 * `posthog-gitops retry NAME RUN_ID` and `retry NAME --failed --since T`: start a backfill of each run's
 * interval (the service's run retry). `--failed` picks the failed runs created since T whose interval
 * no later run completed. Asks for confirmation on a terminal; without one, `--auto-approve` is
 * required and nothing is sent without it. Retries are never repeated automatically (each starts a
 * backfill); one failure does not stop the others, and the exit code is 1 if any failed.
 * The runs to retry are listed on stderr; one result line per run on stdout. Runs older than the
 * service's 7-day window are reached by widening it (run-lookup.ts).
 */

import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import {
  allRunsWindow,
  type BatchExportRun,
  checkRunsHint,
  failedRunsToRetry,
  getRun,
  runsApi,
} from "../kinds/batch-export/operations/index.js";
import { dataInterval } from "../render/runs.js";
import { humanTime } from "../render/time.js";
import { collect, ServiceError, UnknownOutcomeError } from "../service/index.js";
import { flat } from "../text.js";
import { parseInstant } from "../time.js";
import { count } from "../words.js";
import { confirmOrCancel } from "./confirm.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { resolveExport } from "./resolve-export.js";

export interface RetryOptions extends ConnectionFlags {
  args?: string[];
  failed?: boolean;
  since?: string;
  autoApprove?: boolean;
  config?: string;
}

/** Bound on the runs read to find failures (30 days of 5-minute runs is 8,640). */
const MAX_RUNS = 20_000;

export async function run(options: RetryOptions, io: Io): Promise<number> {
  return withService(options, io, async (ctx) => {
    const [name, runId] = options.args ?? [];
    if (runId && options.failed) throw new UserError("give either RUN_ID or --failed, not both");
    if (!runId && !options.failed) {
      throw new UserError("say which runs: retry NAME RUN_ID, or retry NAME --failed --since -24h");
    }
    if (options.failed && !options.since) throw new UserError("--failed needs --since (e.g. --since -24h)");
    const since = options.since ? parseInstant(options.since, "--since", ctx.now) : undefined;
    if (!options.autoApprove && !io.confirm) {
      throw new UserError("retry starts backfills: pass --auto-approve to confirm (no terminal to ask on)");
    }
    const { project, export: b } = await resolveExport(ctx, options, name, options.config);
    let targets: BatchExportRun[];
    if (runId) {
      targets = [await getRun(ctx.client, project, b, runId)];
    } else {
      const runs = await collect(runsApi(ctx.client).list(project, b.id, { after: since }), MAX_RUNS);
      const picked = failedRunsToRetry(runs);
      if (picked.alreadyDone.length > 0) {
        ctx.io.stderr.write(
          `${count(picked.alreadyDone.length, "failed run was", "failed runs were")} already exported again by a later run; skipped\n`,
        );
      }
      targets = picked.retry;
    }
    if (targets.length === 0) {
      ctx.io.stdout.write(
        `No failed runs of "${flat(b.name)}" to retry since ${humanTime(since, ctx.now)}.\n`,
      );
      return 0;
    }
    ctx.io.stderr.write(`Runs of "${flat(b.name)}" (project ${project}) to retry:\n`);
    for (const r of targets) ctx.io.stderr.write(`  ${r.id}  ${r.status}  ${dataInterval(r)}\n`);
    if (!options.autoApprove) {
      ctx.progress.stop();
      const question = `Retry ${count(targets.length, "run")} of "${flat(b.name)}"?`;
      const cancelled = await confirmOrCancel(io, question, "Retry", "Nothing was sent.");
      if (cancelled !== undefined) return cancelled;
    }
    let failures = 0;
    for (const r of targets) {
      try {
        const { backfill_id } = await runsApi(ctx.client).retry(project, b.id, r.id, allRunsWindow(b));
        ctx.io.stdout.write(`retried run ${r.id} (${dataInterval(r)}): backfill ${backfill_id}\n`);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        failures++;
        const hint = error instanceof UnknownOutcomeError ? `; ${checkRunsHint(b.name)}` : "";
        ctx.io.stderr.write(`error: run ${r.id}: ${error.message}${hint}\n`);
      }
    }
    ctx.io.stderr.write(`${targets.length - failures} of ${count(targets.length, "run")} retried\n`);
    return failures > 0 ? 1 : 0;
  });
}
