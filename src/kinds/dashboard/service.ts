/**
 * Dashboards, their collaborators and their sharing configuration (service-api.md §1–§3), on the
 * client's generic requests, each answer checked against its shape (answers.ts).
 * Creates (dashboard, template JSON, collaborator, a text card added by PATCH) are never repeated after
 * they may have reached the service; the other PATCHes and DELETEs are retried. Dashboards have no DELETE: soft-delete with
 * `update(project, id, { deleted: true })`.
 */

import type { ServiceClient } from "../../service/index.js";
import { type ProjectId, projectPath, type Query, segment as seg } from "../../service/query.js";
import { type ModelEndpoints, modelApi } from "../define/model-api.js";
import {
  DASHBOARD_ANSWERS as A,
  type Collaborator,
  type Dashboard,
  type DashboardBasic,
  type DashboardWrite,
  type SharingConfiguration,
} from "./answers.js";

export interface MoveTileBody {
  tile: { id: number; [k: string]: unknown };
  toDashboard: number;
}

/** Where dashboards live: a PostHog model (../define/model-api.ts). */
export const DASHBOARD_ENDPOINTS: ModelEndpoints<Dashboard> = {
  path: "dashboards",
  shapes: { page: A.dashboardPage, one: A.dashboard },
};

export function dashboardsApi(client: ServiceClient) {
  const model = modelApi<Dashboard>(client, DASHBOARD_ENDPOINTS);
  const path = (project: ProjectId, rest = "") => projectPath(project, `dashboards/${rest}`);
  return {
    list: model.list as (project: ProjectId, query?: Query, max?: number) => AsyncIterable<DashboardBasic>,
    /** Every dashboard, pages after the first read concurrently (see `ServiceClient.listAll`). */
    listAll: model.listAll as (project: ProjectId, query?: Query) => Promise<DashboardBasic[]>,
    /** How many dashboards the list holds: one request for a one-item page. */
    count: model.count,
    get: (project: ProjectId, id: number): Promise<Dashboard> => model.get(project, id),
    create: (project: ProjectId, body: DashboardWrite): Promise<Dashboard> =>
      model.create(project, { ...body }),
    update: (project: ProjectId, id: number, body: DashboardWrite): Promise<Dashboard> =>
      model.update(project, id, { ...body }),
    /** A dashboard with its tiles checked too: the one read a dashboard's declared `tiles:` costs. */
    getWithTiles(project: ProjectId, id: number): Promise<Dashboard> {
      return client.request({
        method: "GET",
        path: path(project, `${seg(id)}/`),
        expect: A.dashboardWithTiles,
      });
    },
    /**
     * A PATCH whose `tiles` create a tile (a text card: an entry without an id): never repeated after it
     * may have reached the service (each repeat would add another card); the caller looks first.
     */
    addTiles(project: ProjectId, id: number, tiles: DashboardWrite["tiles"]): Promise<Dashboard> {
      return client.request({
        method: "PATCH",
        path: path(project, `${seg(id)}/`),
        body: { tiles },
        expect: A.dashboard,
        retrySafe: false,
      });
    },
    moveTile(project: ProjectId, id: number, body: MoveTileBody): Promise<Dashboard> {
      return client.request({
        method: "PATCH",
        path: path(project, `${seg(id)}/move_tile/`),
        body,
        expect: A.dashboard,
      });
    },
    createFromTemplateJson(
      project: ProjectId,
      body: { template: Record<string, unknown> },
    ): Promise<Dashboard> {
      const spec = { method: "POST", path: path(project, "create_from_template_json/"), body } as const;
      return client.request({ ...spec, expect: A.dashboard });
    },
  };
}

export function collaboratorsApi(client: ServiceClient) {
  const path = (project: ProjectId, dashboardId: number, rest = "") =>
    projectPath(project, `dashboards/${seg(dashboardId)}/collaborators/${rest}`);
  return {
    /** A plain array: this endpoint is not paginated. */
    list(project: ProjectId, dashboardId: number): Promise<Collaborator[]> {
      return client.request({ method: "GET", path: path(project, dashboardId), expect: A.collaborators });
    },
    add(
      project: ProjectId,
      dashboardId: number,
      body: { user_uuid: string; level: 21 | 37 },
    ): Promise<Collaborator> {
      return client.request({
        method: "POST",
        path: path(project, dashboardId),
        body,
        expect: A.collaborator,
      });
    },
    /** By the user's uuid. */
    async remove(project: ProjectId, dashboardId: number, userUuid: string): Promise<void> {
      await client.request({ method: "DELETE", path: path(project, dashboardId, `${seg(userUuid)}/`) });
    },
  };
}

export interface SharingWrite {
  enabled: boolean;
  settings?: Record<string, unknown> | null;
  password_required?: boolean;
}

export function sharingApi(client: ServiceClient) {
  const path = (project: ProjectId, dashboardId: number, rest = "") =>
    projectPath(project, `dashboards/${seg(dashboardId)}/sharing/${rest}`);
  return {
    /** Until sharing is first written, `access_token` is a fresh random value on every call. */
    get(project: ProjectId, dashboardId: number): Promise<SharingConfiguration> {
      return client.request({ method: "GET", path: path(project, dashboardId), expect: A.sharing });
    },
    update(project: ProjectId, dashboardId: number, body: SharingWrite): Promise<SharingConfiguration> {
      return client.request({ method: "PATCH", path: path(project, dashboardId), body, expect: A.sharing });
    },
    /** Rotates the access token; not repeated after a lost answer (it would rotate twice). */
    refresh(project: ProjectId, dashboardId: number): Promise<SharingConfiguration> {
      return client.request({
        method: "POST",
        path: path(project, dashboardId, "refresh/"),
        expect: A.sharing,
      });
    },
  };
}
