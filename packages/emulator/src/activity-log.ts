/**
 * The activity log (posthog/models/activity_logging/activity_log.py): the rows a write leaves
 * (`log_activity`), one per created, updated, deleted or restored object, and how the service shows
 * them (`ActivityLogSerializer` in a page of `activity_page_response`). A write that is refused leaves
 * none, and an update that changes nothing is not logged. Flag writes keep the row only (no change
 * details, no endpoint); insight writes keep the `Detail` the service stores (routes/insight-activity.ts).
 */
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { serverError } from "./errors.js";
import { pyInt } from "./fields.js";
import type { Ctx } from "./router.js";
import type { ActivityChange, ActivityDetail, ActivityLogRecord } from "./types.js";

export function logActivity(
  ctx: Ctx,
  entry: {
    scope: string;
    itemId: number | string;
    activity: "created" | "updated" | "deleted" | "restored";
    name: string | null;
    detail?: ActivityDetail;
  },
): void {
  // `log_activity`: an update without changes is not written.
  if (entry.detail && entry.activity === "updated" && (entry.detail.changes ?? []).length === 0) return;
  ctx.store.data.activity_log.push({
    id: randomUUID(),
    team_id: ctx.project.id,
    scope: entry.scope,
    item_id: String(entry.itemId),
    activity: entry.activity,
    user: ctx.user.id > 0 ? ctx.user.id : null,
    created_at: ctx.now.toISOString(),
    name: entry.name,
    ...(entry.detail ? { detail: entry.detail } : {}),
  });
}

/** Django's `Field.empty_values`: what `changes_between` treats as "no value" on a model field. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/**
 * One field of `changes_between`: `created` when it gains a value, `deleted` when it loses it,
 * `changed` otherwise (dicts compare as Python compares them: key order does not matter). A reverse
 * relation (tags) has no empty values, so `[]` to `["a"]` is a change, not a creation.
 */
export function fieldChange(
  scope: string,
  field: string,
  before: unknown,
  after: unknown,
  relation = false,
): ActivityChange | undefined {
  const leftEmpty = relation ? before === null || before === undefined : isEmpty(before);
  const rightEmpty = relation ? after === null || after === undefined : isEmpty(after);
  if (leftEmpty && rightEmpty) return undefined;
  if (leftEmpty)
    return { type: scope, action: "created", field, before: null, after: structuredClone(after) };
  if (rightEmpty)
    return { type: scope, action: "deleted", field, before: structuredClone(before), after: null };
  if (isDeepStrictEqual(before, after)) return undefined;
  return {
    type: scope,
    action: "changed",
    field,
    before: structuredClone(before),
    after: structuredClone(after),
  };
}

/** DRF's `DateTimeField`: `2012-01-14T03:21:34Z`, with microseconds only when there are any. */
export function drfDateTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const text = new Date(ms).toISOString();
  return text.endsWith(".000Z") ? text.replace(".000Z", "Z") : text.replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** `ActivityLogSerializer`: the user as `{first_name, email}` (a system row as "System"), the detail as stored. */
function renderEntry(ctx: Ctx, row: ActivityLogRecord) {
  const user = row.user === null ? undefined : ctx.store.data.users.find((u) => u.id === row.user);
  const detail = row.detail ?? { name: row.name, short_id: null, type: null, changes: null, trigger: null };
  return {
    id: row.id,
    user:
      row.user === null
        ? { first_name: "System", email: null, is_system: true }
        : { first_name: user?.first_name ?? "", email: user?.email ?? null },
    activity: row.activity,
    scope: row.scope,
    item_id: row.item_id,
    detail: {
      changes: detail.changes === null ? null : detail.changes.map((c) => ({ ...c })),
      trigger: detail.trigger,
      name: detail.name,
      short_id: detail.short_id,
      type: detail.type,
    },
    created_at: drfDateTime(row.created_at),
  };
}

/** Python's `int()` of a query parameter; what it refuses is the service's 500. */
function pythonInt(raw: string | null, fallback: number): number {
  if (raw === null) return fallback;
  const value = pyInt(raw);
  if (value === undefined) throw serverError();
  return value;
}

/**
 * `format_query_params_absolute_url(request, page, limit, offset_alias="page")`: the request's own URL
 * with `page` and `limit` set in place (or appended).
 */
function pageUrl(ctx: Ctx, page: number, limit: number): string {
  const query = ctx.query.toString();
  let url = `${ctx.origin}${ctx.path}${query ? `?${query}` : ""}`;
  for (const [name, value] of [
    ["page", page],
    ["limit", limit],
  ] as const) {
    const pattern = new RegExp(`([&?]${name}=)(\\d+)`, "g");
    url = pattern.test(url)
      ? url.replace(pattern, `$1${value}`)
      : `${url}${url.includes("?") ? "&" : "?"}${name}=${value}`;
  }
  return url;
}

/**
 * `load_activity` + `activity_page_response`: the rows of one scope in the project (of some items
 * when `itemIds` is given), newest first, in pages of `?limit=` (10) numbered by `?page=` (1) —
 * `{results, next, previous, total_count}` with absolute links. Rows written in the same instant keep
 * the order they were written in (newest first). A limit or page the service's `int()` and Django's
 * paginator refuse (not a number, under 1, a page past the last) is the service's 500.
 */
export function activityPage(ctx: Ctx, scope: string, itemIds?: readonly string[]) {
  const limit = pythonInt(ctx.query.get("limit"), 10);
  const page = pythonInt(ctx.query.get("page"), 1);
  if (limit < 1 || page < 1) throw serverError();
  const rows = ctx.store.data.activity_log
    .map((row, index) => ({ row, index }))
    .filter(
      ({ row }) =>
        row.team_id === ctx.project.id &&
        row.scope === scope &&
        (itemIds === undefined || itemIds.includes(row.item_id)),
    )
    .sort((a, b) => Date.parse(b.row.created_at) - Date.parse(a.row.created_at) || b.index - a.index)
    .map(({ row }) => row);
  const pages = Math.max(1, Math.ceil(rows.length / limit));
  if (page > pages) throw serverError();
  return {
    results: rows.slice((page - 1) * limit, page * limit).map((row) => renderEntry(ctx, row)),
    next: page < pages ? pageUrl(ctx, page + 1, limit) : null,
    previous: page > 1 ? pageUrl(ctx, page - 1, limit) : null,
    total_count: rows.length,
  };
}
