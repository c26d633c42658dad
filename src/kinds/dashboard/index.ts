/**
 * Dashboards, with their collaborators and sharing switch. Managed fields: name (through an id pin),
 * description, pinned, tags, restriction_level; collaborators and sharing are actions of their own.
 */

import type { DashboardBasic } from "../../service/types.js";
import type { Kind } from "../kind.js";
import { type DashboardInput, declareDashboard } from "./declare.js";
import { dashboardState, type LiveDashboards, readDashboards, rereadDashboards } from "./live.js";
import { dashboardsNeedFeatures, planDashboard, pruneDashboard } from "./plan.js";
import { pullDashboards } from "./pull.js";
import { dashboardSchema } from "./schema.js";
import { createDashboard, dashboardBody, findDashboards, sendDashboard } from "./send.js";

export const dashboardKind: Kind = {
  name: "dashboard",
  key: "dashboards",
  words: { one: "dashboard", many: "dashboards" },
  values: { restriction_level: { 21: "everyone", 37: "only_collaborators" } },
  schema: dashboardSchema,
  declare: (input, ctx) => declareDashboard(input as unknown as DashboardInput, ctx),
  read: readDashboards,
  reread: rereadDashboards,
  plan: planDashboard,
  prune: pruneDashboard,
  state: (live, kindLive) => ({ ...dashboardState(live as DashboardBasic, kindLive as LiveDashboards) }),
  needsFeatures: dashboardsNeedFeatures,
  requestBody: dashboardBody,
  create: createDashboard,
  send: sendDashboard,
  findByName: findDashboards,
  listLive: (client, project) => client.dashboards.listAll(project),
  pull: pullDashboards,
};

export type { DesiredCollaborator, DesiredDashboard } from "./declare.js";
export type { DashboardState, LiveDashboards } from "./live.js";
