/**
 * `/api/projects/:project/cohorts/` (read only): the list (limit/offset, newest first, without deleted
 * cohorts) and retrieve, scope `cohort:read`. Flags reference cohorts by id; the tool lists them once
 * to resolve the names a file uses.
 */
import { notFound } from "../errors.js";
import { offsetPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import type { CohortRecord } from "../types.js";
import { userBasic } from "./dashboard-access.js";

function renderCohort(ctx: Ctx, c: CohortRecord) {
  const creator = ctx.store.user(c.created_by);
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    groups: [],
    filters: structuredClone(c.filters),
    deleted: c.deleted,
    is_calculating: false,
    created_by: creator ? userBasic(creator) : null,
    created_at: c.created_at,
    last_calculation: c.created_at,
    errors_calculating: 0,
    count: c.count,
    is_static: c.is_static,
  };
}

function list(ctx: Ctx) {
  const items = ctx.store.data.cohorts
    .filter((c) => c.team_id === ctx.project.id && !c.deleted)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
  return { status: 200, body: offsetPage(ctx, items, (c) => renderCohort(ctx, c)) };
}

function retrieve(ctx: Ctx) {
  const raw = ctx.params.id ?? "";
  const cohort = /^\d+$/.test(raw)
    ? ctx.store.data.cohorts.find((c) => c.id === Number(raw) && c.team_id === ctx.project.id)
    : undefined;
  if (!cohort) throw notFound();
  return { status: 200, body: renderCohort(ctx, cohort) };
}

export function registerCohorts(router: Router): void {
  router.add({
    method: "GET",
    pattern: "/api/projects/:project/cohorts",
    scope: "cohort:read",
    handler: list,
  });
  router.add({
    method: "GET",
    pattern: "/api/projects/:project/cohorts/:id",
    scope: "cohort:read",
    handler: retrieve,
  });
}
