/**
 * Live dashboards → YAML items: the field table writes every managed field, defaults included (a field
 * left out is not managed, so a later edit in the UI would never show up as drift). Collaborators are
 * read only for dashboards restricted to collaborators (the others cannot have any) and written by
 * email; sharing comes from
 * the list's `is_shared` (no request per dashboard).
 */

import { compareText } from "../../plan/values.js";
import type { Pulled } from "../../pull/kinds.js";
import type { ServiceClient } from "../../service/index.js";
import type { Collaborator, DashboardBasic } from "./answers.js";
import { COLLABORATOR_LEVEL, dashboardFields } from "./fields.js";
import { collaboratorsApi, dashboardsApi } from "./service.js";

/** The YAML item that declares `live` as it is (collaborators when they were read). */
export function dashboardItem(live: DashboardBasic, collaborators?: Collaborator[]): Record<string, unknown> {
  const item = dashboardFields.item(live);
  if (live.restriction_level === 37 && collaborators) {
    // By email, the way people name each other (SPEC §2); the UUID only for a user without one.
    const named = collaborators.map((c) => ({
      key: c.user.email ? "email" : "user_uuid",
      value: c.user.email ? c.user.email : c.user.uuid,
      level: COLLABORATOR_LEVEL[c.level] ?? "can_view",
    }));
    item.collaborators = named
      .sort((a, b) => compareText(a.value, b.value))
      .map((c) => ({ [c.key]: c.value, level: c.level }));
  }
  item.sharing = { enabled: live.is_shared };
  return item;
}

export async function pullDashboards(client: ServiceClient, project: number): Promise<Pulled> {
  const dashboards = await dashboardsApi(client).listAll(project);
  const restricted = dashboards.filter((d) => d.restriction_level === 37);
  const collaborators = new Map(
    await Promise.all(
      restricted.map(async (d) => [d.id, await collaboratorsApi(client).list(project, d.id)] as const),
    ),
  );
  return { items: dashboards.map((d) => dashboardItem(d, collaborators.get(d.id))), variables: [] };
}
