/**
 * Batch exports in project scope (`/api/projects/:project/batch_exports`) and organization scope
 * (`/api/organizations/:org/batch_exports`, every project of the organization, no runs routes):
 * list (`-created_at`), create 201, retrieve, PATCH / PUT, soft DELETE 204, pause / unpause.
 */

import { randomUUID } from "node:crypto";
import { invalid } from "../errors.js";
import { asBody, parseBool } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { batchExportRecord } from "../records.js";
import type { Ctx, Handler, Router } from "../router.js";
import type { WriteMode } from "../types.js";
import { cancelBackfill, createBackfill } from "./backfills.js";
import { findExport, renderExport, visibleExports } from "./batch-export-view.js";
import { applyExportBody } from "./batch-export-write.js";

function list(ctx: Ctx) {
  // The service hides Workflows exports from the list (they stay retrievable by id).
  const items = visibleExports(ctx)
    .filter((b) => b.destination.type !== "Workflows")
    .sort((a, b) =>
      a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id.localeCompare(b.id),
    );
  return { status: 200, body: offsetPage(ctx, items, (b) => renderExport(ctx, b)) };
}

function create(ctx: Ctx) {
  if (ctx.params.project === undefined) {
    throw invalid(
      "Batch exports can only be created in a project: use /api/projects/{project_id}/batch_exports/.",
    );
  }
  const body = asBody(ctx.body);
  const b = batchExportRecord({
    id: randomUUID(),
    team_id: ctx.project.id,
    created_at: ctx.now.toISOString(),
  });
  applyExportBody(ctx, b, body, "create", null);
  ctx.store.data.batch_exports.push(b);
  return { status: 201, body: renderExport(ctx, b) };
}

function retrieve(ctx: Ctx) {
  return { status: 200, body: renderExport(ctx, findExport(ctx, ctx.params.id)) };
}

function update(ctx: Ctx, mode: WriteMode) {
  const b = findExport(ctx, ctx.params.id);
  const draft = structuredClone(b);
  // In organization scope the export's own project resolves integrations and team-wide checks.
  const project = ctx.params.project === undefined ? ctx.store.project(b.team_id) : ctx.project;
  applyExportBody(project ? { ...ctx, project } : ctx, draft, asBody(ctx.body), mode, b);
  draft.last_updated_at = ctx.now.toISOString();
  Object.assign(b, draft);
  return { status: 200, body: renderExport(ctx, b) };
}

function destroy(ctx: Ctx) {
  const b = findExport(ctx, ctx.params.id);
  b.deleted = true;
  b.paused = true;
  b.last_updated_at = ctx.now.toISOString();
  // service.delete_batch_export cancels the export's running backfills and runs.
  for (const f of ctx.store.data.backfills) {
    if (f.batch_export === b.id && (f.status === "Running" || f.status === "Starting"))
      cancelBackfill(ctx, f);
  }
  for (const run of ctx.store.data.runs) {
    if (run.batch_export === b.id && (run.status === "Running" || run.status === "Starting")) {
      run.status = "Cancelled";
      run.last_updated_at = b.last_updated_at;
    }
  }
  return { status: 204 };
}

function pause(ctx: Ctx) {
  const b = findExport(ctx, ctx.params.id);
  if (!b.paused) {
    const now = ctx.now.toISOString();
    b.paused = true;
    b.last_paused_at = now;
    b.last_updated_at = now;
  }
  return { status: 200, body: { paused: true } };
}

/**
 * Unpause; with `backfill: true` the service backfills from `last_paused_at` to the unpause. An export
 * paused without `/pause/` (by `paused: true` on a write) has no `last_paused_at`: the service then starts
 * an earliest backfill (`start_at` null, from the beginning of the data), skipping the backfill
 * endpoint's checks. The body is validated before the export is looked up.
 */
function unpause(ctx: Ctx) {
  const body = asBody(ctx.body);
  const backfill = body.backfill === undefined ? false : parseBool(body.backfill, "backfill");
  const b = findExport(ctx, ctx.params.id);
  if (b.paused) {
    b.paused = false;
    b.last_updated_at = ctx.now.toISOString();
    if (backfill) {
      const start = b.last_paused_at === null ? null : Date.parse(b.last_paused_at);
      createBackfill(ctx, b, start, ctx.now.getTime());
    }
  }
  return { status: 200, body: { paused: false } };
}

export function registerBatchExports(router: Router): void {
  const read = "batch_export:read";
  const write = "batch_export:write";
  for (const base of ["/api/projects/:project/batch_exports", "/api/organizations/:org/batch_exports"]) {
    // The organization routes are gone from the newest service; `service.legacy_routes` keeps them.
    const legacy = base.startsWith("/api/organizations/");
    const add = (method: string, pattern: string, scope: string, handler: Handler) =>
      router.add({ method, pattern, scope, handler, legacy });
    add("GET", base, read, list);
    add("POST", base, write, create);
    add("GET", `${base}/:id`, read, retrieve);
    add("PATCH", `${base}/:id`, write, (ctx) => update(ctx, "patch"));
    add("PUT", `${base}/:id`, write, (ctx) => update(ctx, "put"));
    add("DELETE", `${base}/:id`, write, destroy);
    add("POST", `${base}/:id/pause`, write, pause);
    add("POST", `${base}/:id/unpause`, write, unpause);
  }
}
