/**
 * Backfills: `POST .../backfills/` (201) and the deprecated `POST .../backfill/` validate the window
 * with the service's messages, then record a backfill and the runs it implies, one per interval.
 * The emulator completes runs at once (no worker), so a backfill is `Completed` when created.
 * Also `GET .../backfills/` (cursor pages of 50), retrieve and cancel.
 */
import { randomUUID } from "node:crypto";
import { invalid, notFound } from "../errors.js";
import { asBody } from "../fields.js";
import { cursorPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { INTERVAL_MS } from "../time.js";
import type { BackfillRecord, BatchExportRecord, RunRecord } from "../types.js";
import { findExport, isUuid, renderBackfill } from "./batch-export-view.js";

/** Upper bound on runs created by one backfill, to keep the emulator's memory bounded. */
const MAX_RUNS = 10_000;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A backfill bound as the newest service reads it: daily and weekly exports take a date only (their
 * schedule fixes the time of day), other intervals an ISO datetime with a timezone (Python's
 * `fromisoformat` acceptance, roughly).
 */
function parseInput(value: unknown, interval: string): number {
  const text = typeof value === "string" ? value.trim() : String(value);
  if (interval === "day" || interval === "week") {
    if (typeof value === "string" && DATE_ONLY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
      return Date.parse(`${text}T00:00:00Z`);
    }
    if (typeof value === "string" && DATE_TIME.test(text)) {
      throw invalid(
        `Input '${text}' is not a valid ISO formatted date. Daily or weekly batch export backfills expect only the date component, but a time was included.`,
      );
    }
    throw invalid(`Input '${String(value)}' is not a valid ISO formatted date.`);
  }
  const m = DATE_TIME.exec(text);
  const ms = m
    ? Date.parse((m[1] ? text : `${text}${text.length === 10 ? "T00:00:00" : ""}Z`).replace(" ", "T"))
    : Number.NaN;
  if (typeof value !== "string" || Number.isNaN(ms)) {
    throw invalid(`Input ${String(value)} is not a valid ISO formatted datetime.`);
  }
  if (!m?.[1]) throw invalid(`Input ${value} is naive.`);
  return ms;
}

function pyIso(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.(\d{3})Z$/, ".$1000+00:00")
    .replace(".000000+", "+");
}

export function createBackfill(
  ctx: Ctx,
  b: BatchExportRecord,
  start: number | null,
  end: number | null,
): string {
  const at = ctx.now.toISOString();
  const backfill: BackfillRecord = {
    id: randomUUID(),
    batch_export: b.id,
    team_id: b.team_id,
    start_at: start === null ? null : new Date(start).toISOString(),
    end_at: end === null ? null : new Date(end).toISOString(),
    status: "Completed",
    created_at: at,
    finished_at: at,
    last_updated_at: at,
    total_records_count: 0,
  };
  const step = INTERVAL_MS[b.interval] ?? 3_600_000;
  const until = end ?? ctx.now.getTime();
  const windows: Array<[number | null, number]> = [];
  if (start === null) windows.push([null, until]);
  else
    for (let s = start; s + step <= until && windows.length < MAX_RUNS; s += step)
      windows.push([s, s + step]);
  for (const [s, e] of windows) {
    const records = 100 + ((e / step) % 900);
    const run: RunRecord = {
      id: randomUUID(),
      batch_export: b.id,
      status: "Completed",
      records_completed: Math.round(records),
      records_failed: 0,
      latest_error: null,
      data_interval_start: s === null ? null : new Date(s).toISOString(),
      data_interval_end: new Date(e).toISOString(),
      cursor: null,
      created_at: at,
      finished_at: at,
      last_updated_at: at,
      records_total_count: Math.round(records),
      bytes_exported: Math.round(records) * 512,
      backfill: backfill.id,
    };
    backfill.total_records_count = (backfill.total_records_count ?? 0) + (run.records_completed ?? 0);
    ctx.store.data.runs.push(run);
  }
  ctx.store.data.backfills.push(backfill);
  return backfill.id;
}

function create(ctx: Ctx) {
  const b = findExport(ctx, ctx.params.id, "BatchExport not found.");
  const body = asBody(ctx.body);
  const bound = (value: unknown) =>
    value === undefined || value === null ? null : parseInput(value, b.interval);
  const start = bound(body.start_at);
  const end = bound(body.end_at);
  if (start !== null && end !== null) {
    if (start >= end) throw invalid("The initial backfill datetime 'start_at' must be before 'end_at'");
    if (end > ctx.now.getTime()) throw invalid(`The provided 'end_at' (${pyIso(end)}) is in the future`);
  }
  if (end === null && b.destination.type !== "HTTP" && b.destination.type !== "NoOp") {
    throw invalid("Backfilling a BatchExport with no end date is not allowed");
  }
  return { status: 201, body: { backfill_id: createBackfill(ctx, b, start, end) } };
}

function backfillsOf(ctx: Ctx): BackfillRecord[] {
  const b = findExport(ctx, ctx.params.id);
  return ctx.store.data.backfills
    .filter((f) => f.batch_export === b.id)
    .sort((x, y) => (x.created_at < y.created_at ? 1 : x.created_at > y.created_at ? -1 : 0));
}

function findBackfill(ctx: Ctx): BackfillRecord {
  const id = ctx.params.backfill;
  const found = isUuid(id) ? backfillsOf(ctx).find((f) => f.id === id) : undefined;
  if (!found) throw notFound();
  return found;
}

function list(ctx: Ctx) {
  const page = cursorPage(ctx, backfillsOf(ctx), (f) => renderBackfill(ctx, f), 50);
  if (!page) throw notFound("Invalid cursor");
  return { status: 200, body: page };
}

function cancel(ctx: Ctx) {
  const f = findBackfill(ctx);
  if (f.status !== "Running" && f.status !== "Starting") {
    throw invalid(`Cannot cancel a backfill that is in '${f.status}' status`);
  }
  f.status = "Cancelled";
  f.last_updated_at = ctx.now.toISOString();
  return { status: 200, body: { cancelled: true } };
}

export function registerBackfills(router: Router): void {
  const project = "/api/projects/:project/batch_exports/:id";
  const write = "batch_export:write";
  router.add({ method: "POST", pattern: `${project}/backfills`, scope: write, handler: create });
  router.add({ method: "GET", pattern: `${project}/backfills`, scope: "batch_export:read", handler: list });
  router.add({
    method: "GET",
    pattern: `${project}/backfills/:backfill`,
    scope: "batch_export:read",
    handler: (ctx) => ({ status: 200, body: renderBackfill(ctx, findBackfill(ctx)) }),
  });
  router.add({
    method: "POST",
    pattern: `${project}/backfills/:backfill/cancel`,
    scope: write,
    handler: cancel,
  });
  // Deprecated alias, also in organization scope; gone from the newest service (`service.legacy_routes`).
  for (const base of [project, "/api/organizations/:org/batch_exports/:id"]) {
    router.add({ method: "POST", pattern: `${base}/backfill`, scope: write, handler: create, legacy: true });
  }
}
