/**
 * Runs of a batch export (project scope only): cursor pages of 100, newest first, default window of
 * the last 7 days on `created_at` (`after` / `before`, ISO or relative), or on the data interval with
 * `ordering=data_interval_start` (`start` / `end`); retrieve, retry (a backfill of exactly that run's
 * interval, answered with the backfill workflow's id) and cancel (Running / Starting only).
 *
 * Newest (presentation/views/batch_export/runs.py): the window and the repeatable `status` filter are
 * the viewset's queryset, so they apply to every action: a run created more than 7 days ago is a 404 for
 * retrieve, retry, cancel and logs unless `?after=` widens the window; a bad status is a 400. Retry
 * answers 201. Under the 2025 rules the window bounds the list only, there is no status filter, and
 * retry answers 200.
 */

import { RUN_STATUSES } from "posthog-gitops-shared/posthog";
import { invalid, notFound } from "../errors.js";
import { cursorPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { isNewest } from "../service.js";
import { parseTime } from "../time.js";
import type { BatchExportRecord, RunRecord } from "../types.js";
import { backfillWorkflowId, createBackfill } from "./backfills.js";
import { findExport, isUuid, renderRun, runsOf } from "./batch-export-view.js";

const DAY = 86_400_000;

function bound(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return fallback;
  const ms = parseTime(raw, ctx.now.getTime());
  if (ms === undefined) throw invalid(`Unable to parse '${name}': ${raw}`, name);
  return ms;
}

/** The runs the request's window (and, newest, status filter) lets through, newest first. */
function windowed(ctx: Ctx, b: BatchExportRecord): RunRecord[] {
  const now = ctx.now.getTime();
  const newest = isNewest(ctx.store);
  const statuses = newest ? ctx.query.getAll("status") : [];
  statuses.forEach((status, i) => {
    if (!(RUN_STATUSES as readonly string[]).includes(status)) {
      throw invalid(`"${status}" is not a valid choice.`, `status__${i}`, "invalid_choice");
    }
  });
  const ordering = ctx.query.get("ordering");
  const byInterval = ordering === "data_interval_start" || ordering === "-data_interval_start";
  let runs = runsOf(ctx, b.id);
  if (byInterval) {
    const start = bound(ctx, "start", now - 7 * DAY);
    const end = bound(ctx, "end", now);
    runs = runs.filter(
      (r) =>
        r.data_interval_start !== null &&
        Date.parse(r.data_interval_start) >= start &&
        Date.parse(r.data_interval_end) <= end,
    );
    const sign = ordering === "data_interval_start" ? 1 : -1;
    runs.sort(
      (x, y) => sign * (Date.parse(x.data_interval_start ?? "") - Date.parse(y.data_interval_start ?? "")),
    );
  } else {
    const after = bound(ctx, "after", now - 7 * DAY);
    const before = bound(ctx, "before", now);
    runs = runs.filter((r) => {
      const t = Date.parse(r.created_at);
      return t >= after && t <= before;
    });
    if (ordering === "created_at") runs.reverse();
  }
  if (statuses.length > 0) runs = runs.filter((r) => statuses.includes(r.status));
  return runs;
}

function list(ctx: Ctx) {
  const b = findExport(ctx, ctx.params.id);
  const page = cursorPage(ctx, windowed(ctx, b), renderRun, 100);
  if (!page) throw notFound("Invalid cursor");
  return { status: 200, body: page };
}

/** The run of the route; newest through the same window and filters as the list. */
export function findRun(ctx: Ctx): RunRecord {
  const b = findExport(ctx, ctx.params.id);
  const id = ctx.params.run;
  const pool = isNewest(ctx.store) ? windowed(ctx, b) : ctx.store.data.runs;
  const run = isUuid(id) ? pool.find((r) => r.id === id && r.batch_export === b.id) : undefined;
  if (!run) throw notFound();
  return run;
}

function retry(ctx: Ctx) {
  const run = findRun(ctx);
  const b = findExport(ctx, ctx.params.id);
  const start = run.data_interval_start === null ? null : Date.parse(run.data_interval_start);
  const end = Date.parse(run.data_interval_end);
  createBackfill(ctx, b, start, end);
  return {
    status: isNewest(ctx.store) ? 201 : 200,
    body: { backfill_id: backfillWorkflowId(b.id, start, end) },
  };
}

function cancel(ctx: Ctx) {
  const run = findRun(ctx);
  if (run.status !== "Running" && run.status !== "Starting") {
    throw invalid(`Cannot cancel a run that is in '${run.status}' status`);
  }
  run.status = "Cancelled";
  run.last_updated_at = ctx.now.toISOString();
  return { status: 200, body: { cancelled: true } };
}

export function registerRuns(router: Router): void {
  const base = "/api/projects/:project/batch_exports/:id/runs";
  router.add({ method: "GET", pattern: base, scope: "batch_export:read", handler: list });
  router.add({
    method: "GET",
    pattern: `${base}/:run`,
    scope: "batch_export:read",
    handler: (ctx) => ({ status: 200, body: renderRun(findRun(ctx)) }),
  });
  router.add({ method: "POST", pattern: `${base}/:run/retry`, scope: "batch_export:write", handler: retry });
  router.add({
    method: "POST",
    pattern: `${base}/:run/cancel`,
    scope: "batch_export:write",
    handler: cancel,
  });
}
