/**
 * The service's pagination envelopes. Links are absolute, built from the request's Host and path with
 * the query parameters sorted and `limit`/`offset` (or `cursor`) replaced, like DRF's helpers; the
 * previous link of the first page drops `offset`.
 */
import type { Ctx } from "./router.js";

export function pageLink(ctx: Ctx, set: Record<string, string | null>): string {
  const params = new Map<string, string[]>();
  for (const [k, v] of ctx.query) params.set(k, [...(params.get(k) ?? []), v]);
  for (const [k, v] of Object.entries(set)) {
    if (v === null) params.delete(k);
    else params.set(k, [v]);
  }
  const search = new URLSearchParams();
  for (const k of [...params.keys()].sort()) for (const v of params.get(k) ?? []) search.append(k, v);
  const query = search.toString();
  return `${ctx.origin}${ctx.path}${query ? `?${query}` : ""}`;
}

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

/** `{count, next, previous, results}`; an invalid limit falls back to the default like DRF. */
export function offsetPage<T, R>(ctx: Ctx, items: T[], render: (item: T) => R, defaultLimit = 100) {
  const limit = positiveInt(ctx.query.get("limit")) ?? defaultLimit;
  const offsetText = ctx.query.get("offset");
  const offset = offsetText !== null && /^\d+$/.test(offsetText.trim()) ? Number(offsetText) : 0;
  const count = items.length;
  const next =
    offset + limit < count ? pageLink(ctx, { limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0) {
    previous =
      offset - limit <= 0
        ? pageLink(ctx, { limit: String(limit), offset: null })
        : pageLink(ctx, { limit: String(limit), offset: String(offset - limit) });
  }
  return { count, next, previous, results: items.slice(offset, offset + limit).map(render) };
}

/**
 * `{next, previous, results}` with an opaque `cursor` (base64 of the position). A malformed cursor is
 * a 404 "Invalid cursor" like DRF's CursorPagination.
 */
export function cursorPage<T, R>(ctx: Ctx, items: T[], render: (item: T) => R, pageSize: number) {
  const raw = ctx.query.get("cursor");
  let offset = 0;
  if (raw !== null) {
    const decoded = /^o=(\d+)$/.exec(Buffer.from(raw, "base64").toString("utf8"));
    if (!decoded) return undefined;
    offset = Number(decoded[1]);
  }
  const encode = (o: number) => Buffer.from(`o=${o}`).toString("base64");
  const next = offset + pageSize < items.length ? pageLink(ctx, { cursor: encode(offset + pageSize) }) : null;
  const previous =
    offset > 0 ? pageLink(ctx, { cursor: offset - pageSize <= 0 ? null : encode(offset - pageSize) }) : null;
  return { next, previous, results: items.slice(offset, offset + pageSize).map(render) };
}
