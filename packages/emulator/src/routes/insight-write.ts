/**
 * Applying a create / PATCH / PUT body to an insight the way `InsightSerializer` does: every field is
 * validated in the serializer's field order and the first 400 reported; then the `dashboards`
 * replace-set (the deprecated field still the only way to put an insight on a dashboard): a dashboard
 * added gets the insight's tile back (undeleted, with its old layout) or a new one with `layouts: {}`,
 * a dashboard removed has the tile soft-deleted; adding to or removing from a dashboard the caller may
 * not edit is a 403. A soft delete hides every tile of the insight. Only `name`, `description` and
 * `filters` count as material changes (`last_modified_*`), as in the service's model.
 */
import { collectInvalid, forbidden, invalid } from "../errors.js";
import { type Body, isDict, parseBool, parseInteger, parseString } from "../fields.js";
import type { Ctx } from "../router.js";
import type { DashboardRecord, InsightRecord } from "../types.js";
import { privilegeLevel } from "./dashboard-access.js";
import { normaliseTags } from "./dashboard-write.js";
import { normaliseMcpQuery } from "./query-schema.js";
import { newTile } from "./tiles.js";

const MATERIAL_FIELDS = ["name", "description", "filters"] as const;

/** The dashboards a `dashboards` list names: live dashboards of the project, in the request's order. */
function parseDashboards(ctx: Ctx, value: unknown): DashboardRecord[] {
  if (value === null) throw invalid("This field may not be null.", "dashboards", "null");
  if (!Array.isArray(value)) {
    const type = isDict(value) ? "dict" : typeof value === "string" ? "str" : typeof value;
    throw invalid(`Expected a list of items but got type "${type}".`, "dashboards", "not_a_list");
  }
  return value.map((raw) => {
    const pk =
      typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : undefined;
    if (pk === undefined || !Number.isInteger(pk)) {
      const type =
        typeof raw === "string" ? "str" : raw === null ? "NoneType" : isDict(raw) ? "dict" : typeof raw;
      throw invalid(`Incorrect type. Expected pk value, received ${type}.`, "dashboards", "incorrect_type");
    }
    const d = ctx.store.dashboard(ctx.project.id, pk);
    if (!d) throw invalid(`Invalid pk "${pk}" - object does not exist.`, "dashboards", "does_not_exist");
    return d;
  });
}

export interface InsightChanges {
  fields: Partial<InsightRecord>;
  /** Present when the body has `dashboards`. */
  dashboards?: DashboardRecord[];
  tags?: string[];
}

/** Validates a body: the fields it sets, in the serializer's order, or the first field's 400. */
export function parseInsightBody(ctx: Ctx, body: Body, mcp: boolean): InsightChanges {
  const out: InsightChanges = { fields: {} };
  const f = out.fields;
  const steps = collectInvalid();
  const has = (key: string) => Object.hasOwn(body, key);
  if (has("name"))
    steps.step(() => (f.name = parseString(body.name, "name", { nullable: true, maxLength: 400 })));
  if (has("derived_name")) {
    steps.step(
      () =>
        (f.derived_name = parseString(body.derived_name, "derived_name", { nullable: true, maxLength: 400 })),
    );
  }
  if (has("filters")) {
    steps.step(() => {
      if (body.filters === null) throw invalid("This field may not be null.", "filters", "null");
      f.filters = structuredClone(body.filters) as Record<string, unknown>;
    });
  }
  if (has("query")) {
    steps.step(() => {
      const query = body.query;
      if (query !== null && !isDict(query))
        throw invalid("Query must be a valid JSON object", "query", "invalid");
      f.query = mcp && query !== null ? normaliseMcpQuery(query) : structuredClone(query);
    });
  }
  if (has("order")) steps.step(() => (f.order = parseInteger(body.order, "order", true)));
  if (has("deleted")) steps.step(() => (f.deleted = parseBool(body.deleted, "deleted") ?? false));
  if (has("dashboards")) steps.step(() => (out.dashboards = parseDashboards(ctx, body.dashboards)));
  if (has("description")) {
    steps.step(
      () =>
        (f.description = parseString(body.description, "description", { nullable: true, maxLength: 400 })),
    );
  }
  if (has("tags")) steps.step(() => (out.tags = normaliseTags(body.tags)));
  if (has("favorited")) steps.step(() => (f.favorited = parseBool(body.favorited, "favorited") ?? false));
  if (has("saved")) steps.step(() => (f.saved = parseBool(body.saved, "saved") ?? false));
  if (has("_create_in_folder")) steps.step(() => parseString(body._create_in_folder, "_create_in_folder"));
  steps.done();
  return out;
}

function requireDashboardEdit(ctx: Ctx, d: DashboardRecord, verb: "add" | "remove"): void {
  if (privilegeLevel(ctx, d) < 37) {
    throw forbidden(
      `You don't have permission to ${verb} insights ${verb === "add" ? "to" : "from"} dashboard: ${d.id}`,
    );
  }
}

/** Puts a new insight on the dashboards a create names (checked before anything is stored). */
export function checkCreateDashboards(ctx: Ctx, dashboards: readonly DashboardRecord[]): void {
  for (const d of dashboards) requireDashboardEdit(ctx, d, "add");
}

export function addTilesOnCreate(
  ctx: Ctx,
  insight: InsightRecord,
  dashboards: readonly DashboardRecord[],
): void {
  for (const d of dashboards) d.tiles.push(newTile(ctx, { insight_id: insight.id }));
}

/**
 * `_update_insight_dashboards`: the live dashboards the insight is on become exactly `wanted`. A tile
 * that exists (even soft-deleted) is undeleted rather than replaced, so its layout comes back.
 */
export function replaceDashboards(
  ctx: Ctx,
  insight: InsightRecord,
  wanted: readonly DashboardRecord[],
): void {
  const live = ctx.store.data.dashboards.filter(
    (d) =>
      !d.deleted &&
      d.team_id === insight.team_id &&
      d.tiles.some((t) => t.insight_id === insight.id && t.deleted !== true),
  );
  const oldIds = live.map((d) => d.id).sort((a, b) => a - b);
  const newIds = wanted.map((d) => d.id);
  if (JSON.stringify(oldIds) === JSON.stringify([...newIds].sort((a, b) => a - b))) return;
  const toAdd = wanted.filter((d) => !oldIds.includes(d.id));
  const toRemove = live.filter((d) => !newIds.includes(d.id));
  for (const d of toAdd) requireDashboardEdit(ctx, d, "add");
  for (const d of toRemove) requireDashboardEdit(ctx, d, "remove");
  for (const d of toAdd) {
    const existing = d.tiles.find((t) => t.insight_id === insight.id);
    if (existing) existing.deleted = false;
    else d.tiles.push(newTile(ctx, { insight_id: insight.id }));
  }
  for (const d of toRemove) {
    for (const t of d.tiles) if (t.insight_id === insight.id && t.deleted !== true) t.deleted = true;
  }
}

/** Applies parsed changes to an insight being updated (tiles first, as the serializer does). */
export function applyUpdate(ctx: Ctx, insight: InsightRecord, changes: InsightChanges): void {
  const now = ctx.now.toISOString();
  if (changes.fields.deleted === true) {
    for (const d of ctx.store.data.dashboards) {
      for (const t of d.tiles) if (t.insight_id === insight.id) t.deleted = true;
    }
  } else if (changes.dashboards !== undefined) {
    replaceDashboards(ctx, insight, changes.dashboards);
  }
  if (MATERIAL_FIELDS.some((k) => k in changes.fields)) {
    insight.last_modified_at = now;
    insight.last_modified_by = ctx.user.id;
  }
  Object.assign(insight, changes.fields);
  if (!("saved" in changes.fields)) insight.saved = true;
  insight.is_sample = false;
  if (changes.tags !== undefined && ctx.org.features.tagging) insight.tags = changes.tags;
  insight.updated_at = now;
}
