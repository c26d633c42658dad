/**
 * Dashboards, their collaborators and their sharing configuration (service-api.md §1–§3).
 * Creates (dashboard, template JSON, collaborator) are never repeated after they may have reached the
 * service; PATCHes and DELETEs are retried. Dashboards have no DELETE: soft-delete with
 * `update(project, id, { deleted: true })`.
 */
import { collectOffsetPages, paginate } from "./pages.js";
import { type Query, segment as seg } from "./query.js";
import type { Transport } from "./transport.js";
import type {
  Collaborator,
  Dashboard,
  DashboardBasic,
  DashboardWrite,
  SharingConfiguration,
} from "./types.js";

export type ProjectId = number | string;

const PAGE = "dashboardPage" as const;

export function projectPath(project: ProjectId, rest: string): string {
  return `/api/projects/${seg(project)}/${rest}`;
}

export interface MoveTileBody {
  tile: { id: number; [k: string]: unknown };
  toDashboard: number;
}

export function dashboardsApi(t: Transport) {
  const path = (project: ProjectId, rest = "") => projectPath(project, `dashboards/${rest}`);
  return {
    list(project: ProjectId, query: Query = {}, max?: number): AsyncIterable<DashboardBasic> {
      return paginate<DashboardBasic>(t, { method: "GET", path: path(project), query, expect: PAGE }, max);
    },
    /** Every dashboard, pages after the first read concurrently (see `collectOffsetPages`). */
    listAll(project: ProjectId, query: Query = {}): Promise<DashboardBasic[]> {
      return collectOffsetPages<DashboardBasic>(t, {
        method: "GET",
        path: path(project),
        query,
        expect: PAGE,
      });
    },
    /** How many dashboards the list holds: one request for a one-item page. */
    async count(project: ProjectId, query: Query = {}): Promise<number> {
      const spec = {
        method: "GET",
        path: path(project),
        query: { ...query, limit: 1 },
        expect: PAGE,
      } as const;
      const page = await t.send<{ count?: number; results: unknown[] }>(spec);
      return page.count ?? page.results.length;
    },
    get(project: ProjectId, id: number): Promise<Dashboard> {
      return t.send({ method: "GET", path: path(project, `${seg(id)}/`), expect: "dashboard" });
    },
    /** A dashboard with its tiles checked too: the one read a dashboard's declared `tiles:` costs. */
    getWithTiles(project: ProjectId, id: number): Promise<Dashboard> {
      return t.send({ method: "GET", path: path(project, `${seg(id)}/`), expect: "dashboardWithTiles" });
    },
    create(project: ProjectId, body: DashboardWrite): Promise<Dashboard> {
      return t.send({ method: "POST", path: path(project), body, expect: "dashboard" });
    },
    update(project: ProjectId, id: number, body: DashboardWrite): Promise<Dashboard> {
      return t.send({ method: "PATCH", path: path(project, `${seg(id)}/`), body, expect: "dashboard" });
    },
    moveTile(project: ProjectId, id: number, body: MoveTileBody): Promise<Dashboard> {
      return t.send({
        method: "PATCH",
        path: path(project, `${seg(id)}/move_tile/`),
        body,
        expect: "dashboard",
      });
    },
    createFromTemplateJson(
      project: ProjectId,
      body: { template: Record<string, unknown> },
    ): Promise<Dashboard> {
      const spec = { method: "POST", path: path(project, "create_from_template_json/"), body } as const;
      return t.send({ ...spec, expect: "dashboard" });
    },
  };
}

export function collaboratorsApi(t: Transport) {
  const path = (project: ProjectId, dashboardId: number, rest = "") =>
    projectPath(project, `dashboards/${seg(dashboardId)}/collaborators/${rest}`);
  return {
    /** A plain array: this endpoint is not paginated. */
    list(project: ProjectId, dashboardId: number): Promise<Collaborator[]> {
      return t.send({ method: "GET", path: path(project, dashboardId), expect: "collaborators" });
    },
    add(
      project: ProjectId,
      dashboardId: number,
      body: { user_uuid: string; level: 21 | 37 },
    ): Promise<Collaborator> {
      return t.send({ method: "POST", path: path(project, dashboardId), body, expect: "collaborator" });
    },
    /** By the user's uuid. */
    async remove(project: ProjectId, dashboardId: number, userUuid: string): Promise<void> {
      await t.send({ method: "DELETE", path: path(project, dashboardId, `${seg(userUuid)}/`) });
    },
  };
}

export interface SharingWrite {
  enabled: boolean;
  settings?: Record<string, unknown> | null;
  password_required?: boolean;
}

export function sharingApi(t: Transport) {
  const path = (project: ProjectId, dashboardId: number, rest = "") =>
    projectPath(project, `dashboards/${seg(dashboardId)}/sharing/${rest}`);
  return {
    /** Until sharing is first written, `access_token` is a fresh random value on every call. */
    get(project: ProjectId, dashboardId: number): Promise<SharingConfiguration> {
      return t.send({ method: "GET", path: path(project, dashboardId), expect: "sharing" });
    },
    update(project: ProjectId, dashboardId: number, body: SharingWrite): Promise<SharingConfiguration> {
      return t.send({ method: "PATCH", path: path(project, dashboardId), body, expect: "sharing" });
    },
    /** Rotates the access token; not repeated after a lost answer (it would rotate twice). */
    refresh(project: ProjectId, dashboardId: number): Promise<SharingConfiguration> {
      return t.send({ method: "POST", path: path(project, dashboardId, "refresh/"), expect: "sharing" });
    },
  };
}
