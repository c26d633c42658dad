/**
 * Dashboard collaborators: GET a plain array (active users only), POST `{user_uuid, level}` with the
 * service's ordered checks (service-api.md §2), DELETE by the user's uuid → 204.
 */
import { randomUUID } from "node:crypto";
import { invalid, notFound, required } from "../errors.js";
import { asBody, parseChoice } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { CollaboratorRecord } from "../types.js";
import {
  canRestrict,
  effectiveRestriction,
  findDashboard,
  requireEdit,
  userBasic,
} from "./dashboard-access.js";

function render(ctx: Ctx, c: CollaboratorRecord) {
  const user = ctx.store.user(c.user);
  return {
    id: c.id,
    dashboard_id: c.dashboard_id,
    user: user ? userBasic(user) : null,
    level: c.level,
    added_at: c.added_at,
    updated_at: c.updated_at,
  };
}

function list(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  const items = ctx.store.data.collaborators.filter(
    (c) => c.dashboard_id === d.id && ctx.store.user(c.user)?.is_active === true,
  );
  return { status: 200, body: items.map((c) => render(ctx, c)) };
}

function create(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  requireEdit(ctx, d);
  const body = asBody(ctx.body);
  if (body.user_uuid === undefined) throw required("user_uuid");
  if (body.level === undefined) throw required("level");
  const level = parseChoice(body.level, "level", [21, 37] as const);
  if (effectiveRestriction(ctx, d) <= 21) {
    throw invalid("Cannot add collaborators to a dashboard on the lowest restriction level.");
  }
  if (level !== 37) throw invalid("Only edit access can be explicitly specified currently.");
  const user = typeof body.user_uuid === "string" ? ctx.store.userByUuid(body.user_uuid) : undefined;
  if (!user?.is_active) throw invalid("User does not exist.");
  if (!ctx.store.isMember(user, ctx.project.organization)) {
    throw invalid("Cannot add collaborators that have no access to the project.");
  }
  if (canRestrict(ctx, d, user)) {
    throw invalid(
      "Cannot add collaborators that already have inherent access (the dashboard owner or a project admins).",
    );
  }
  if (ctx.store.data.collaborators.some((c) => c.dashboard_id === d.id && c.user === user.id)) {
    throw invalid("User already is a collaborator.");
  }
  const at = ctx.now.toISOString();
  const c: CollaboratorRecord = {
    id: randomUUID(),
    dashboard_id: d.id,
    user: user.id,
    level,
    added_at: at,
    updated_at: at,
  };
  ctx.store.data.collaborators.push(c);
  return { status: 201, body: render(ctx, c) };
}

function destroy(ctx: Ctx) {
  const d = findDashboard(ctx, ctx.params.dashboard, "Dashboard not found.");
  requireEdit(ctx, d);
  if (effectiveRestriction(ctx, d) <= 21) {
    throw invalid("Cannot remove collaborators from a dashboard on the lowest restriction level.");
  }
  const user = ctx.store.userByUuid(ctx.params.user ?? "");
  const index = ctx.store.data.collaborators.findIndex((c) => c.dashboard_id === d.id && c.user === user?.id);
  if (index < 0) throw notFound();
  ctx.store.data.collaborators.splice(index, 1);
  return { status: 204 };
}

export function registerCollaborators(router: Router): void {
  const base = "/api/projects/:project/dashboards/:dashboard/collaborators";
  router.add({ method: "GET", pattern: base, scope: "dashboard:read", handler: list });
  router.add({ method: "POST", pattern: base, scope: "dashboard:write", handler: create });
  router.add({ method: "DELETE", pattern: `${base}/:user`, scope: "dashboard:write", handler: destroy });
}
