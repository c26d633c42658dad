/**
 * Log entries of a batch export (`.../logs/`, also in organization scope) and of one run
 * (`.../runs/:run/logs/`): newest first; `limit` 1..500 (default 50), `level` (comma-separated, any
 * case), `search` (case-insensitive substring), `after` / `before` (exclusive), `instance_id`;
 * wrapped in the limit/offset envelope.
 */
import { invalid } from "../errors.js";
import { offsetPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { parseTime } from "../time.js";
import type { LogRecord } from "../types.js";
import { findExport } from "./batch-export-view.js";
import { findRun } from "./runs.js";

function limitParam(ctx: Ctx): number {
  const raw = ctx.query.get("limit");
  if (raw === null) return 50;
  if (!/^-?\d+$/.test(raw.trim())) throw invalid("A valid integer is required.", "limit");
  const n = Number(raw);
  if (n < 1) throw invalid("Ensure this value is greater than or equal to 1.", "limit", "min_value");
  if (n > 500) throw invalid("Ensure this value is less than or equal to 500.", "limit", "max_value");
  return n;
}

function timeParam(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return undefined;
  const ms = parseTime(raw, ctx.now.getTime());
  if (ms === undefined) throw invalid("Datetime has wrong format.", name);
  return ms;
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
  const runId = runScoped ? findRun(ctx).id : ctx.query.get("instance_id");
  const limit = limitParam(ctx);
  const after = timeParam(ctx, "after");
  const before = timeParam(ctx, "before");
  const levels = ctx.query
    .getAll("level")
    .flatMap((l) => l.split(","))
    .map((l) => l.trim().toUpperCase())
    .filter(Boolean);
  const search = ctx.query.get("search")?.toLowerCase() ?? "";
  const entries = ctx.store.data.logs
    .filter((e) => {
      if (e.batch_export !== b.id || (runId && e.run !== runId)) return false;
      const t = Date.parse(e.timestamp);
      if ((after !== undefined && t <= after) || (before !== undefined && t >= before)) return false;
      if (levels.length > 0 && !levels.includes(e.level.toUpperCase())) return false;
      return search === "" || e.message.toLowerCase().includes(search);
    })
    .sort((x, y) => (x.timestamp < y.timestamp ? 1 : x.timestamp > y.timestamp ? -1 : 0));
  return { status: 200, body: offsetPage(ctx, entries, render, limit) };
}

export function registerLogs(router: Router): void {
  // The service maps no API scope to the logs actions; reading them is treated as batch_export:read here.
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
