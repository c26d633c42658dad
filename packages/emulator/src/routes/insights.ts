/**
 * `/api/projects/:project/insights/...` (products/product_analytics/backend/api/insight.py): list
 * (`?basic=true` for the metadata-only shape; filters `short_id`, `search`, `saved`, `favorited`,
 * `user`, `dashboards`, `tags`, `created_by`, `insight`; ordered by `order`, nulls last), create,
 * retrieve by id or short id (`?from_dashboard=` adds the tile's `layouts` and `color`), PATCH / PUT,
 * soft delete by PATCH `deleted: true` (a PATCH `{"deleted": false}` reaches a deleted insight to
 * restore it), DELETE → 405 with an empty body. The query of a request is validated as the service's
 * parser does before anything else reads the body. These endpoints carry the service's ClickHouse
 * throttles (240/minute, 1,200/hour), the same bucket as the events endpoints.
 */
import { filterByAccess, requireAccess } from "../access.js";
import { forbidden, invalid, serverError } from "../errors.js";
import { asBody, isDict } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { insightRecord } from "../records.js";
import { addModelWrites, type Ctx, type Router } from "../router.js";
import { newShortId } from "../seed-insights.js";
import { flagOn } from "../service.js";
import {
  DESCRIPTION_SCORE_WEIGHT,
  MIN_DESCRIPTION_TRIGRAM_SIMILARITY,
  MIN_NAME_TRIGRAM_SIMILARITY,
  type SearchField,
  trigramSearch,
} from "../trigram.js";
import type { InsightRecord } from "../types.js";
import {
  dashboardsBefore,
  logInsightCreated,
  logInsightUpdate,
  registerInsightActivity,
} from "./insight-activity.js";
import { registerBulkInsightActions } from "./insight-bulk.js";
import { KIND_BY_INSIGHT } from "./insight-filters.js";
import {
  findInsight,
  inheritedLevels,
  liveTilesOf,
  reachableInsights,
  renderInsight,
  renderInsightBasic,
} from "./insight-view.js";
import {
  addTilesOnCreate,
  applyUpdate,
  checkCreateDashboards,
  type InsightChanges,
  parseInsightBody,
} from "./insight-write.js";
import { checkQueryOnParse } from "./query-schema.js";

const BASE = "/api/projects/:project/insights";
const MAX_SEARCH = 200;

/**
 * The names of the insights a feature flag's dashboard template creates
 * (posthog/helpers/dashboard_templates.py), which `?hide_feature_flag_insights=true` leaves out.
 */
export const FEATURE_FLAG_INSIGHT_NAMES: readonly string[] = [
  "Feature Flag Called Total Volume",
  "Feature Flag calls made by unique users per variant",
];

const truthyParam = (v: string | null) => v !== null && /^(1|true|t|yes|y|on)$/i.test(v.trim());

function isMcp(ctx: Ctx): boolean {
  return ctx.headers["x-posthog-client"] === "mcp";
}

/** A JSON-encoded list query parameter (`[1,2]`); a malformed one fails like the service's json.loads. */
function jsonList(raw: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    throw serverError();
  }
}

function queryKind(i: InsightRecord, path: "kind" | "source"): unknown {
  const q = i.query;
  if (!isDict(q)) return undefined;
  return path === "kind" ? q.kind : isDict(q.source) ? q.source.kind : undefined;
}

function matchesInsightType(i: InsightRecord, type: string): boolean {
  const wrapper = queryKind(i, "kind");
  const wrapped = ["InsightVizNode", "DataTableNode", "DataVisualizationNode"].includes(String(wrapper));
  if (type === "SQL") return wrapped && queryKind(i, "source") === "HogQLQuery";
  if (type === "JSON") {
    return (
      i.query !== null &&
      !(
        wrapped &&
        (queryKind(i, "source") === "HogQLQuery" ||
          Object.values(KIND_BY_INSIGHT).includes(String(queryKind(i, "source"))))
      )
    );
  }
  const kind = KIND_BY_INSIGHT[type];
  const legacy = i.query === null && i.filters.insight === type;
  return legacy || (kind !== undefined && wrapper === "InsightVizNode" && queryKind(i, "source") === kind);
}

/** `InsightViewSet._apply_search`: name (with full similarity), derived name, description; tags exact. */
const SEARCH_FIELDS: readonly SearchField<InsightRecord>[] = [
  { value: (i) => i.name, weight: 1, threshold: MIN_NAME_TRIGRAM_SIMILARITY, includeFull: true },
  { value: (i) => i.derived_name, weight: 1, threshold: MIN_NAME_TRIGRAM_SIMILARITY, includeFull: false },
  {
    value: (i) => i.description,
    weight: DESCRIPTION_SCORE_WEIGHT,
    threshold: MIN_DESCRIPTION_TRIGRAM_SIMILARITY,
    includeFull: false,
  },
];

function list(ctx: Ctx) {
  const q = ctx.query;
  const search = q.get("search");
  if (search !== null && search.length > MAX_SEARCH) {
    throw invalid(`Search query must be ${MAX_SEARCH} characters or fewer.`, "search");
  }
  let items = reachableInsights(ctx);
  const shortId = q.get("short_id");
  // Access control rules hide insights (a sharing token sees its own only); an organization admin
  // asking by short id sees every insight, as the service lets admins open any insight by its link.
  if (ctx.principal.kind !== "sharing") items = filterByAccess(ctx, "insight", items, shortId !== null);
  if (shortId !== null) items = items.filter((i) => i.short_id === shortId);
  if (q.has("saved")) {
    const saved = truthyParam(q.get("saved"));
    items = items.filter((i) =>
      saved
        ? i.saved || liveTilesOf(ctx, i).some(({ dashboard }) => dashboard.creation_mode !== "unlisted")
        : !i.saved,
    );
  }
  if (q.has("user")) items = items.filter((i) => i.created_by === ctx.user.id);
  if (q.has("favorited")) items = items.filter((i) => i.favorited);
  if (truthyParam(q.get("hide_feature_flag_insights"))) {
    items = items.filter((i) => i.name === null || !FEATURE_FLAG_INSIGHT_NAMES.includes(i.name));
  }
  const dashboards = q.get("dashboards");
  if (dashboards) {
    for (const id of jsonList(dashboards)) {
      items = items.filter((i) =>
        ctx.store.data.dashboards.some(
          (d) => d.id === Number(id) && d.tiles.some((t) => t.insight_id === i.id && t.deleted !== true),
        ),
      );
    }
  }
  const tags = q.get("tags");
  if (tags) {
    const wanted = jsonList(tags).map(String);
    if (wanted.length > 0) items = items.filter((i) => i.tags.some((t) => wanted.includes(t)));
  }
  const createdBy = q.get("created_by");
  if (createdBy) {
    const ids = jsonList(createdBy).map(Number);
    if (ids.length > 0) items = items.filter((i) => i.created_by !== null && ids.includes(i.created_by));
  }
  const flag = q.get("feature_flag");
  if (flag !== null) {
    const breakdown = `$feature/${flag}`.toLowerCase();
    const text = (v: unknown) => (v === undefined || v === null ? "" : JSON.stringify(v).toLowerCase());
    items = items.filter(
      (i) =>
        text(i.filters.breakdown).includes(breakdown) ||
        text(i.filters.properties).includes(flag.toLowerCase()) ||
        text(i.query).includes(breakdown),
    );
  }
  const type = q.get("insight");
  if (type !== null) items = items.filter((i) => matchesInsightType(i, type));
  // normalize_search_term: NUL bytes stripped, then trimmed.
  const needle = search?.replaceAll("\u0000", "").trim() ?? "";
  const hits = new Map<number, { score: number; exact: boolean }>();
  if (needle !== "") {
    const found = trigramSearch(items, needle, SEARCH_FIELDS, (i) => i.tags);
    for (const hit of found) hits.set(hit.item.id, { score: hit.score, exact: hit.exact });
    items = found.map((hit) => hit.item);
  }
  const order = q.get("order");
  items.sort((a, b) => {
    if (order) {
      const desc = order.startsWith("-");
      const field = (desc ? order.slice(1) : order) as keyof InsightRecord;
      const av = a[field] as string | number | null;
      const bv = b[field] as string | number | null;
      const c = av === bv ? 0 : av === null ? 1 : bv === null ? -1 : av < bv ? -1 : 1;
      if (c !== 0) return desc ? -c : c;
      return a.id - b.id;
    }
    if (needle !== "") {
      // Exact matches first, then -_search_score, then name (Postgres sorts nulls last ascending).
      const byExact = Number(hits.get(b.id)?.exact ?? false) - Number(hits.get(a.id)?.exact ?? false);
      if (byExact !== 0) return byExact;
      const byScore = (hits.get(b.id)?.score ?? 0) - (hits.get(a.id)?.score ?? 0);
      if (byScore !== 0) return byScore;
      if (a.name === null || b.name === null)
        return a.name === b.name ? a.id - b.id : a.name === null ? 1 : -1;
      return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id;
    }
    const ao = a.order ?? Number.POSITIVE_INFINITY;
    const bo = b.order ?? Number.POSITIVE_INFINITY;
    return ao - bo || a.id - b.id;
  });
  const basic = truthyParam(q.get("basic"));
  return {
    status: 200,
    body: offsetPage(ctx, items, (i) => {
      const rendered = basic
        ? renderInsightBasic(ctx, i, { listed: true })
        : renderInsight(ctx, i, { listed: true });
      if (needle !== "") rendered.search_match_type = hits.get(i.id)?.exact ? "exact" : "similar";
      return rendered;
    }),
  };
}

/**
 * `InsightSerializer.validate`: with the `legacy-insight-filters-disabled` flag on, writing `filters`
 * without a query is refused.
 */
function checkLegacyFilters(ctx: Ctx, changes: InsightChanges): void {
  const query = changes.fields.query;
  const noQuery = query === undefined || query === null || (isDict(query) && Object.keys(query).length === 0);
  const usingFilters = changes.fields.filters !== undefined && changes.fields.filters !== null && noQuery;
  if (usingFilters && flagOn(ctx.store, "legacy-insight-filters-disabled")) {
    throw forbidden("Creating or updating insights with legacy filters is not available for this user.");
  }
}

function create(ctx: Ctx) {
  checkQueryOnParse(ctx.body);
  const body = asBody(ctx.body);
  const mcp = isMcp(ctx);
  const changes = parseInsightBody(ctx, body, mcp);
  if (mcp && !("query" in body)) throw invalid("This field is required.", "query", "invalid");
  checkLegacyFilters(ctx, changes);
  if (changes.dashboards) checkCreateDashboards(ctx, changes.dashboards);
  const now = ctx.now.toISOString();
  const insight = insightRecord({
    id: ctx.store.nextInsightId(),
    team_id: ctx.project.id,
    short_id: newShortId(),
    created_at: now,
    created_by: ctx.user.id,
    ...changes.fields,
    ...(changes.tags !== undefined && ctx.org.features.tagging ? { tags: changes.tags } : {}),
  });
  ctx.store.data.insights.push(insight);
  if (changes.dashboards) addTilesOnCreate(ctx, insight, changes.dashboards);
  logInsightCreated(ctx, insight);
  return { status: 201, body: renderInsight(ctx, insight) };
}

function retrieve(ctx: Ctx) {
  const insight = findInsight(ctx, ctx.params.id);
  if (ctx.principal.kind !== "sharing") requireAccess(ctx, "insight", insight, "viewer");
  const basic = truthyParam(ctx.query.get("basic"));
  const from = ctx.query.get("from_dashboard");
  const placed =
    from !== null && /^\d+$/.test(from)
      ? liveTilesOf(ctx, insight).find(({ dashboard }) => dashboard.id === Number(from))
      : undefined;
  if (basic) return { status: 200, body: renderInsightBasic(ctx, insight) };
  const override = ctx.query.get("filters_override");
  let filtersOverride: Record<string, unknown> | undefined;
  if (override !== null) {
    try {
      const parsed: unknown = JSON.parse(override);
      if (isDict(parsed)) filtersOverride = parsed;
    } catch {
      throw invalid("filters_override must be a JSON object", "filters_override");
    }
  }
  const body: Record<string, unknown> = renderInsight(ctx, insight, {
    dashboard: placed?.dashboard,
    tile: placed?.tile,
    filtersOverride,
  });
  if (placed) {
    body.color = placed.tile.color ?? null;
    body.layouts = structuredClone(placed.tile.layouts ?? {});
  }
  return { status: 200, body };
}

function update(ctx: Ctx, partial: boolean) {
  checkQueryOnParse(ctx.body);
  const body = asBody(ctx.body);
  // Only a PATCH whose `deleted` is exactly false reaches a soft-deleted insight (a restore).
  const insight = findInsight(ctx, ctx.params.id, partial && body.deleted === false);
  requireAccess(ctx, "insight", insight, "editor");
  // The enterprise viewset's `CanEditInsight`: an insight only on dashboards the caller may not edit
  // is read-only to them.
  if (inheritedLevels(ctx, insight).privilege !== 37) {
    throw forbidden(
      "This insight is on a dashboard that can only be edited by its owner, team members invited to editing the dashboard, and project admins.",
    );
  }
  const changes = parseInsightBody(ctx, body, isMcp(ctx) && partial);
  checkLegacyFilters(ctx, changes);
  // All or nothing: a refused dashboard change leaves the insight and its tiles as they were.
  const dashboards = structuredClone(ctx.store.data.dashboards);
  const before = structuredClone(insight);
  const onDashboards = dashboardsBefore(ctx, insight);
  try {
    applyUpdate(ctx, insight, changes);
  } catch (error) {
    ctx.store.data.dashboards = dashboards;
    Object.assign(insight, before);
    throw error;
  }
  logInsightUpdate(ctx, before, insight, { before: onDashboards, wanted: changes.dashboards });
  const after =
    changes.dashboards !== undefined && changes.fields.deleted !== true
      ? changes.dashboards.map((d) => d.id)
      : undefined;
  return { status: 200, body: renderInsight(ctx, insight, { dashboardsAfterChange: after }) };
}

export function registerInsights(router: Router): void {
  const read = "insight:read";
  const write = "insight:write";
  const bucket = "events" as const;
  // The insight views take sharing tokens (`sharing_enabled_actions`: list and retrieve).
  const view = "view" as const;
  router.add({ method: "GET", pattern: BASE, scope: read, bucket, sharing: "action", handler: list });
  registerBulkInsightActions(router, BASE);
  registerInsightActivity(router, BASE);
  router.add({
    method: "POST",
    pattern: BASE,
    scope: write,
    bucket,
    sharing: view,
    creates: true,
    handler: create,
  });
  router.add({
    method: "GET",
    pattern: `${BASE}/:id`,
    scope: read,
    bucket,
    sharing: "action",
    handler: retrieve,
  });
  addModelWrites(router, `${BASE}/:id`, { scope: write, bucket, sharing: view }, update);
}
