/**
 * Log entries of a batch export (`.../logs/`, also in organization scope) and of one run
 * (`.../runs/:run/logs/`), posthog/api/log_entries.py: the export is looked up first (404), then the
 * parameters: `limit` 1..500 (default 50), `after` / `before` (ISO datetimes, exclusive), `search`
 * (case-insensitive substring), `instance_id`, `level`. Entries newest first, at most `limit` fetched,
 * then wrapped by the limit/offset paginator with the same `limit`: `count` is the number fetched and
 * `next` is always null (page back with `before=`); `offset` only skips inside what was fetched.
 *
 * Newest: `level` is one comma-separated string (a repeated `level=` keeps the last; no spaces are
 * trimmed); run logs find the run through the runs window, then break on the missing `run_id` route
 * parameter: a 500 [inferred from posthog/api/log_entries.py and runs.py] (use the export logs with
 * `instance_id`). Under the 2025 rules `level` is a list (repeat the parameter) and run logs work.
 */
import { invalid, serverError } from "../errors.js";
import { parseDateTime } from "../fields.js";
import { pageLink } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { isNewest } from "../service.js";
import type { LogRecord } from "../types.js";
import { findExport } from "./batch-export-view.js";
import { findRun } from "./runs.js";

/** Like Django's QueryDict.get: the last value of a repeated parameter. */
function param(ctx: Ctx, name: string): string | null {
  const all = ctx.query.getAll(name);
  return all.length === 0 ? null : (all[all.length - 1] ?? null);
}

function limitParam(ctx: Ctx): number {
  const raw = param(ctx, "limit");
  if (raw === null) return 50;
  if (!/^\s*-?\d+\s*$/.test(raw)) throw invalid("A valid integer is required.", "limit");
  const n = Number(raw);
  if (n < 1) throw invalid("Ensure this value is greater than or equal to 1.", "limit", "min_value");
  if (n > 500) throw invalid("Ensure this value is less than or equal to 500.", "limit", "max_value");
  return n;
}

/** A DateTimeField: ISO 8601 with a time (a naive value is UTC); no relative values. */
function timeParam(ctx: Ctx, name: string): number | undefined {
  const raw = param(ctx, name);
  if (raw === null) return undefined;
  const ok = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(raw.trim()) ? parseDateTime(raw, name, false) : null;
  if (ok === null) {
    throw invalid(
      "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
      name,
    );
  }
  return Date.parse(ok);
}

/** A CharField of the query: present means not blank. */
function textParam(ctx: Ctx, name: string): string | undefined {
  const raw = param(ctx, name);
  if (raw === null) return undefined;
  if (raw.trim() === "") throw invalid("This field may not be blank.", name, "blank");
  return raw.trim();
}

function levelsParam(ctx: Ctx): string[] {
  const all = ctx.query.getAll("level");
  if (all.length === 0) return [];
  if (isNewest(ctx.store)) {
    const last = all[all.length - 1] ?? "";
    if (last.trim() === "") throw invalid("This field may not be blank.", "level", "blank");
    return last
      .trim()
      .split(",")
      .map((l) => l.toUpperCase());
  }
  return all.map((l, i) => {
    if (l.trim() === "") throw invalid("This field may not be blank.", `level__${i}`, "blank");
    return l.trim().toUpperCase();
  });
}

function render(entry: LogRecord) {
  return {
    log_source_id: entry.batch_export,
    instance_id: entry.run,
    timestamp: entry.timestamp,
    level: entry.level,
    message: entry.message,
  };
}

function logs(ctx: Ctx, runScoped: boolean) {
  const b = findExport(ctx, ctx.params.id);
  const run = runScoped ? findRun(ctx) : undefined;
  const limit = limitParam(ctx);
  const after = timeParam(ctx, "after");
  const before = timeParam(ctx, "before");
  const levels = levelsParam(ctx);
  const search = textParam(ctx, "search")?.toLowerCase();
  const instance = textParam(ctx, "instance_id");
  if (run && isNewest(ctx.store)) throw serverError();
  const runId = run ? run.id : instance;
  const fetched = ctx.store.data.logs
    .filter((e) => {
      if (e.batch_export !== b.id || (runId !== undefined && e.run !== runId)) return false;
      const t = Date.parse(e.timestamp);
      if ((after !== undefined && t <= after) || (before !== undefined && t >= before)) return false;
      if (levels.length > 0 && !levels.includes(e.level.toUpperCase())) return false;
      return search === undefined || e.message.toLowerCase().includes(search);
    })
    .sort((x, y) => (x.timestamp < y.timestamp ? 1 : x.timestamp > y.timestamp ? -1 : 0))
    .slice(0, limit);
  const offsetText = ctx.query.get("offset");
  const offset = offsetText !== null && /^\d+$/.test(offsetText.trim()) ? Number(offsetText) : 0;
  let previous: string | null = null;
  if (offset > 0) {
    previous = pageLink(ctx, {
      limit: String(limit),
      offset: offset - limit <= 0 ? null : String(offset - limit),
    });
  }
  return {
    status: 200,
    body: {
      count: fetched.length,
      next: null,
      previous,
      results: fetched.slice(offset, offset + limit).map(render),
    },
  };
}

export function registerLogs(router: Router): void {
  // The service maps no API scope to the logs actions; its newest test reads them with batch_export:read.
  for (const base of [
    "/api/projects/:project/batch_exports/:id",
    "/api/organizations/:org/batch_exports/:id",
  ]) {
    router.add({
      method: "GET",
      pattern: `${base}/logs`,
      scope: "batch_export:read",
      handler: (ctx) => logs(ctx, false),
      legacy: base.startsWith("/api/organizations/"),
    });
  }
  router.add({
    method: "GET",
    pattern: "/api/projects/:project/batch_exports/:id/runs/:run/logs",
    scope: "batch_export:read",
    handler: (ctx) => logs(ctx, true),
  });
}
