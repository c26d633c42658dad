/**
 * Which flags a list-shaped request reaches (the service's `safely_get_queryset` and `_apply_filters`,
 * shared by the list, `matching_ids` and a filter-based `bulk_delete`): the project's flags that are not
 * deleted, not a product's internal targeting flag, and not archived unless `archived` is asked; then
 * the filters, given as query parameters (strings) or as a JSON body (native values): `active`
 * (`true` / `false` / `STALE`), `archived`, `key` (exact, any case), `created_by_id`, `search`, `type`,
 * `evaluation_runtime`, `excluded_properties`, `tags`, `excluded_tags`, `has_evaluation_contexts`,
 * `eligible_for_experiment`. Unknown parameters are ignored. Newest first, or by `order`.
 */
import { invalid } from "../errors.js";
import type { Ctx } from "../router.js";
import type { FeatureFlagRecord } from "../types.js";
import { isStaleForList } from "./flag-status.js";

export type FlagFilters = Array<[string, unknown]>;

/** A list parameter: a JSON body's list, or a query string's JSON text (anything else filters nothing). */
function jsonList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

const truthy = (value: unknown) =>
  typeof value === "boolean" ? value : String(value).toLowerCase() === "true";

function variantCount(f: FeatureFlagRecord): number {
  const multivariate = f.filters.multivariate as { variants?: unknown } | null | undefined;
  return Array.isArray(multivariate?.variants) ? multivariate.variants.length : 0;
}

/**
 * `parse_created_by_ids`: an id, a JSON list of ids or a comma-separated list; what is not an integer
 * is ignored (booleans included).
 */
export function createdByIds(value: unknown): number[] {
  if (typeof value === "number") return Number.isInteger(value) ? [value] : [];
  if (typeof value !== "string") return Array.isArray(value) ? value.filter(Number.isInteger) : [];
  let items: unknown[];
  try {
    const parsed: unknown = JSON.parse(value);
    items = Array.isArray(parsed) ? parsed : value.split(",");
  } catch {
    items = value.split(",");
  }
  return items
    .map((v) =>
      typeof v === "number" ? v : typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : Number.NaN,
    )
    .filter(Number.isInteger);
}

/**
 * `search`: the term (trimmed, at most 200 characters) escaped, each space standing for any run of
 * spaces, hyphens and underscores, matched in any case against the key, the name and the names of the
 * flag's experiments that are not deleted.
 */
function searchPattern(value: unknown): RegExp | undefined {
  if (typeof value !== "string") return undefined;
  const term = value.trim();
  if (term === "") return undefined;
  if (term.length > 200) throw invalid("Search term cannot exceed 200 characters");
  // A run of spaces is one separator: `[\s\-_]*` repeated back to back would backtrack.
  return new RegExp(
    term
      .split(/\s+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"))
      .join("[\\s\\-_]*"),
    "i",
  );
}

function matches(ctx: Ctx, f: FeatureFlagRecord, name: string, value: unknown, search?: RegExp): boolean {
  switch (name) {
    case "active":
      return value === "STALE" ? isStaleForList(f, ctx.now) : f.active === truthy(value);
    case "archived":
      return f.archived === truthy(value);
    case "key": {
      const key = String(value).trim().toLowerCase();
      return key === "" || f.key.toLowerCase() === key;
    }
    case "created_by_id": {
      const ids = createdByIds(value);
      return ids.length === 0 || ids.includes(f.created_by ?? -1);
    }
    case "search": {
      if (!search) return true;
      const experiments = ctx.store.data.experiments.filter((e) => e.feature_flag === f.id && !e.deleted);
      return [f.key, f.name, ...experiments.map((e) => e.name)].some((text) => search.test(text));
    }
    case "type":
      if (value === "boolean") return variantCount(f) === 0;
      if (value === "multivariant") return variantCount(f) > 0;
      if (value === "experiment") return ctx.store.data.experiments.some((e) => e.feature_flag === f.id);
      if (value === "remote_config") return f.is_remote_configuration;
      return true;
    case "evaluation_runtime":
      return f.evaluation_runtime === value;
    case "excluded_properties":
      return !jsonList(value).includes(f.key);
    case "tags": {
      const tags = jsonList(value);
      return tags.length === 0 || f.tags.some((t) => tags.includes(t));
    }
    case "excluded_tags": {
      const tags = jsonList(value);
      return !f.tags.some((t) => tags.includes(t));
    }
    case "has_evaluation_contexts": {
      const wanted =
        typeof value === "boolean" ? value : ["true", "1", "yes"].includes(String(value).toLowerCase());
      return f.evaluation_contexts.length > 0 === wanted;
    }
    case "eligible_for_experiment":
      return !truthy(value) || (variantCount(f) >= 2 && variantCount(f) <= 20);
    default:
      return true;
  }
}

/** Flags the service creates for its own products (a product tour's internal targeting flag). */
function internalFlags(ctx: Ctx): Set<number> {
  return new Set(
    ctx.store.data.product_tours
      .filter((t) => t.team_id === ctx.project.id && t.internal_targeting_flag !== null)
      .map((t) => t.internal_targeting_flag as number),
  );
}

/** The project's flags a list-shaped request starts from (archived ones only when `archived` is given). */
export function listableFlags(ctx: Ctx, filters: FlagFilters): FeatureFlagRecord[] {
  const archivedAsked = filters.some(([name]) => name === "archived");
  const internal = internalFlags(ctx);
  return ctx.store.data.feature_flags.filter(
    (f) =>
      f.team_id === ctx.project.id && !f.deleted && (archivedAsked || !f.archived) && !internal.has(f.id),
  );
}

/** `_apply_filters`: every filter given, each narrowing the flags. */
export function applyFilters(
  ctx: Ctx,
  flags: FeatureFlagRecord[],
  filters: FlagFilters,
): FeatureFlagRecord[] {
  const search = searchPattern(filters.find(([name]) => name === "search")?.[1]);
  return flags.filter((f) => filters.every(([name, value]) => matches(ctx, f, name, value, search)));
}

/** Newest first (`-created_at`), or by the `order` parameter (a field, `-` for descending). */
export function sortFlags(ctx: Ctx, flags: FeatureFlagRecord[]): FeatureFlagRecord[] {
  const order = ctx.query.get("order");
  const field = (order ?? "-created_at").replace(/^-/, "") as keyof FeatureFlagRecord;
  const direction = (order ?? "-created_at").startsWith("-") ? -1 : 1;
  const known = ["created_at", "updated_at", "key", "name", "id", "active"].includes(field);
  const by = known ? field : "created_at";
  return [...flags].sort((a, b) => {
    const x = a[by] as string | number | boolean;
    const y = b[by] as string | number | boolean;
    if (x < y) return -direction;
    if (x > y) return direction;
    return known && by !== "created_at" ? 0 : b.id - a.id;
  });
}
