/**
 * The legacy events list (service-api.md §5): `{next, results}` without count, newest first by
 * default, exclusive `after` / `before` (ISO or relative), `event`, `distinct_id`, `person_id`,
 * `properties` (JSON array of filters), `limit` (default 100, max 1000), `orderBy`, `next` built by
 * copying every parameter and moving `before` (or `after` when ascending) to the last row; CSV with
 * `format=csv`. Also retrieve by UUID and `values/`. Throttled in the events bucket.
 */
import { ApiError, errorBody, invalid, notFound } from "../errors.js";
import type { Ctx, Router } from "../router.js";
import { isoWithOffset, parseTime } from "../time.js";
import type { EventRecord } from "../types.js";
import { isUuid } from "./batch-export-view.js";
import { toCsv } from "./csv.js";
import { matchesAll, parsePropertyFilters } from "./property-filters.js";

function render(e: EventRecord, includePerson: boolean) {
  const props = e.properties;
  return {
    id: e.id,
    distinct_id: e.distinct_id,
    properties: structuredClone(props),
    event: e.event,
    timestamp: isoWithOffset(Date.parse(e.timestamp)),
    person: includePerson
      ? {
          is_identified: e.person_id !== null,
          distinct_ids: [e.distinct_id],
          properties: { email: props.$email ?? null, name: props.$name ?? null, username: null },
        }
      : null,
    elements: [],
    elements_chain: e.elements_chain,
  };
}

function timeParam(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return undefined;
  const ms = parseTime(raw, ctx.now.getTime());
  if (ms === undefined) throw invalid(`Unable to parse '${name}': ${raw}`, name);
  return ms;
}

function list(ctx: Ctx) {
  const accept = String(ctx.headers.accept ?? "");
  const q = ctx.query;
  const now = ctx.now.getTime();
  const after = timeParam(ctx, "after");
  const before = timeParam(ctx, "before") ?? now + 5000;
  const filters = parsePropertyFilters(q.get("properties"));
  let ascending = false;
  const orderBy = q.get("orderBy");
  if (orderBy) {
    try {
      const parsed: unknown = JSON.parse(orderBy);
      ascending = Array.isArray(parsed) && parsed[0] === "timestamp";
    } catch {
      throw invalid("orderBy must be a JSON array", "orderBy");
    }
  }
  const rawLimit = q.get("limit");
  const limit =
    rawLimit !== null && /^\d+$/.test(rawLimit) && Number(rawLimit) > 0
      ? Math.min(1000, Number(rawLimit))
      : 100;
  const event = q.get("event");
  const distinctId = q.get("distinct_id");
  const personId = q.get("person_id");
  const rows = ctx.store.data.events.filter((e) => {
    if (e.team_id !== ctx.project.id) return false;
    const t = Date.parse(e.timestamp);
    if (t >= before || (after !== undefined && t <= after)) return false;
    if (event && e.event !== event) return false;
    if (distinctId && e.distinct_id !== distinctId) return false;
    if (personId && e.person_id !== personId) return false;
    return matchesAll(e.properties, filters);
  });
  rows.sort((a, b) => (ascending ? 1 : -1) * (Date.parse(a.timestamp) - Date.parse(b.timestamp)));
  const page = rows.slice(0, limit);
  const includePerson = q.get("include_person") === "true";
  const results = page.map((e) => render(e, includePerson));
  if (q.get("format") === "csv" || accept.includes("text/csv")) {
    return { status: 200, text: toCsv(results), headers: { "Content-Type": "text/csv; charset=utf-8" } };
  }
  let next: string | null = null;
  const last = page[page.length - 1];
  if (rows.length > limit && last) {
    const params = new URLSearchParams(q);
    params.set(ascending ? "after" : "before", isoWithOffset(Date.parse(last.timestamp)));
    next = `${ctx.origin}${ctx.path}?${params.toString()}`;
  }
  return { status: 200, body: { next, results } };
}

function retrieve(ctx: Ctx) {
  const id = ctx.params.id ?? "";
  if (!isUuid(id)) throw new ApiError(400, errorBody("validation_error", "invalid", "Invalid UUID"));
  const e = ctx.store.data.events.find((x) => x.id === id.toLowerCase() && x.team_id === ctx.project.id);
  if (!e) throw notFound(`No events exist for event UUID ${id}`);
  return { status: 200, body: render(e, false) };
}

function values(ctx: Ctx) {
  const key = ctx.query.get("key");
  const eventNames = ctx.query.getAll("event_name").filter(Boolean);
  if (!key) throw invalid("This field is required.", "key", "required");
  if (eventNames.length === 0)
    throw invalid("event_name is required when using a personal API key", "event_name");
  const search = ctx.query.get("value")?.toLowerCase() ?? "";
  const seen = new Set<string>();
  for (const e of ctx.store.data.events) {
    if (e.team_id !== ctx.project.id || !eventNames.includes(e.event)) continue;
    const v = e.properties[key];
    if (v === undefined || v === null) continue;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    if (search === "" || text.toLowerCase().includes(search)) seen.add(text);
    if (seen.size >= 100) break;
  }
  return { status: 200, body: [...seen].map((name) => ({ name })) };
}

export function registerEvents(router: Router): void {
  const base = "/api/projects/:project/events";
  router.add({ method: "GET", pattern: base, scope: "query:read", bucket: "events", handler: list });
  router.add({
    method: "GET",
    pattern: `${base}/values`,
    scope: "query:read",
    bucket: "events",
    handler: values,
  });
  router.add({
    method: "GET",
    pattern: `${base}/:id`,
    scope: "query:read",
    bucket: "events",
    handler: retrieve,
  });
}
