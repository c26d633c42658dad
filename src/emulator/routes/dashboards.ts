/**
 * `/api/projects/:project/dashboards/...`: list (Basic shape, `-pinned, name`), create, retrieve,
 * PATCH / PUT, soft delete by PATCH `deleted: true`, DELETE → 405 with an empty body, `move_tile` and
 * `create_from_template_json`.
 *
 * Restore: newest, a PATCH or PUT whose `deleted` is present, not null and false-ish by `str_to_bool`
 * (false, "false", 0, ...) reaches a deleted dashboard, other keys allowed in the same body. Under the
 * 2025 rules only a PATCH whose body is exactly one false-ish (Python) `deleted` key does; anything
 * else is a 404. Newest dashboards also show `folder` (`?folder=` lists a folder's direct children).
 */

import { invalid, notFound } from "../errors.js";
import { asBody, isDict, parseBool, parseString } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { DEFAULT_FOLDER, dashboardRecord } from "../records.js";
import type { Ctx, Router } from "../router.js";
import { isNewest } from "../service.js";
import type { DashboardRecord } from "../types.js";
import { findDashboard, renderBasic, renderDashboard, requireEdit } from "./dashboard-view.js";
import { applyDashboardBody, normaliseTags } from "./dashboard-write.js";
import { strToBool } from "./destinations.js";
import { deleteInsightsOnlyHere, restoreInsightsOf } from "./tiles.js";

const BASE = "/api/projects/:project/dashboards";

function compareNames(a: DashboardRecord, b: DashboardRecord): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.name !== b.name) {
    if (a.name === null) return 1;
    if (b.name === null) return -1;
    const byName = a.name.localeCompare(b.name, "en");
    if (byName !== 0) return byName;
  }
  return a.id - b.id;
}

function list(ctx: Ctx) {
  const search = ctx.query.get("search");
  if (search !== null && search.length > 200) {
    throw invalid("Ensure this field has no more than 200 characters.", "search", "max_length");
  }
  const tags = ctx.query
    .getAll("tags")
    .flatMap((t) => t.split(","))
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  const mode = ctx.query.get("creation_mode");
  const folder = isNewest(ctx.store) ? ctx.query.get("folder") : null;
  const needle = search?.toLowerCase() ?? "";
  const items = ctx.store.data.dashboards.filter(
    (d) =>
      d.team_id === ctx.project.id &&
      !d.deleted &&
      (mode !== null ? d.creation_mode === mode : d.creation_mode !== "unlisted") &&
      (tags.length === 0 || d.tags.some((t) => tags.includes(t))) &&
      (folder === null || d.folder === folder) &&
      (needle === "" ||
        (d.name ?? "").toLowerCase().includes(needle) ||
        d.description.toLowerCase().includes(needle)),
  );
  items.sort((a, b) => {
    if (needle !== "") {
      const exact =
        Number((b.name ?? "").toLowerCase() === needle) - Number((a.name ?? "").toLowerCase() === needle);
      if (exact !== 0) return exact;
    }
    return compareNames(a, b);
  });
  return { status: 200, body: offsetPage(ctx, items, (d) => renderBasic(ctx, d)) };
}

function newDashboard(ctx: Ctx, folder: unknown = undefined): DashboardRecord {
  return dashboardRecord({
    id: 0,
    team_id: ctx.project.id,
    created_at: ctx.now.toISOString(),
    created_by: ctx.user.id,
    folder: typeof folder === "string" && folder !== "" ? folder : DEFAULT_FOLDER,
  });
}

function create(ctx: Ctx) {
  const body = asBody(ctx.body);
  if (body.use_template !== undefined && body.use_dashboard !== undefined) {
    throw invalid("`use_dashboard` and `use_template` cannot be used together");
  }
  const d = newDashboard(ctx, body._create_in_folder);
  applyDashboardBody(ctx, d, body, true);
  if (body.use_dashboard !== undefined && body.use_dashboard !== null) {
    const source = ctx.store.dashboard(ctx.project.id, Number(body.use_dashboard));
    if (!source) throw invalid("Dashboard not found.", "use_dashboard");
    d.creation_mode = "duplicate";
    if (!("filters" in body)) d.filters = structuredClone(source.filters);
    d.tiles = source.tiles
      .filter((t) => !t.deleted)
      .map((t) => ({ ...structuredClone(t), id: ctx.store.nextTileId() }));
  } else if (typeof body.use_template === "string" && body.use_template !== "") {
    d.creation_mode = "template";
  }
  d.id = ctx.store.nextDashboardId();
  ctx.store.data.dashboards.push(d);
  return { status: 201, body: renderDashboard(ctx, d) };
}

function retrieve(ctx: Ctx) {
  return { status: 200, body: renderDashboard(ctx, findDashboard(ctx, ctx.params.id)) };
}

/** Python's truthiness of a JSON value. */
function pyTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Whether the body may reach a soft-deleted dashboard (a restore). */
function reachesDeleted(ctx: Ctx, body: Record<string, unknown>, partial: boolean): boolean {
  if (!("deleted" in body)) return false;
  if (isNewest(ctx.store)) return body.deleted !== null && !strToBool(body.deleted);
  return partial && Object.keys(body).length === 1 && !pyTruthy(body.deleted);
}

function update(ctx: Ctx, partial: boolean) {
  const body = asBody(ctx.body);
  const id = /^\d+$/.test(ctx.params.id ?? "") ? Number(ctx.params.id) : Number.NaN;
  const d = ctx.store.data.dashboards.find((x) => x.id === id && x.team_id === ctx.project.id);
  if (!d || (d.deleted && !reachesDeleted(ctx, body, partial))) throw notFound();
  requireEdit(ctx, d);
  const draft = structuredClone(d);
  applyDashboardBody(ctx, draft, body, false);
  const deleteInsights =
    draft.deleted && "delete_insights" in body && parseBool(body.delete_insights, "delete_insights");
  if (draft.deleted && !d.deleted) {
    // Soft delete: the tiles go with the dashboard (and come back on restore, with their insights).
    if (deleteInsights) deleteInsightsOnlyHere(ctx, draft);
    for (const tile of draft.tiles) tile.deleted = true;
  } else if (!draft.deleted && d.deleted) {
    for (const tile of draft.tiles) tile.deleted = false;
    restoreInsightsOf(ctx, draft);
  }
  Object.assign(d, draft);
  return { status: 200, body: renderDashboard(ctx, d) };
}

function moveTile(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.id);
  requireEdit(ctx, d);
  const body = asBody(ctx.body);
  const tileBody = isDict(body.tile) ? body.tile : undefined;
  const tile = d.tiles.find((t) => t.id === tileBody?.id && !t.deleted);
  if (!tile) throw invalid("Tile not found.", "tile");
  const target = ctx.store.dashboard(ctx.project.id, Number(body.toDashboard));
  if (!target) throw notFound();
  d.tiles = d.tiles.filter((t) => t !== tile);
  target.tiles.push(tile);
  return { status: 200, body: renderDashboard(ctx, d) };
}

function createFromTemplate(ctx: Ctx) {
  const body = asBody(ctx.body);
  if (!isDict(body.template)) throw invalid("This field is required.", "template", "required");
  const template = body.template;
  const d = newDashboard(ctx);
  d.creation_mode = "template";
  d.name = parseString(template.template_name ?? "", "template__template_name", { nullable: true });
  d.description =
    parseString(template.dashboard_description ?? template.description ?? "", "template__description") ?? "";
  if (isDict(template.dashboard_filters)) d.filters = structuredClone(template.dashboard_filters);
  if (ctx.org.features.tagging && template.tags !== undefined) d.tags = normaliseTags(template.tags);
  const tiles = Array.isArray(template.tiles) ? template.tiles : [];
  d.tiles = tiles.filter(isDict).map((t) => ({
    id: ctx.store.nextTileId(),
    insight: t.type === "INSIGHT" ? { name: t.name ?? null, query: t.query ?? null } : null,
    text: t.type === "TEXT" ? { body: t.body ?? "" } : null,
    layouts: isDict(t.layouts) ? structuredClone(t.layouts) : {},
    color: typeof t.color === "string" ? t.color : null,
  }));
  d.id = ctx.store.nextDashboardId();
  ctx.store.data.dashboards.push(d);
  return { status: 200, body: renderDashboard(ctx, d) };
}

export function registerDashboards(router: Router): void {
  const read = "dashboard:read";
  const write = "dashboard:write";
  router.add({ method: "GET", pattern: BASE, scope: read, handler: list });
  router.add({ method: "POST", pattern: BASE, scope: write, handler: create });
  router.add({
    method: "POST",
    pattern: `${BASE}/create_from_template_json`,
    scope: write,
    handler: createFromTemplate,
  });
  router.add({ method: "GET", pattern: `${BASE}/:id`, scope: read, handler: retrieve });
  router.add({ method: "PATCH", pattern: `${BASE}/:id`, scope: write, handler: (ctx) => update(ctx, true) });
  router.add({ method: "PUT", pattern: `${BASE}/:id`, scope: write, handler: (ctx) => update(ctx, false) });
  // The service's ForbidDestroyModel answers a bare 405 with no JSON body.
  router.add({
    method: "DELETE",
    pattern: `${BASE}/:id`,
    scope: write,
    handler: () => ({ status: 405, headers: { Allow: "GET, PUT, PATCH, HEAD, OPTIONS" } }),
  });
  router.add({ method: "PATCH", pattern: `${BASE}/:id/move_tile`, scope: write, handler: moveTile });
}
