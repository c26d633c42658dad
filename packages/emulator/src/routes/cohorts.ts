/**
 * `/api/projects/:project/cohorts/...` (service-api.md §12; the newest posthog/api/cohort.py
 * `CohortViewSet`; no `/api/environments/` twin): list (limit/offset, newest first, without deleted
 * cohorts; `search` (trigram, exact hits first, `search_match_type`, 200 characters at most), `type`,
 * `created_by_id`, `hide_behavioral_cohorts`, `basic`), create, retrieve, PATCH, PUT (soft-deleted
 * cohorts included), DELETE → 405, `used_in/`, `calculation_history/`,
 * `add_persons_to_static_cohort/` and `remove_person_from_static_cohort/`. Scope `cohort:read` /
 * `cohort:write`. Reads first finish the calculations that are due (cohort-calculation.ts).
 */
import { filterByAccess } from "../access.js";
import { settleCalculations } from "../cohort-calculation.js";
import { invalid, notFound } from "../errors.js";
import { asBody } from "../fields.js";
import { offsetPage } from "../pagination.js";
import { addModelWrites, type Ctx, type Router } from "../router.js";
import { flagOn } from "../service.js";
import { MIN_NAME_TRIGRAM_SIMILARITY, trigramSearch } from "../trigram.js";
import type { CohortRecord } from "../types.js";
import {
  behaviouralCohortIds,
  cohortsUsingCohort,
  flagsUsingCohort,
  insightsUsingCohort,
} from "./cohort-graph.js";
import { findCohort, renderCohort } from "./cohort-view.js";
import { createCohort, updateCohort } from "./cohort-write.js";
import { strToBool } from "./destinations.js";

const BASE = "/api/projects/:project/cohorts";
const USED_IN_PAGE_SIZE = 100;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function settle(ctx: Ctx): void {
  settleCalculations(ctx.store, ctx.project.id, ctx.now);
}

const newestFirst = (a: CohortRecord, b: CohortRecord) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id;

function list(ctx: Ctx) {
  settle(ctx);
  const q = ctx.query;
  let items = ctx.store.data.cohorts.filter((c) => c.team_id === ctx.project.id && !c.deleted);
  if ((q.get("hide_behavioral_cohorts") ?? "false").toLowerCase() === "true") {
    const hidden = behaviouralCohortIds(
      ctx.store,
      ctx.project.id,
      flagOn(ctx.store, "realtime-cohort-flag-targeting"),
    );
    items = items.filter((c) => !hidden.has(c.id));
  }
  const type = q.get("type");
  if (type === "static") items = items.filter((c) => c.is_static);
  else if (type === "dynamic") items = items.filter((c) => !c.is_static);
  const createdBy = q.get("created_by_id");
  if (createdBy !== null) items = items.filter((c) => String(c.created_by) === createdBy.trim());
  const search = q.get("search");
  let hits: Map<number, { score: number; exact: boolean }> | undefined;
  if (search !== null) {
    if (search.length > 200) throw invalid("Search query must be 200 characters or fewer.", "search");
    const needle = search.replaceAll("\u0000", "").trim();
    if (needle !== "") {
      const found = trigramSearch(items, needle, [
        { value: (c) => c.name, weight: 1, threshold: MIN_NAME_TRIGRAM_SIMILARITY, includeFull: true },
      ]);
      hits = new Map(found.map((h) => [h.item.id, { score: h.score, exact: h.exact }]));
      items = found.map((h) => h.item);
    }
  }
  items.sort((a, b) => {
    if (hits) {
      const ha = hits.get(a.id);
      const hb = hits.get(b.id);
      const byExact = Number(hb?.exact ?? false) - Number(ha?.exact ?? false);
      if (byExact !== 0) return byExact;
      const byScore = (hb?.score ?? 0) - (ha?.score ?? 0);
      if (byScore !== 0) return byScore;
    }
    return newestFirst(a, b);
  });
  const basic = strToBool(q.get("basic") ?? "0");
  return {
    status: 200,
    body: offsetPage(ctx, items, (c) => {
      const rendered = renderCohort(ctx, c, { basic });
      if (hits) rendered.search_match_type = hits.get(c.id)?.exact ? "exact" : "similar";
      return rendered;
    }),
  };
}

function retrieve(ctx: Ctx) {
  settle(ctx);
  return { status: 200, body: renderCohort(ctx, findCohort(ctx)) };
}

function create(ctx: Ctx) {
  settle(ctx);
  return { status: 201, body: renderCohort(ctx, createCohort(ctx)) };
}

function update(ctx: Ctx) {
  settle(ctx);
  return { status: 200, body: renderCohort(ctx, updateCohort(ctx, findCohort(ctx))) };
}

function block<T>(items: T[]) {
  return {
    results: items.slice(0, USED_IN_PAGE_SIZE),
    total: items.length,
    has_more: items.length > USED_IN_PAGE_SIZE,
  };
}

/** `used_in/`: flags (inactive too, not soft-deleted), insights and cohorts naming the cohort. */
function usedIn(ctx: Ctx) {
  settle(ctx);
  const cohort = findCohort(ctx);
  const flags = flagsUsingCohort(ctx.store, cohort, {
    activeOnly: false,
    flags: filterByAccess(ctx, "feature_flag", ctx.store.data.feature_flags, true),
  });
  const insights = filterByAccess(ctx, "insight", insightsUsingCohort(ctx.store, cohort));
  const cohorts = cohortsUsingCohort(ctx.store, cohort);
  return {
    status: 200,
    body: {
      feature_flags: block(flags.map((f) => ({ id: f.id, key: f.key, name: f.name }))),
      insights: block(
        insights.map((i) => ({
          id: i.id,
          short_id: i.short_id,
          name: i.name || i.derived_name || "Unnamed",
        })),
      ),
      cohorts: block(cohorts.map((c) => ({ id: c.id, name: c.name || "Unnamed" }))),
    },
  };
}

function intParam(value: string | null, fallback: number): number {
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : fallback;
}

/** `calculation_history/`: newest first, `next` / `previous` as relative query strings. */
function calculationHistory(ctx: Ctx) {
  settle(ctx);
  const cohort = findCohort(ctx);
  const limit = intParam(ctx.query.get("limit"), 100);
  const offset = intParam(ctx.query.get("offset"), 0);
  const all = [...cohort.calculations].sort((a, b) =>
    a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0,
  );
  const results = all.slice(offset, offset + limit).map((h) => {
    const duration =
      h.finished_at === null ? null : (Date.parse(h.finished_at) - Date.parse(h.started_at)) / 1000;
    return {
      id: h.id,
      filters: h.filters,
      count: h.count,
      started_at: h.started_at,
      finished_at: h.finished_at,
      queries: [],
      error: h.error,
      duration_seconds: duration,
      is_completed: h.finished_at !== null,
      is_successful: h.finished_at !== null && (h.error === null || h.error === ""),
      total_query_ms: 0,
      total_memory_mb: 0,
      total_read_rows: 0,
      total_written_rows: 0,
      main_query: null,
      main_query_id: null,
    };
  });
  return {
    status: 200,
    body: {
      results,
      count: all.length,
      next: offset + limit >= all.length ? null : `?limit=${limit}&offset=${offset + limit}`,
      previous: offset === 0 ? null : `?limit=${limit}&offset=${Math.max(0, offset - limit)}`,
    },
  };
}

function addPersons(ctx: Ctx) {
  settle(ctx);
  const cohort = findCohort(ctx);
  if (!cohort.is_static) throw invalid("Can only add users to static cohorts");
  const ids = asBody(ctx.body).person_ids;
  if (!Array.isArray(ids)) throw invalid("person_ids must be a list");
  if (ids.length === 0) throw invalid("person_ids cannot be empty");
  if (ids.length > 1000) throw invalid("List size exceeds limit");
  const wanted = new Set(ids.map(String));
  const found = ctx.store.data.persons.filter((p) => p.team_id === ctx.project.id && wanted.has(p.uuid));
  if (found.length === 0) throw invalid("No valid users to add to cohort");
  cohort.people = [...new Set([...cohort.people, ...found.map((p) => p.uuid)])];
  cohort.count = cohort.people.length;
  return { status: 200, body: { success: true } };
}

function removePerson(ctx: Ctx) {
  settle(ctx);
  const cohort = findCohort(ctx);
  if (!cohort.is_static) throw invalid("Can only remove users from static cohorts");
  const body = asBody(ctx.body);
  const id = body.person_id;
  if (!id) throw invalid("person_id is required");
  if (typeof id !== "string") throw invalid("person_id must be a string");
  if (!UUID.test(id)) throw invalid("person_id must be a valid UUID");
  const normal = id.replaceAll("-", "").toLowerCase();
  const person = ctx.store.data.persons.find(
    (p) => p.team_id === ctx.project.id && p.uuid.replaceAll("-", "").toLowerCase() === normal,
  );
  if (!person) throw notFound("Person with this UUID does not exist in the cohort's team");
  cohort.people = cohort.people.filter((uuid) => uuid !== person.uuid);
  cohort.count = cohort.people.length;
  return { status: 200, body: { success: true } };
}

export function registerCohorts(router: Router): void {
  const read = { scope: "cohort:read", projectsOnly: true };
  const write = { scope: "cohort:write", projectsOnly: true };
  router.add({ method: "GET", pattern: BASE, ...read, handler: list });
  router.add({ method: "POST", pattern: BASE, ...write, handler: create });
  router.add({ method: "GET", pattern: `${BASE}/:id`, ...read, handler: retrieve });
  addModelWrites(router, `${BASE}/:id`, write, update);
  router.add({ method: "GET", pattern: `${BASE}/:id/used_in`, ...read, handler: usedIn });
  router.add({
    method: "GET",
    pattern: `${BASE}/:id/calculation_history`,
    ...read,
    handler: calculationHistory,
  });
  router.add({
    method: "PATCH",
    pattern: `${BASE}/:id/add_persons_to_static_cohort`,
    ...write,
    handler: addPersons,
  });
  router.add({
    method: "PATCH",
    pattern: `${BASE}/:id/remove_person_from_static_cohort`,
    ...write,
    handler: removePerson,
  });
}
