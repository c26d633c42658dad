/**
 * `GET /api/projects/:project/groups_types/` (service-api.md §14.2), scope `group:read`: the project's
 * group types as a plain list (no pages), ordered by index. Each project numbers its group types on
 * its own (the service makes one on its first use there), so one index may name different types in
 * two projects; the seed sets them per project (`projects[].group_types`).
 */
import type { Ctx, Router } from "../router.js";

function list(ctx: Ctx) {
  const types = [...(ctx.project.group_types ?? [])].sort((a, b) => a.group_type_index - b.group_type_index);
  return {
    status: 200,
    body: types.map((t) => ({
      group_type: t.group_type,
      group_type_index: t.group_type_index,
      name_singular: t.name_singular ?? null,
      name_plural: t.name_plural ?? null,
      detail_dashboard: null,
      default_columns: null,
      created_at: t.created_at,
    })),
  };
}

export function registerGroupTypes(router: Router): void {
  router.add({
    method: "GET",
    pattern: "/api/projects/:project/groups_types",
    scope: "group:read",
    handler: list,
  });
}
