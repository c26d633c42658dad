/**
 * Organization and project retrieve: enough for a client to learn which paid features are on
 * (`available_product_features` lists `tagging` / `advanced_permissions` / `access_control` per the
 * seed switches; `access_control` only under the newest rules), and the organization's projects.
 */
import { offsetPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import { isNewest } from "../service.js";

const FEATURE_NAMES = {
  tagging: "Dashboard tags",
  advanced_permissions: "Advanced permissions",
  access_control: "Access control",
} as const;

function organization(ctx: Ctx) {
  const org = ctx.org;
  const membership = ctx.user.organizations.find((m) => m.id === org.id);
  const features = (Object.keys(FEATURE_NAMES) as Array<keyof typeof FEATURE_NAMES>)
    .filter((key) => org.features[key] && (key !== "access_control" || isNewest(ctx.store)))
    .map((key) => ({ key, name: FEATURE_NAMES[key] }));
  return {
    status: 200,
    body: {
      id: org.id,
      name: org.name,
      slug: org.name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      membership_level: membership?.level === "owner" ? 15 : membership?.level === "admin" ? 8 : 1,
      available_product_features: features,
      teams: ctx.store.data.projects
        .filter((p) => p.organization === org.id)
        .map((p) => ({ id: p.id, name: p.name })),
    },
  };
}

function project(ctx: Ctx) {
  const p = ctx.project;
  return {
    status: 200,
    body: {
      id: p.id,
      name: p.name,
      organization: p.organization,
      primary_dashboard: p.primary_dashboard ?? null,
    },
  };
}

/** `GET /api/organizations/{id}/projects/`: the organization's projects, limit/offset pages by id. */
function projects(ctx: Ctx) {
  const items = ctx.store.data.projects
    .filter((p) => p.organization === ctx.org.id)
    .sort((a, b) => a.id - b.id);
  return {
    status: 200,
    body: offsetPage(ctx, items, (p) => ({ id: p.id, name: p.name, organization: p.organization })),
  };
}

export function registerOrganizations(router: Router): void {
  router.add({
    method: "GET",
    pattern: "/api/organizations/:org",
    scope: "organization:read",
    handler: organization,
  });
  router.add({
    method: "GET",
    pattern: "/api/organizations/:org/projects",
    scope: "project:read",
    handler: projects,
  });
  router.add({ method: "GET", pattern: "/api/projects/:project", scope: "project:read", handler: project });
}
