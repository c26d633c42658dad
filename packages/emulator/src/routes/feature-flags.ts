/**
 * `/api/projects/:project/feature_flags/...` (service-api.md §10): list (limit/offset, newest first,
 * without deleted flags and, unless `?archived=` is given, without archived ones; `?key=` exact and
 * case-insensitive, `search`, `active`, `type`, `evaluation_runtime`, `tags`, `excluded_properties`),
 * create, retrieve and PATCH / PUT (soft-deleted flags included), DELETE → 405 with an empty body,
 * `dependent_flags`, `bulk_keys`, and the lifecycle actions `enable` / `disable` / `archive` /
 * `unarchive`, which change only the state fields and refuse a soft-deleted flag. Access control rules
 * apply per flag as for every resource (access.ts, the service's `AccessControlViewSetMixin`): the list
 * leaves out the flags a rule denies, a read needs `viewer` and a write or lifecycle action `editor`
 * (403 otherwise).
 */

import { filterByAccess, requireAccess } from "../access.js";
import { invalid } from "../errors.js";
import { asBody } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { addModelWrites, type Ctx, type Router } from "../router.js";
import type { FeatureFlagRecord } from "../types.js";
import { strToBool } from "./destinations.js";
import { dependentFlags } from "./flag-filters.js";
import { findFlag, renderFlag } from "./flag-view.js";
import { createFlag, updateFlag } from "./flag-write.js";

const BASE = "/api/projects/:project/feature_flags";
const DAY = 86_400_000;

function jsonList(value: string): string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

function variantCount(f: FeatureFlagRecord): number {
  const multivariate = f.filters.multivariate as { variants?: unknown } | null | undefined;
  return Array.isArray(multivariate?.variants) ? multivariate.variants.length : 0;
}

/** The list's query filters, applied like the service's `_apply_filters`. */
function matchesQuery(ctx: Ctx, f: FeatureFlagRecord): boolean {
  for (const [name, value] of ctx.query) {
    switch (name) {
      case "active":
        if (value === "STALE") {
          const called = f.last_called_at === null ? 0 : Date.parse(f.last_called_at);
          if (!f.active || ctx.now.getTime() - called <= 30 * DAY) return false;
        } else if (f.active !== strToBool(value)) return false;
        break;
      case "archived":
        if (f.archived !== strToBool(value)) return false;
        break;
      case "key":
        if (value.trim() !== "" && f.key.toLowerCase() !== value.trim().toLowerCase()) return false;
        break;
      case "search": {
        // `Q(key__icontains=search) | Q(name__icontains=search)`: a substring of either, any case;
        // never a pattern (a term is text, and a regular expression built from it could backtrack).
        const term = value.trim();
        if (term === "") break;
        if (term.length > 200) throw invalid("Search term cannot exceed 200 characters");
        const needle = term.toLowerCase();
        if (!f.key.toLowerCase().includes(needle) && !f.name.toLowerCase().includes(needle)) return false;
        break;
      }
      case "type":
        if (value === "boolean" && variantCount(f) > 0) return false;
        if (value === "multivariant" && variantCount(f) === 0) return false;
        if (value === "experiment" && !ctx.store.data.experiments.some((e) => e.feature_flag === f.id))
          return false;
        if (value === "remote_config" && !f.is_remote_configuration) return false;
        break;
      case "evaluation_runtime":
        if (f.evaluation_runtime !== value) return false;
        break;
      case "excluded_properties":
        if (jsonList(value).includes(f.key)) return false;
        break;
      case "tags": {
        const tags = jsonList(value);
        if (tags.length > 0 && !f.tags.some((t) => tags.includes(t))) return false;
        break;
      }
      case "created_by_id": {
        const ids = value
          .split(",")
          .map((v) => Number(v.trim()))
          .filter(Number.isInteger);
        if (ids.length > 0 && !ids.includes(f.created_by ?? -1)) return false;
        break;
      }
    }
  }
  return true;
}

/** A flag of the `:id` route parameter the caller may reach at `level` (403 otherwise, as the service's permission). */
function controlledFlag(ctx: Ctx, level: "viewer" | "editor"): FeatureFlagRecord {
  const flag = findFlag(ctx);
  requireAccess(ctx, "feature_flag", flag, level);
  return flag;
}

function list(ctx: Ctx) {
  const archivedAsked = ctx.query.has("archived");
  const items = filterByAccess(ctx, "feature_flag", ctx.store.data.feature_flags)
    .filter((f) => f.team_id === ctx.project.id && !f.deleted && (archivedAsked || !f.archived))
    .filter((f) => matchesQuery(ctx, f))
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
  return { status: 200, body: offsetPage(ctx, items, (f) => renderFlag(ctx, f, true)) };
}

function create(ctx: Ctx) {
  return { status: 201, body: renderFlag(ctx, createFlag(ctx, asBody(ctx.body))) };
}

function update(ctx: Ctx, partial: boolean) {
  const flag = updateFlag(ctx, controlledFlag(ctx, "editor"), asBody(ctx.body), { partial });
  return { status: 200, body: renderFlag(ctx, flag) };
}

/** The lifecycle actions answer a deleted flag with the service's ad-hoc body, not an error object. */
function deletedRefusal(flag: FeatureFlagRecord, doing: string) {
  if (!flag.deleted) return undefined;
  return {
    status: 400,
    body: { success: false, error: `This feature flag has been deleted. Restore it before ${doing}.` },
  };
}

function setActive(ctx: Ctx, active: boolean) {
  const flag = controlledFlag(ctx, "editor");
  const refusal = deletedRefusal(flag, active ? "enabling it" : "disabling it");
  if (refusal) return refusal;
  if (flag.active !== active)
    updateFlag(ctx, flag, { active }, { partial: true, lifecycle: { disableWording: "disable" } });
  return { status: 200, body: renderFlag(ctx, flag) };
}

function archive(ctx: Ctx, archived: boolean) {
  const flag = controlledFlag(ctx, "editor");
  const refusal = deletedRefusal(flag, archived ? "archiving it" : "unarchiving it");
  if (refusal) return refusal;
  if (flag.archived !== archived) {
    // Archiving an enabled flag disables it in the same write (an archived flag must be disabled).
    const body = archived && flag.active ? { archived, active: false } : { archived };
    updateFlag(ctx, flag, body, { partial: true, lifecycle: { disableWording: "disable" } });
  }
  return { status: 200, body: renderFlag(ctx, flag) };
}

function dependents(ctx: Ctx) {
  const flag = controlledFlag(ctx, "viewer");
  return {
    status: 200,
    body: dependentFlags(ctx, flag).map((f) => ({ id: f.id, key: f.key, name: f.name || f.key })),
  };
}

function bulkKeys(ctx: Ctx) {
  const body = asBody(ctx.body);
  const ids = Array.isArray(body.ids) ? body.ids : [];
  if (ids.length === 0) return { status: 200, body: { keys: {} } };
  const valid = ids
    .filter((id) => Number.isInteger(id) || (typeof id === "string" && /^\d+$/.test(id)))
    .map(Number);
  const invalidIds = ids.filter(
    (id) => !(Number.isInteger(id) || (typeof id === "string" && /^\d+$/.test(id))),
  );
  if (valid.length === 0) return { status: 400, body: { error: "Invalid flag IDs provided" } };
  const keys = Object.fromEntries(
    ctx.store.data.feature_flags
      .filter((f) => f.team_id === ctx.project.id && !f.deleted && valid.includes(f.id))
      .map((f) => [String(f.id), f.key]),
  );
  const warning =
    invalidIds.length > 0 ? { warning: `Invalid flag IDs ignored: ${JSON.stringify(invalidIds)}` } : {};
  return { status: 200, body: { keys, ...warning } };
}

export function registerFeatureFlags(router: Router): void {
  const read = "feature_flag:read";
  const write = "feature_flag:write";
  router.add({ method: "GET", pattern: BASE, scope: read, handler: list });
  router.add({ method: "POST", pattern: BASE, scope: write, handler: create });
  router.add({ method: "POST", pattern: `${BASE}/bulk_keys`, scope: read, handler: bulkKeys });
  router.add({
    method: "GET",
    pattern: `${BASE}/:id`,
    scope: read,
    handler: (ctx) => ({ status: 200, body: renderFlag(ctx, controlledFlag(ctx, "viewer"), true) }),
  });
  addModelWrites(router, `${BASE}/:id`, { scope: write }, update);
  router.add({ method: "GET", pattern: `${BASE}/:id/dependent_flags`, scope: read, handler: dependents });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/enable`,
    scope: write,
    handler: (ctx) => setActive(ctx, true),
  });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/disable`,
    scope: write,
    handler: (ctx) => setActive(ctx, false),
  });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/archive`,
    scope: write,
    handler: (ctx) => archive(ctx, true),
  });
  router.add({
    method: "POST",
    pattern: `${BASE}/:id/unarchive`,
    scope: write,
    handler: (ctx) => archive(ctx, false),
  });
}
