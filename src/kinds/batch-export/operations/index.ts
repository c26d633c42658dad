/**
 * Batch export operations, as the commands use them (`status`, `runs`, `retry`, `backfill`, `logs`):
 * live exports by id, name, project or organization (exports.ts), status rows, the documents' run
 * items and the failed runs to retry (runs.ts), single runs and log entries however old
 * (run-lookup.ts), the runs and backfills endpoints (service.ts) and the answers' types (answers.ts),
 * backfill windows checked before anything is sent (backfill-window.ts), and the commands printed for
 * the user to copy (backfill-command.ts). The reconcile handler (../index.ts) and the service-version
 * rules (../service-rules/) are not part of it; commands import only this.
 */
import type { Declared, DesiredProject } from "../../../config/types.js";
import { declaredOf } from "../../../config/types.js";
import { BATCH_EXPORT } from "../name.js";

export { RUN_STATUSES, type RunStatus } from "posthog-gitops-shared/posthog";
export type { BatchExport } from "../answers.js";
/** The kind's name, for the commands that read its declarations alone. */
export { BATCH_EXPORT as BATCH_EXPORT_KIND, EXPORT_WORDS } from "../name.js";
export type { BatchExportRun, LogLevel } from "./answers.js";

export { backfillCommand, checkRunsHint, gapBackfillCommand, quoteArg } from "./backfill-command.js";
export {
  type BackfillWindow,
  checkWindowForInterval,
  checkWindowSyntax,
  type ParsedWindow,
} from "./backfill-window.js";
export { liveExport, organizationExports, projectExports } from "./exports.js";
export { type Overlap, recentOverlaps } from "./overlaps.js";
export { allRunsWindow, getRun, LOG_PAGE, type LogFilters, type LogRead, readLogs } from "./run-lookup.js";
export { exportRef, failedRunsToRetry, type RetryTargets, runItem, statusRows } from "./runs.js";
export { OPERATION_SCOPES } from "./scopes.js";
export { backfillsApi, runsApi } from "./service.js";

/** The batch exports a project's files declare: each one's name and its `id` pin (a UUID), if any. */
export function declaredExports(project: DesiredProject): Array<Declared & { id?: string }> {
  return declaredOf(project, BATCH_EXPORT);
}
