/**
 * Batch export lookups and response shapes. Secrets of the destination type are removed from every
 * rendered export; `latest_runs` holds the 10 newest runs. Lookups never return soft-deleted exports.
 */
import { notFound } from "../errors.js";
import type { Ctx } from "../router.js";
import { offsetDay, offsetHour } from "../schedule.js";
import { isNewest } from "../service.js";
import { INTERVAL_MS } from "../time.js";
import type { BackfillRecord, BatchExportRecord, RunRecord } from "../types.js";
import { stripSecrets } from "./destinations.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string | undefined): value is string {
  return value !== undefined && UUID.test(value);
}

/** Exports visible from the route: the project's, or every project's of the organization. */
export function visibleExports(ctx: Ctx): BatchExportRecord[] {
  if (ctx.params.project !== undefined) {
    return ctx.store.data.batch_exports.filter((b) => b.team_id === ctx.project.id && !b.deleted);
  }
  const teams = new Set(
    ctx.store.data.projects.filter((p) => p.organization === ctx.org.id).map((p) => p.id),
  );
  return ctx.store.data.batch_exports.filter((b) => teams.has(b.team_id) && !b.deleted);
}

export function findExport(ctx: Ctx, id: string | undefined, detail = "Not found."): BatchExportRecord {
  const found = isUuid(id) ? visibleExports(ctx).find((b) => b.id === id.toLowerCase()) : undefined;
  if (!found) throw notFound(detail);
  return found;
}

export function runsOf(ctx: Ctx, exportId: string): RunRecord[] {
  return ctx.store.data.runs
    .filter((r) => r.batch_export === exportId)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}

export function renderRun(r: RunRecord) {
  return { ...r };
}

export function renderExport(ctx: Ctx, b: BatchExportRecord) {
  const newest = isNewest(ctx.store);
  const out: Record<string, unknown> = {
    id: b.id,
    team_id: b.team_id,
    name: b.name,
    model: b.model,
    destination: {
      type: b.destination.type,
      config: stripSecrets(b.destination.type, b.destination.config, newest),
      integration: b.destination.integration,
    },
    interval: b.interval,
    paused: b.paused,
    created_at: b.created_at,
    last_updated_at: b.last_updated_at,
    last_paused_at: b.last_paused_at,
    start_at: b.start_at,
    end_at: b.end_at,
    latest_runs: runsOf(ctx, b.id).slice(0, 10).map(renderRun),
    schema: b.schema,
    filters: b.filters,
  };
  if (newest) {
    out.hogql_query = b.hogql_query;
    out.hogql_modifiers = b.hogql_modifiers;
    out.primary_key = b.primary_key;
    out.version_key = b.version_key;
    out.incremental_mode = b.incremental_mode;
    out.timezone = b.timezone;
    out.offset_day = offsetDay(b.interval, b.interval_offset);
    out.offset_hour = offsetHour(b.interval, b.interval_offset);
  } else if (b.hogql_query !== null) out.hogql_query = b.hogql_query;
  return out;
}

/** DRF's DateTimeField output: UTC as `Z`, microseconds only when there are any. */
export function drfDateTime(iso: string | null): string | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const text = new Date(ms).toISOString();
  const millis = text.slice(20, 23);
  return millis === "000" ? `${text.slice(0, 19)}Z` : `${text.slice(0, 19)}.${millis}000Z`;
}

const FINISHED = (status: string) => status !== "Running" && status !== "Starting";

/**
 * The runs a backfill is expected to make (`BatchExportBackfill.total_expected_runs`): its window, up
 * to now when it has no end, in intervals of its export, rounded up; one run when it starts from the
 * beginning of the data.
 */
function expectedRuns(ctx: Ctx, f: BackfillRecord): number {
  if (f.start_at === null) return 1;
  const b = ctx.store.data.batch_exports.find((x) => x.id === f.batch_export);
  const step = INTERVAL_MS[b?.interval ?? "hour"] ?? 3_600_000;
  const end = f.end_at === null ? ctx.now.getTime() : Date.parse(f.end_at);
  return Math.max(0, Math.ceil((end - Date.parse(f.start_at)) / step));
}

/**
 * A backfill as the service serialises it (presentation/views/batch_export/backfills.py): progress
 * counts the runs the backfill is expected to make; a completed backfill is whole, one in another final
 * state has no meaningful progress, a running one counts its finished runs (none for a backfill from
 * the beginning of the data); datetimes in DRF's form.
 */
export function renderBackfill(ctx: Ctx, f: BackfillRecord) {
  const total = expectedRuns(ctx, f);
  let progress: { total_runs: number; finished_runs: number; progress: number } | null = null;
  if (f.status === "Completed") progress = { total_runs: total, finished_runs: total, progress: 1 };
  else if ((f.status === "Running" || f.status === "Starting") && total > 0 && f.start_at !== null) {
    const finished = ctx.store.data.runs.filter((r) => r.backfill === f.id && FINISHED(r.status)).length;
    const runs = Math.max(total, finished);
    progress = {
      total_runs: runs,
      finished_runs: finished,
      progress: Math.round((finished / runs) * 10) / 10,
    };
  }
  return {
    id: f.id,
    progress,
    start_at: drfDateTime(f.start_at),
    end_at: drfDateTime(f.end_at),
    status: f.status,
    created_at: drfDateTime(f.created_at),
    finished_at: drfDateTime(f.finished_at),
    last_updated_at: drfDateTime(f.last_updated_at),
    total_records_count: f.total_records_count,
    adjusted_start_at: null,
    team: f.team_id,
    batch_export: f.batch_export,
  };
}
