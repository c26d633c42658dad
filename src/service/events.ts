/**
 * The legacy events list (service-api.md §5), which draws from the lower events budget, and the
 * organization / project lookups used to learn which paid features are on and who the members are.
 */
import { collectOffsetPages, paginate } from "./pages.js";
import { type ProjectId, projectPath, type Query, segment as seg } from "./query.js";
import { SHAPES } from "./shapes.js";
import type { Transport } from "./transport.js";
import type {
  EventItem,
  EventPropertyValue,
  GroupType,
  Organization,
  OrganizationMember,
  PersonalApiKey,
  Project,
} from "./types.js";

export function eventsApi(t: Transport) {
  const path = (project: ProjectId, rest = "") => projectPath(project, `events/${rest}`);
  return {
    /** Newest first by default; pages follow `next` (`before=` the last timestamp). */
    list(project: ProjectId, query: Query = {}, max?: number): AsyncIterable<EventItem> {
      const spec = {
        method: "GET",
        path: path(project),
        query,
        budget: "events",
        expect: SHAPES.eventPage,
      } as const;
      return paginate<EventItem>(t, spec, max);
    },
    get(project: ProjectId, id: string): Promise<EventItem> {
      return t.send({
        method: "GET",
        path: path(project, `${seg(id)}/`),
        budget: "events",
        expect: SHAPES.event,
      });
    },
    /** Values of a property (`key`); a personal API key must also pass `event_name`. */
    values(project: ProjectId, query: Query): Promise<EventPropertyValue[]> {
      const spec = { method: "GET", path: path(project, "values/"), query, budget: "events" } as const;
      return t.send({ ...spec, expect: SHAPES.eventValues });
    },
  };
}

export function organizationsApi(t: Transport) {
  return {
    get(orgId: string): Promise<Organization> {
      return t.send({
        method: "GET",
        path: `/api/organizations/${seg(orgId)}/`,
        expect: SHAPES.organization,
      });
    },
    getProject(project: ProjectId): Promise<Project> {
      return t.send({ method: "GET", path: projectPath(project, ""), expect: SHAPES.project });
    },
    /** The organization's active members (scope `organization_member:read`; no project-scoped key). */
    members(orgId: string): Promise<OrganizationMember[]> {
      const path = `/api/organizations/${seg(orgId)}/members/`;
      return collectOffsetPages<OrganizationMember>(t, { method: "GET", path, expect: SHAPES.memberPage });
    },
    /**
     * The project's group types (scope `group:read`): index → group type, which each project numbers on
     * its own (the service makes a type on its first use in that project).
     */
    groupTypes(project: ProjectId): Promise<GroupType[]> {
      return t.send({
        method: "GET",
        path: projectPath(project, "groups_types/"),
        expect: SHAPES.groupTypes,
      });
    },
    /** The organization's projects (GET /api/organizations/{id}/projects/, limit/offset pages). */
    listProjects(orgId: string, query: Query = {}, max?: number): AsyncIterable<Project> {
      const path = `/api/organizations/${seg(orgId)}/projects/`;
      return paginate<Project>(t, { method: "GET", path, query, expect: SHAPES.projectPage }, max);
    },
  };
}

/** The key itself: which scopes and projects it holds (any personal API key may ask, with no scope). */
export function keysApi(t: Transport) {
  return {
    current(): Promise<PersonalApiKey> {
      return t.send({
        method: "GET",
        path: "/api/personal_api_keys/@current/",
        expect: SHAPES.personalApiKey,
      });
    },
  };
}

/** The organization's paid feature keys (e.g. `tagging`, `advanced_permissions`), old or new shape. */
export function featureKeys(org: Organization): Set<string> {
  const keys = new Set<string>(org.available_features ?? []);
  for (const f of org.available_product_features ?? []) keys.add(f.key);
  return keys;
}
