/**
 * The flag list's bulk actions (the service's `bulk_keys`, `matching_ids` and `bulk_delete`): keys by
 * id for the flags the caller may see; the ids of the flags a list request would show that the caller
 * may edit; and soft deletion of many flags at once, by the list's filters or by ids, each flag either
 * deleted (reported with its rollout state) or refused with the reason (an early access feature, a
 * running experiment, dependent flags). Bulk deletion writes the rows directly, as the service's
 * `queryset.update` does: no version bump, no approval gate.
 */
import { filterByAccess, satisfies, userAccessLevel } from "../access.js";
import { logActivity } from "../activity-log.js";
import { asBody, isDict } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { FeatureFlagRecord } from "../types.js";
import { dependentFlags, earlyAccessFeatures, runningExperiments } from "./flag-filters.js";
import { pyRepr } from "./flag-payloads.js";
import { applyFilters, type FlagFilters, listableFlags } from "./flag-query.js";
import { rolloutState } from "./flag-status.js";

type Json = Record<string, unknown>;

/** The filter keys a filter-based bulk delete accepts (`BulkDeleteFiltersSerializer`). */
const BULK_DELETE_FILTERS = new Set([
  "active",
  "archived",
  "created_by_id",
  "search",
  "type",
  "evaluation_runtime",
  "excluded_properties",
  "tags",
  "excluded_tags",
  "has_evaluation_contexts",
]);

const isId = (id: unknown) =>
  (Number.isInteger(id) && (id as number) >= 0) || (typeof id === "string" && /^\d+$/.test(id));

const editable = (ctx: Ctx, flag: FeatureFlagRecord) => {
  const level = userAccessLevel(ctx, "feature_flag", flag);
  return level !== null && satisfies("feature_flag", level, "editor");
};

/** `bulk_keys`: `{ids}` → `{keys: {id: key}}` for the flags the caller may see (ids that are not ids warned about). */
function bulkKeys(ctx: Ctx) {
  const body = asBody(ctx.body);
  const ids = Array.isArray(body.ids) ? body.ids : [];
  if (ids.length === 0) return { status: 200, body: { keys: {} } };
  const valid = ids.filter(isId).map(Number);
  const invalidIds = ids.filter((id) => !isId(id));
  if (valid.length === 0) return { status: 400, body: { error: "Invalid flag IDs provided" } };
  // The flags the caller may see, as the list filters them (an admin sees all, a creator their own).
  const keys = Object.fromEntries(
    filterByAccess(ctx, "feature_flag", ctx.store.data.feature_flags, true)
      .filter((f) => f.team_id === ctx.project.id && !f.deleted && valid.includes(f.id))
      .map((f) => [String(f.id), f.key]),
  );
  const warning = invalidIds.length > 0 ? { warning: `Invalid flag IDs ignored: ${pyRepr(invalidIds)}` } : {};
  return { status: 200, body: { keys, ...warning } };
}

/** `matching_ids`: `{ids, total}` of the flags the list's filters match that the caller may edit. */
function matchingIds(ctx: Ctx) {
  const filters: FlagFilters = [...ctx.query];
  const ids = applyFilters(ctx, listableFlags(ctx, filters), filters)
    .filter((f) => editable(ctx, f))
    .map((f) => f.id)
    .sort((a, b) => a - b);
  return { status: 200, body: { ids, total: ids.length } };
}

/** Why a flag may not be deleted here, or undefined. */
function refusal(ctx: Ctx, flag: FeatureFlagRecord): string | undefined {
  if (earlyAccessFeatures(ctx, flag).length > 0) {
    return "Cannot delete a feature flag that is in use with early access features";
  }
  const running = runningExperiments(ctx, flag);
  if (running.length > 0) {
    return `Cannot delete a feature flag linked to running experiment(s): ${running
      .map((e) => `"${e.name}" (ID: ${e.id})`)
      .join(", ")}`;
  }
  const dependents = dependentFlags(ctx, flag);
  if (dependents.length > 0) {
    const names = dependents.slice(0, 3).map((f) => `${f.key} (ID: ${f.id})`);
    if (dependents.length > 3) names.push(`and ${dependents.length - 3} more`);
    return `Cannot delete because other flags depend on it: ${names.join(", ")}`;
  }
  return undefined;
}

/** `bulk_delete`: `{filters}` (the list's, archived flags left out unless asked) or `{ids}`, not both. */
function bulkDelete(ctx: Ctx) {
  const body = asBody(ctx.body);
  const filters = isDict(body.filters) ? body.filters : {};
  const explicit = Array.isArray(body.ids) ? body.ids : [];
  const hasFilters = Object.keys(filters).length > 0;
  if (hasFilters && explicit.length > 0) {
    return { status: 400, body: { error: "Provide either filters or ids, not both" } };
  }
  if (!hasFilters && explicit.length === 0) {
    return { status: 400, body: { error: "Must provide either filters or ids" } };
  }
  const unknown = Object.keys(filters)
    .filter((k) => !BULK_DELETE_FILTERS.has(k))
    .sort();
  if (unknown.length > 0)
    return { status: 400, body: { error: `Unknown filter keys: ${unknown.join(", ")}` } };

  let flags: FeatureFlagRecord[];
  if (hasFilters) {
    const given: FlagFilters = Object.entries(filters);
    flags = applyFilters(ctx, listableFlags(ctx, given), given);
  } else {
    const ids = new Set(explicit.filter(isId).map(Number));
    // An id reaches archived flags too: only deleted ones and internal flags are out of reach.
    flags = listableFlags(ctx, [["archived", true]]).filter((f) => ids.has(f.id));
  }
  flags = flags.filter((f) => editable(ctx, f)).sort((a, b) => a.id - b.id);

  const errors: Json[] = [];
  const found = new Set(flags.map((f) => f.id));
  for (const id of explicit) {
    if (!isId(id)) errors.push({ id, reason: "Invalid flag ID format" });
    else if (!found.has(Number(id))) errors.push({ id: Number(id), reason: "Flag not found" });
  }
  // Every refusal is decided before any flag changes, as the service checks the whole batch first.
  const decisions = flags.map((flag) => ({ flag, reason: refusal(ctx, flag) }));
  const deleted: Json[] = [];
  const now = ctx.now.toISOString();
  for (const { flag, reason } of decisions) {
    if (reason) {
      errors.push({ id: flag.id, key: flag.key, reason });
      continue;
    }
    deleted.push({ id: flag.id, key: flag.key, ...rolloutState(flag) });
    // A flag an experiment still points at keeps its row under a tombstone key, freeing the key.
    if (ctx.store.data.experiments.some((e) => e.feature_flag === flag.id)) {
      flag.key = `${flag.key}:deleted:${flag.id}`;
    }
    flag.deleted = true;
    flag.last_modified_by = ctx.user.id;
    flag.updated_at = now;
    logActivity(ctx, {
      scope: "FeatureFlag",
      itemId: flag.id,
      activity: "deleted",
      name: deleted.at(-1)?.key as string,
    });
  }
  return { status: 200, body: { deleted, errors } };
}

/** Registered before `…/:id`, whose parameter would otherwise take the action's name. */
export function registerBulkActions(router: Router, base: string): void {
  router.add({ method: "POST", pattern: `${base}/bulk_keys`, scope: "feature_flag:read", handler: bulkKeys });
  router.add({
    method: "GET",
    pattern: `${base}/matching_ids`,
    scope: "feature_flag:read",
    handler: matchingIds,
  });
  router.add({
    method: "POST",
    pattern: `${base}/bulk_delete`,
    scope: "feature_flag:write",
    handler: bulkDelete,
  });
}
