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

import { filterByAccess, requireAccess } from "../access.js";
import { invalid, notFound, serverError } from "../errors.js";
import { asBody, isDict, parseBool, parseInteger, parseString } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { DEFAULT_FOLDER, dashboardRecord } from "../records.js";
import { addModelWrites, type Ctx, type Router } from "../router.js";
import { completeTile, newShortId, seedInsight } from "../seed-insights.js";
import { isNewest } from "../service.js";
import type { DashboardRecord, DashboardTemplateRecord, TileRecord } from "../types.js";
import { findDashboard, requireEdit } from "./dashboard-access.js";
import { templateError } from "./dashboard-template.js";
import { renderBasic, renderDashboard } from "./dashboard-view.js";
import { applyDashboardBody, normaliseTags, pyTruthy } from "./dashboard-write.js";
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
  const visible = filterByAccess(
    ctx,
    "dashboard",
    ctx.store.data.dashboards.filter((d) => d.team_id === ctx.project.id),
  );
  const items = visible.filter(
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

/** The built-in template keys (posthog/helpers/dashboard_templates.py `DASHBOARD_TEMPLATES`). */
const TEMPLATE_KEYS = new Set(["DEFAULT_APP", "WEBSITE_TRAFFIC"]);

/**
 * Create, in the newest serializer's order: field validation (`use_dashboard` an integer or null,
 * `use_template` a string, blank allowed), then both *truthy* → 400; the creation mode follows the truthy
 * one. A duplicated dashboard must be in the project (`{"use_dashboard": "Invalid value provided"}`); its
 * filters are copied unless the body brings truthy ones, and its variables, breakdown colours and colour
 * theme always are (the body's `variables` is a read-only field on create). Truthy non-object filters →
 * 400 "Filters must be a dictionary" (no attr). An unknown template key → 400 on `use_template`.
 */
function create(ctx: Ctx) {
  const body = asBody(ctx.body);
  const useDashboard =
    body.use_dashboard === undefined ? null : parseInteger(body.use_dashboard, "use_dashboard", true);
  const useTemplate =
    body.use_template === undefined ? "" : (parseString(body.use_template, "use_template") ?? "");
  if (useDashboard && useTemplate) {
    throw invalid("`use_dashboard` and `use_template` cannot be used together");
  }
  const { variables: _variables, filters: _filters, ...fields } = body;
  const d = newDashboard(ctx, body._create_in_folder);
  applyDashboardBody(ctx, d, fields, true);
  d.creation_mode = useTemplate ? "template" : useDashboard ? "duplicate" : "default";
  let source: DashboardRecord | undefined;
  if (useDashboard) {
    source = ctx.store.dashboard(ctx.project.id, useDashboard);
    if (!source) throw invalid("Invalid value provided", "use_dashboard");
  }
  if (pyTruthy(body.filters)) {
    if (!isDict(body.filters)) throw invalid("Filters must be a dictionary", null);
    d.filters = structuredClone(body.filters);
  } else d.filters = source ? structuredClone(source.filters) : {};
  if (source) {
    if (pyTruthy(source.variables)) d.variables = structuredClone(source.variables);
    if (pyTruthy(source.breakdown_colors)) d.breakdown_colors = structuredClone(source.breakdown_colors);
    if (source.data_color_theme_id) d.data_color_theme_id = source.data_color_theme_id;
    const quickFilters = new Set(
      ctx.store.data.quick_filters.filter((q) => q.team_id === ctx.project.id).map((q) => q.id),
    );
    d.quick_filter_ids = source.quick_filter_ids.filter((id) => quickFilters.has(id));
    const live = source.tiles.filter((t) => !t.deleted);
    d.tiles = pyTruthy(body.duplicate_tiles)
      ? live.map((t) => deepDuplicate(ctx, t))
      : live.map((t) => ({ ...structuredClone(t), id: ctx.store.nextTileId() }));
  }
  if (useTemplate && !TEMPLATE_KEYS.has(useTemplate)) {
    const template = ctx.store.data.dashboard_templates.find(
      (t) => t.template_name === useTemplate && (t.team_id === ctx.project.id || t.scope === "global"),
    );
    if (!template) throw invalid(`Invalid template provided: ${useTemplate}`, "use_template");
    applyTemplate(ctx, d, template);
  }
  d.id = ctx.store.nextDashboardId();
  ctx.store.data.dashboards.push(d);
  return { status: 201, body: renderDashboard(ctx, d) };
}

function retrieve(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.id);
  requireAccess(ctx, "dashboard", d, "viewer");
  return { status: 200, body: renderDashboard(ctx, d) };
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
  requireAccess(ctx, "dashboard", d, "editor");
  requireEdit(ctx, d);
  const draft = structuredClone(d);
  applyDashboardBody(ctx, draft, body, false);
  const deleteInsights =
    draft.deleted && "delete_insights" in body && parseBool(body.delete_insights, "delete_insights");
  if (draft.deleted && !d.deleted) {
    // Soft delete: the tiles go with the dashboard (and come back on restore, with their insights).
    if (deleteInsights) deleteInsightsOnlyHere(ctx, draft);
    for (const tile of draft.tiles) tile.deleted = true;
    // The service also clears the team's primary dashboard when it is this one.
    for (const p of ctx.store.data.projects) if (p.primary_dashboard === d.id) p.primary_dashboard = null;
  } else if (!draft.deleted && d.deleted) {
    for (const tile of draft.tiles) tile.deleted = false;
    restoreInsightsOf(ctx, draft);
  }
  Object.assign(d, draft);
  return { status: 200, body: renderDashboard(ctx, d) };
}

function moveTile(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.id);
  requireAccess(ctx, "dashboard", d, "editor");
  requireEdit(ctx, d);
  const body = asBody(ctx.body);
  const tileBody = isDict(body.tile) ? body.tile : undefined;
  const tile = d.tiles.find((t) => t.id === tileBody?.id && !t.deleted);
  if (!tile) throw invalid("Tile not found.", "tile");
  const target = ctx.store.dashboard(ctx.project.id, Number(body.toDashboard));
  if (!target) throw notFound();
  // The tile lands on the target: the caller must be able to edit it too [inferred wording].
  requireAccess(ctx, "dashboard", target, "editor");
  d.tiles = d.tiles.filter((t) => t !== tile);
  target.tiles.push(tile);
  return { status: 200, body: renderDashboard(ctx, d) };
}

/**
 * `create_from_template`: the template's description and filters, its name when the dashboard has
 * none, its tags (with `tagging`) and its tiles (a text card without author, or an insight).
 */
function applyTemplate(
  ctx: Ctx,
  d: DashboardRecord,
  template: Pick<
    DashboardTemplateRecord,
    "template_name" | "dashboard_description" | "dashboard_filters" | "tags"
  > & {
    tiles: Array<Record<string, unknown>>;
  },
): void {
  if (!d.name) d.name = template.template_name;
  d.description = template.dashboard_description;
  d.filters = structuredClone(template.dashboard_filters);
  if (ctx.org.features.tagging) d.tags = normaliseTags(template.tags);
  const now = ctx.now.toISOString();
  d.tiles = template.tiles.map((t) =>
    completeTile({
      id: ctx.store.nextTileId(),
      // An insight tile gets a new saved insight of the project (the template's name and query).
      insight_id: t.type === "INSIGHT" ? templateInsight(ctx, t, now) : null,
      text:
        t.type === "TEXT"
          ? {
              id: ctx.store.nextTextId(),
              body: typeof t.body === "string" ? t.body : null,
              created_by: null,
              last_modified_at: now,
              last_modified_by: null,
            }
          : null,
      layouts: isDict(t.layouts) ? structuredClone(t.layouts) : {},
      color: typeof t.color === "string" ? t.color : null,
    }),
  );
}

/**
 * `_deep_duplicate_tiles`: a copy of the tile showing a copy of its insight (named "… (Copy)" when it
 * has a name) or a new text card with the same body, with the tile's layouts and colour.
 */
function deepDuplicate(ctx: Ctx, tile: TileRecord): TileRecord {
  const now = ctx.now.toISOString();
  const copy: TileRecord = {
    id: ctx.store.nextTileId(),
    layouts: structuredClone(tile.layouts ?? {}),
    color: tile.color ?? null,
  };
  const original =
    typeof tile.insight_id === "number"
      ? ctx.store.data.insights.find((i) => i.id === tile.insight_id)
      : undefined;
  if (original) {
    const id = ctx.store.nextInsightId();
    ctx.store.data.insights.push({
      ...structuredClone(original),
      id,
      short_id: newShortId(),
      name: original.name ? `${original.name} (Copy)` : original.name,
      created_at: now,
      created_by: ctx.user.id,
      last_modified_at: now,
      last_modified_by: ctx.user.id,
      updated_at: now,
    });
    copy.insight_id = id;
  } else if (isDict(tile.text)) {
    copy.text = {
      id: ctx.store.nextTextId(),
      body: typeof tile.text.body === "string" ? tile.text.body : null,
      created_by: ctx.user.id,
      last_modified_at: now,
      last_modified_by: null,
    };
  }
  return completeTile(copy);
}

/** The insight a template's INSIGHT tile creates, created by the caller; its id. */
function templateInsight(ctx: Ctx, t: Record<string, unknown>, now: string): number {
  const insight = seedInsight(
    {
      id: ctx.store.nextInsightId(),
      team_id: ctx.project.id,
      name: typeof t.name === "string" ? t.name : null,
      description: typeof t.description === "string" ? t.description : null,
      query: t.query ?? null,
      created_by: ctx.user.id,
    },
    now,
  );
  ctx.store.data.insights.push(insight);
  return insight.id;
}

/**
 * Newest `create_from_template_json`: the template must pass the service's JSON schema
 * (dashboard-template.ts; without a `template` key the service's parser fails with a 500). The dashboard
 * takes the template's name, description, filters and (with `tagging`) tags; each tile becomes an insight
 * tile (`INSIGHT`, name and query) or a text tile (`TEXT`, a new text card without author). 200 with the
 * dashboard.
 */
function createFromTemplate(ctx: Ctx) {
  const body = asBody(ctx.body);
  if (!("template" in body)) throw serverError();
  const problem = templateError(body.template);
  if (problem !== undefined) throw invalid(problem, null);
  const template = body.template as Record<string, unknown>;
  const d = newDashboard(ctx, body._create_in_folder);
  d.creation_mode = "template";
  applyTemplate(ctx, d, {
    template_name: template.template_name as string,
    dashboard_description: template.dashboard_description as string,
    dashboard_filters: template.dashboard_filters as Record<string, unknown>,
    tags: Array.isArray(template.tags) ? (template.tags as string[]) : [],
    tiles: template.tiles as Array<Record<string, unknown>>,
  });
  d.id = ctx.store.nextDashboardId();
  ctx.store.data.dashboards.push(d);
  return { status: 200, body: renderDashboard(ctx, d) };
}

export function registerDashboards(router: Router): void {
  const read = "dashboard:read";
  const write = "dashboard:write";
  router.add({ method: "GET", pattern: BASE, scope: read, handler: list });
  router.add({ method: "POST", pattern: BASE, scope: write, creates: true, handler: create });
  router.add({
    method: "POST",
    pattern: `${BASE}/create_from_template_json`,
    scope: write,
    handler: createFromTemplate,
  });
  router.add({ method: "GET", pattern: `${BASE}/:id`, scope: read, handler: retrieve });
  addModelWrites(router, `${BASE}/:id`, { scope: write }, update);
  router.add({ method: "PATCH", pattern: `${BASE}/:id/move_tile`, scope: write, handler: moveTile });
}
