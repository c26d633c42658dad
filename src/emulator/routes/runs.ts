/**
 * Runs of a batch export (project scope only): cursor pages of 100, newest first, default window of
 * the last 7 days on `created_at` (`after` / `before`, ISO or relative), repeatable `status` filter;
 * retrieve, retry (a backfill of exactly that run's interval) and cancel (Running / Starting only).
 */
import { invalid, notFound } from "../errors.js";
import { cursorPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { parseTime } from "../time.js";
import type { RunRecord } from "../types.js";
import { createBackfill } from "./backfills.js";
import { findExport, isUuid, renderRun, runsOf } from "./batch-export-view.js";

function bound(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return fallback;
  const ms = parseTime(raw, ctx.now.getTime());
  if (ms === undefined) throw invalid(`Unable to parse '${name}': ${raw}`, name);
  return ms;
}

function list(ctx: Ctx) {
  const b = findExport(ctx, ctx.params.id);
  const now = ctx.now.getTime();
  const ordering = ctx.query.get("ordering");
  const byInterval = ordering === "data_interval_start" || ordering === "-data_interval_start";
  const statuses = ctx.query
    .getAll("status")
    .flatMap((s) => s.split(","))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  let runs = runsOf(ctx, b.id);
  if (byInterval) {
    const start = bound(ctx, "start", now - 7 * 86_400_000);
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
    const after = bound(ctx, "after", now - 7 * 86_400_000);
    const before = bound(ctx, "before", now);
    runs = runs.filter((r) => {
      const t = Date.parse(r.created_at);
      return t >= after && t <= before;
    });
    if (ordering === "created_at") runs.reverse();
  }
  if (statuses.length > 0) runs = runs.filter((r) => statuses.includes(r.status.toLowerCase()));
  const page = cursorPage(ctx, runs, renderRun, 100);
  if (!page) throw notFound("Invalid cursor");
  return { status: 200, body: page };
}

export function findRun(ctx: Ctx): RunRecord {
  const b = findExport(ctx, ctx.params.id);
  const id = ctx.params.run;
  const run = isUuid(id)
    ? ctx.store.data.runs.find((r) => r.id === id && r.batch_export === b.id)
    : undefined;
  if (!run) throw notFound();
  return run;
}

function retry(ctx: Ctx) {
  const run = findRun(ctx);
  const b = findExport(ctx, ctx.params.id);
  const start = run.data_interval_start === null ? null : Date.parse(run.data_interval_start);
  const backfillId = createBackfill(ctx, b, start, Date.parse(run.data_interval_end));
  return { status: 201, body: { backfill_id: backfillId } };
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
