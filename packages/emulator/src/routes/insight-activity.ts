/**
 * The insights' activity log (products/product_analytics/backend/api/insight.py): what a create or an
 * update of an insight writes (`log_and_report_insight_activity`) and the two endpoints that read it,
 * `GET .../insights/activity/` (every insight of the project, `all_activity`) and
 * `GET .../insights/:id/activity/` (one insight, which the caller must be able to view). Both need the
 * `activity_log:read` scope and page as `activity_page_response` does (`?limit=`, `?page=`).
 *
 * What is written: nothing for an insight with neither a name nor a derived name (the service's
 * experiments create such insights); `created` with no changes; on an update the fields that changed
 * (`changes_between` over the model's fields less the service's exclusions, tags first as the model's
 * reverse relation, then name, derived name, description, filters, query, deleted, favorited), with the
 * dashboards change written from the request (`_synthetic_dashboard_changes`: the dashboards before,
 * sorted by id, and the ones asked for, each as `{id, name}`; none when the insight leaves every
 * dashboard, as in the service). An update whose changes include `deleted` is logged as `deleted` or
 * `restored`; an update that changes nothing is not logged. Not modelled: `query_metadata`, which the
 * service derives from the query and logs as a change of its own when the query changes.
 */
import { requireAccess, requireResourceAccess } from "../access.js";
import { activityPage, fieldChange, logActivity } from "../activity-log.js";
import type { Ctx, Router } from "../router.js";
import type { ActivityChange, DashboardRecord, InsightRecord } from "../types.js";
import { findInsight, liveTilesOf } from "./insight-view.js";

const SCOPE = "Insight";

/** The model fields `changes_between` compares for an insight, in the model's order (tags first). */
const FIELDS = ["name", "derived_name", "description", "filters", "query", "deleted", "favorited"] as const;

/** `describe_change(dashboard)`. */
const describe = (d: DashboardRecord) => ({ id: d.id, name: d.name });

/** The insight's name in its log rows: its name, else its derived name; none means no row. */
const displayName = (i: InsightRecord) => i.name || i.derived_name || null;

function log(
  ctx: Ctx,
  insight: InsightRecord,
  activity: "created" | "updated" | "deleted" | "restored",
  changes: ActivityChange[] | null,
): void {
  const name = displayName(insight);
  if (name === null) return;
  logActivity(ctx, {
    scope: SCOPE,
    itemId: insight.id,
    activity,
    name,
    detail: { name, short_id: insight.short_id, type: null, changes, trigger: null },
  });
}

export function logInsightCreated(ctx: Ctx, insight: InsightRecord): void {
  log(ctx, insight, "created", null);
}

/** The dashboards an insight is on as an update sees them first (`dashboard_tiles`, sorted by id). */
export function dashboardsBefore(ctx: Ctx, insight: InsightRecord) {
  return liveTilesOf(ctx, insight)
    .map(({ dashboard }) => describe(dashboard))
    .sort((a, b) => a.id - b.id);
}

/**
 * `_log_insight_update`: the changes between the insight before and after the update, plus the
 * dashboards change when the update moved it between dashboards (`wanted`: the request's dashboards).
 */
export function logInsightUpdate(
  ctx: Ctx,
  before: InsightRecord,
  insight: InsightRecord,
  dashboards: { before: Array<{ id: number; name: string | null }>; wanted?: readonly DashboardRecord[] },
): void {
  const changes: ActivityChange[] = [];
  const sortedTags = (i: InsightRecord) => [...i.tags].sort();
  const tags = fieldChange(SCOPE, "tags", sortedTags(before), sortedTags(insight), true);
  if (tags) changes.push(tags);
  for (const field of FIELDS) {
    const change = fieldChange(SCOPE, field, before[field], insight[field]);
    if (change) changes.push(change);
  }
  const after = (dashboards.wanted ?? []).filter((d) => !d.deleted).map(describe);
  const moved =
    dashboards.wanted !== undefined &&
    insight.deleted !== true &&
    JSON.stringify(dashboards.before.map((d) => d.id).sort((a, b) => a - b)) !==
      JSON.stringify(after.map((d) => d.id).sort((a, b) => a - b));
  if (moved && after.length > 0) {
    changes.push({ type: SCOPE, action: "changed", field: "dashboards", before: dashboards.before, after });
  }
  const deleted = changes.find((c) => c.field === "deleted");
  const activity = deleted
    ? deleted.after
      ? "deleted"
      : deleted.before
        ? "restored"
        : "updated"
    : "updated";
  log(ctx, insight, activity, changes);
}

function allActivity(ctx: Ctx) {
  // The view's own object type decides the resource-wide check (the route's scope is the activity log's).
  requireResourceAccess(ctx, "insight", "viewer", false);
  return { status: 200, body: activityPage(ctx, SCOPE) };
}

function itemActivity(ctx: Ctx) {
  requireResourceAccess(ctx, "insight", "viewer", false);
  const insight = findInsight(ctx, ctx.params.id);
  requireAccess(ctx, "insight", insight, "viewer");
  return { status: 200, body: activityPage(ctx, SCOPE, [String(insight.id)]) };
}

/** Registered before `insights/:id` so that `activity` is not read as an insight's id. */
export function registerInsightActivity(router: Router, base: string): void {
  const shared = { scope: "activity_log:read", bucket: "events" as const, sharing: "view" as const };
  router.add({ method: "GET", pattern: `${base}/activity`, ...shared, handler: allActivity });
  router.add({ method: "GET", pattern: `${base}/:id/activity`, ...shared, handler: itemActivity });
}
