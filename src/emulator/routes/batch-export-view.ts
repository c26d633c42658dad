/**
 * Batch export lookups and response shapes. Secrets of the destination type are removed from every
 * rendered export; `latest_runs` holds the 10 newest runs. Lookups never return soft-deleted exports.
 */
import { notFound } from "../errors.js";
import type { Ctx } from "../router.js";
import { offsetDay, offsetHour } from "../schedule.js";
import { isNewest } from "../service.js";
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

export function renderBackfill(ctx: Ctx, f: BackfillRecord) {
  const runs = ctx.store.data.runs.filter((r) => r.backfill === f.id);
  const finished = runs.filter((r) => !["Running", "Starting"].includes(r.status)).length;
  return {
    id: f.id,
    progress:
      f.status === "Completed"
        ? { total_runs: runs.length, finished_runs: runs.length, progress: 1 }
        : f.status === "Running" || f.status === "Starting"
          ? {
              total_runs: runs.length,
              finished_runs: finished,
              progress: runs.length ? finished / runs.length : null,
            }
          : null,
    start_at: f.start_at,
    end_at: f.end_at,
    status: f.status,
    created_at: f.created_at,
    finished_at: f.finished_at,
    last_updated_at: f.last_updated_at,
    total_records_count: f.total_records_count,
    adjusted_start_at: null,
    team: f.team_id,
    batch_export: f.batch_export,
  };
}
