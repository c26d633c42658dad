/**
 * Backfills: `POST .../backfills/` validates the window with the service's messages, then records a
 * backfill and the runs it implies, one per interval. The emulator completes runs at once (no worker),
 * so a backfill is `Completed` when created. Also `GET .../backfills/` (cursor pages of 50), retrieve,
 * cancel, and the deprecated `POST .../backfill/` alias (a legacy route, see service.ts).
 *
 * Newest (presentation/views/batch_export/backfills.py), in order: the export (soft-deleted ones too) or
 * 404; no `start_at` needs the flag `batch-export-earliest-backfill` (and a HogQL query must not use
 * `{data_interval_start}`); 429 when the team has too many running backfills; daily and weekly exports
 * take dates only (the export's hour and time zone are applied; a weekly date must fall on
 * `offset_day`), other intervals ISO datetimes with an offset; with both bounds, start before end and
 * end not in the future; no `end_at` on anything but HTTP/NoOp escapes as a 500 [inferred]. 201 with a
 * UUID. Under the 2025 rules: ISO datetimes for every interval, 400 without `end_at`, and 200 with the
 * backfill workflow's id.
 */
import { randomUUID } from "node:crypto";
import { ApiError, errorBody, invalid, notFound, serverError } from "../errors.js";
import { asBody } from "../fields.js";
import { cursorPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { DAY_NAMES, offsetDay, offsetHour, pyIsoFormat, zonedTime } from "../schedule.js";
import { flagOn, isNewest } from "../service.js";
import { INTERVAL_MS } from "../time.js";
import type { BackfillRecord, BatchExportRecord, RunRecord } from "../types.js";
import { findExport, isUuid, renderBackfill } from "./batch-export-view.js";
import { DATA_INTERVAL_START, placeholders } from "./hogql.js";

/** Upper bound on runs created by one backfill, to keep the emulator's memory bounded. */
const MAX_RUNS = 10_000;

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A parsed bound: the instant and how Python's `isoformat()` would print it. */
interface Bound {
  ms: number;
  iso: string;
}

/** Python's `datetime.fromisoformat` (roughly): an instant, or "naive" when no offset was given. */
function fromIsoFormat(text: string): { ms: number; offset: number; micros: number } | "naive" | undefined {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, hh = "00", mi = "00", ss = "00", frac = "", zone] = m;
  const fraction = frac.padEnd(6, "0");
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(hh), Number(mi), Number(ss));
  const check = new Date(wall);
  if (Number.isNaN(wall) || check.getUTCDate() !== Number(d) || Number(hh) > 23) return undefined;
  if (zone === undefined) return "naive";
  let offset = 0;
  if (zone.toUpperCase() !== "Z") {
    const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
    if (!z) return undefined;
    offset = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? "0"));
  }
  const micros = Number(fraction);
  return { ms: wall - offset * 60_000 + Math.floor(micros / 1000), offset, micros };
}

/**
 * A backfill bound as the newest service reads it: daily and weekly exports take a date only (their
 * schedule fixes the time of day and zone), other intervals an ISO datetime with an offset.
 */
function parseNewestBound(value: unknown, b: BatchExportRecord): Bound {
  const text = typeof value === "string" ? value : String(value);
  if (b.interval === "day" || b.interval === "week") {
    const date = typeof value === "string" ? DATE_ONLY.exec(value) : null;
    const valid = date && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? date : null;
    if (!valid) {
      if (typeof value === "string" && fromIsoFormat(value) !== undefined) {
        throw invalid(
          `Input '${text}' is not a valid ISO formatted date. Daily or weekly batch export backfills expect only the date component, but a time was included.`,
        );
      }
      throw invalid(`Input '${text}' is not a valid ISO formatted date.`);
    }
    const [, y, mo, d] = valid;
    if (b.interval === "week") {
      const weekday = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d))).getUTCDay();
      const wanted = offsetDay(b.interval, b.interval_offset) ?? 0;
      if (weekday !== wanted) {
        throw invalid(
          `Input ${text} is not on the correct day of the week for this batch export. ${text} is a ${DAY_NAMES[weekday]} but this batch export is configured to run weekly on ${DAY_NAMES[wanted]}.`,
        );
      }
    }
    const hour = offsetHour(b.interval, b.interval_offset) ?? 0;
    const at = zonedTime(b.timezone, Number(y), Number(mo), Number(d), hour);
    return { ms: at.ms, iso: pyIsoFormat(at.ms, at.offsetMinutes) };
  }
  const parsed = typeof value === "string" ? fromIsoFormat(value) : undefined;
  if (parsed === undefined) throw invalid(`Input ${text} is not a valid ISO formatted datetime.`);
  if (parsed === "naive") throw invalid(`Input ${text} is naive.`);
  return { ms: parsed.ms, iso: pyIsoFormat(parsed.ms - (parsed.ms % 1000), parsed.offset, parsed.micros) };
}

/** The 2025 rules: an ISO datetime with an offset for every interval. */
function parseOlderBound(value: unknown): Bound {
  const text = typeof value === "string" ? value : String(value);
  const parsed = typeof value === "string" ? fromIsoFormat(value) : undefined;
  if (parsed === undefined) throw invalid(`Input ${text} is not a valid ISO formatted datetime.`);
  if (parsed === "naive") throw invalid(`Input ${text} is naive.`);
  return { ms: parsed.ms, iso: pyIsoFormat(parsed.ms - (parsed.ms % 1000), parsed.offset, parsed.micros) };
}

/** The backfill workflow's id: `{export}-Backfill-{start UTC isoformat or START}-{end or END}`. */
export function backfillWorkflowId(exportId: string, start: number | null, end: number | null): string {
  const iso = (ms: number) => pyIsoFormat(ms - (ms % 1000), 0, (ms % 1000) * 1000);
  return `${exportId}-Backfill-${start === null ? "START" : iso(start)}-${end === null ? "END" : iso(end)}`;
}

export function createBackfill(
  ctx: Ctx,
  b: BatchExportRecord,
  start: number | null,
  end: number | null,
  id: string = randomUUID(),
): string {
  const at = ctx.now.toISOString();
  const backfill: BackfillRecord = {
    id,
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

/** The newest view looks the export up by id and project only: soft-deleted exports are found too. */
function exportForBackfill(ctx: Ctx): BatchExportRecord {
  const id = ctx.params.id;
  const found = isUuid(id)
    ? ctx.store.data.batch_exports.find((b) => b.id === id.toLowerCase() && b.team_id === ctx.project?.id)
    : undefined;
  if (!found) throw notFound("BatchExport not found.");
  return found;
}

function createNewest(ctx: Ctx) {
  const b =
    ctx.params.project === undefined
      ? findExport(ctx, ctx.params.id, "BatchExport not found.")
      : exportForBackfill(ctx);
  const body = asBody(ctx.body);
  const rawStart = body.start_at ?? null;
  const rawEnd = body.end_at ?? null;
  if (rawStart === null) {
    if (!flagOn(ctx.store, "batch-export-earliest-backfill")) {
      throw invalid("Backfilling from the beginning of time is not enabled for this team.");
    }
    if (
      b.model === "hogql" &&
      b.hogql_query !== null &&
      placeholders(b.hogql_query).includes(DATA_INTERVAL_START)
    ) {
      throw invalid(
        "This query references {data_interval_start}, which is unavailable when backfilling from the beginning of time. Provide 'start_at' or remove {data_interval_start} from the query.",
      );
    }
  }
  const limit = ctx.store.data.service.max_concurrent_backfills;
  const active = ctx.store.data.backfills.filter(
    (f) => f.team_id === b.team_id && (f.status === "Running" || f.status === "Starting"),
  ).length;
  if (active >= limit) {
    throw new ApiError(
      429,
      errorBody(
        "server_error",
        "too_many_concurrent_backfills",
        `This team already has ${limit} batch export backfills running. Wait for some to finish or cancel them before creating more.`,
      ),
    );
  }
  const start = rawStart === null ? null : parseNewestBound(rawStart, b);
  const end = rawEnd === null ? null : parseNewestBound(rawEnd, b);
  if (start !== null && end !== null) {
    if (start.ms >= end.ms) throw invalid("The initial backfill datetime 'start_at' must be before 'end_at'");
    if (end.ms > ctx.now.getTime()) throw invalid(`The provided 'end_at' (${end.iso}) is in the future`);
  }
  // The service's "no end date" error is not mapped by the newest view.
  if (end === null && b.destination.type !== "HTTP" && b.destination.type !== "NoOp") throw serverError();
  const id = createBackfill(ctx, b, start?.ms ?? null, end?.ms ?? null);
  return { status: 201, body: { backfill_id: id } };
}

function createOlder(ctx: Ctx) {
  const b = findExport(ctx, ctx.params.id, "BatchExport not found.");
  const body = asBody(ctx.body);
  const bound = (value: unknown) => (value === undefined || value === null ? null : parseOlderBound(value));
  const start = bound(body.start_at);
  const end = bound(body.end_at);
  if (start !== null && end !== null) {
    if (start.ms >= end.ms) throw invalid("The initial backfill datetime 'start_at' must be before 'end_at'");
    if (end.ms > ctx.now.getTime()) throw invalid(`The provided 'end_at' (${end.iso}) is in the future`);
  }
  if (end === null && b.destination.type !== "HTTP" && b.destination.type !== "NoOp") {
    throw invalid("Backfilling a BatchExport with no end date is not allowed");
  }
  createBackfill(ctx, b, start?.ms ?? null, end?.ms ?? null);
  return { status: 200, body: { backfill_id: backfillWorkflowId(b.id, start?.ms ?? null, end?.ms ?? null) } };
}

function create(ctx: Ctx) {
  return isNewest(ctx.store) ? createNewest(ctx) : createOlder(ctx);
}

const ORDERINGS = ["created_at", "-created_at", "start_at", "-start_at"] as const;

/**
 * The backfills of the route's export in the route's team: the viewset filters by both and looks the
 * export up no further, so another team's export (or none) lists empty. `ordering` is one of
 * `created_at` / `start_at`, descending with a `-`; ties go by id in the same direction.
 */
function backfillsOf(ctx: Ctx): BackfillRecord[] {
  const raw = ctx.query.get("ordering") ?? "-created_at";
  const ordering = (ORDERINGS as readonly string[]).includes(raw) ? raw : "-created_at";
  const field = ordering.replace("-", "") as "created_at" | "start_at";
  const sign = ordering.startsWith("-") ? -1 : 1;
  const key = (f: BackfillRecord) => (f[field] === null ? -Infinity : Date.parse(f[field] as string));
  return ctx.store.data.backfills
    .filter((f) => f.batch_export === ctx.params.id?.toLowerCase() && f.team_id === ctx.project.id)
    .sort((x, y) => sign * (key(x) - key(y) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)));
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

/** Cancels a backfill and the runs it has in flight. */
export function cancelBackfill(ctx: Ctx, f: BackfillRecord): void {
  const at = ctx.now.toISOString();
  f.status = "Cancelled";
  f.last_updated_at = at;
  for (const run of ctx.store.data.runs) {
    if (run.backfill === f.id && (run.status === "Running" || run.status === "Starting")) {
      run.status = "Cancelled";
      run.last_updated_at = at;
    }
  }
}

function cancel(ctx: Ctx) {
  const f = findBackfill(ctx);
  if (f.status !== "Running" && f.status !== "Starting") {
    throw invalid(`Cannot cancel a backfill that is in '${f.status}' status`);
  }
  cancelBackfill(ctx, f);
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
