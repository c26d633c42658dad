/**
 * Applies a create / PATCH / PUT body to a dashboard record with the service's rules: DRF field
 * coercions, tags normalised (or dropped without `tagging`); on update `filters`/`variables` are applied
 * only when truthy and must then be objects (create reads them itself, dashboards.ts). On update, a body that so much as contains `restriction_level`
 * (even unchanged) is refused with 403 unless the caller is the creator or a project admin: the
 * service checks `"restriction_level" in validated_data` after field validation and before
 * `filters` / `variables` / `tiles` are read from the raw body.
 */
import { forbidden, invalid } from "../errors.js";
import {
  type Body,
  isDict,
  parseBool,
  parseChoice,
  parseDateTime,
  parseInteger,
  parseList,
  parseString,
} from "../fields.js";
import type { Ctx } from "../router.js";
import type { DashboardRecord } from "../types.js";
import { canRestrict } from "./dashboard-access.js";
import { applyTilesPatch } from "./tile-write.js";

/** Python's truthiness of a JSON value. */
export function pyTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

const UUID =
  /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/**
 * `validate_quick_filter_ids`: null or empty is `[]`; each id must be a UUID ("Invalid UUID: x") and
 * name a quick filter of the team ("Quick filters not found: ..."); ids come back in canonical form.
 */
function quickFilterIds(ctx: Ctx, value: unknown): string[] {
  const list = parseList(value, "quick_filter_ids", true) ?? [];
  const ids = list.map((raw) => {
    const text = parseString(raw, "quick_filter_ids") ?? "";
    const m = UUID.exec(text.trim());
    if (!m) throw invalid(`Invalid UUID: ${text}`, "quick_filter_ids");
    return m.slice(1).join("-").toLowerCase();
  });
  const known = new Set(
    ctx.store.data.quick_filters.filter((q) => q.team_id === ctx.project.id).map((q) => q.id),
  );
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw invalid(`Quick filters not found: ${missing.join(", ")}`, "quick_filter_ids");
  return ids;
}

export function normaliseTags(value: unknown): string[] {
  const list = parseList(value, "tags") ?? [];
  const tags = list.map((t) => (parseString(t, "tags") ?? "").trim().toLowerCase()).filter((t) => t !== "");
  return [...new Set(tags)];
}

export function applyDashboardBody(ctx: Ctx, d: DashboardRecord, body: Body, creating: boolean): void {
  if ("name" in body) d.name = parseString(body.name, "name", { nullable: true, maxLength: 400 });
  if ("description" in body) d.description = parseString(body.description, "description") ?? "";
  if ("pinned" in body) d.pinned = parseBool(body.pinned, "pinned") ?? false;
  if ("deleted" in body) d.deleted = parseBool(body.deleted, "deleted") ?? false;
  if ("restriction_level" in body) {
    d.restriction_level = parseChoice(body.restriction_level, "restriction_level", [21, 37] as const);
  }
  if ("tags" in body) {
    const tags = normaliseTags(body.tags);
    if (ctx.org.features.tagging) d.tags = tags;
  }
  if ("breakdown_colors" in body) d.breakdown_colors = structuredClone(body.breakdown_colors ?? []);
  if ("data_color_theme_id" in body)
    d.data_color_theme_id = parseInteger(body.data_color_theme_id, "data_color_theme_id", true);
  if ("quick_filter_ids" in body) d.quick_filter_ids = quickFilterIds(ctx, body.quick_filter_ids);
  if ("last_accessed_at" in body)
    d.last_accessed_at = parseDateTime(body.last_accessed_at, "last_accessed_at");
  if ("last_refresh" in body) d.last_refresh = parseDateTime(body.last_refresh, "last_refresh");
  if (!creating && "restriction_level" in body && !canRestrict(ctx, d)) {
    throw forbidden(
      "Only the dashboard owner and project admins have the restriction rights required to change the dashboard's restriction level.",
    );
  }
  // Newest update(): read from the raw body and applied only when truthy (so `{}` cannot clear them);
  // anything else truthy is refused with the same message for both, and no attr.
  for (const key of ["filters", "variables"] as const) {
    if (creating || !pyTruthy(body[key])) continue;
    const value = body[key];
    if (!isDict(value)) throw invalid("Filters must be a dictionary", null);
    d[key] = structuredClone(value);
  }
  if (!creating && "tiles" in body) applyTilesPatch(ctx, d, body.tiles);
}
