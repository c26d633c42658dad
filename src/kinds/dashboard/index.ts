/**
 * Dashboards, with their collaborators, sharing switch and tiles (SPEC §2): a PostHog model
 * (../define/model.ts) with its field table (fields.ts), its own verbs (verbs.ts, tile-verbs.ts) and
 * hooks for what a table cannot say: collaborators need only_collaborators, tiles name insights the
 * files declare (tiles-check.ts), the details read besides the list (live.ts), the plan of
 * collaborators, sharing and tiles after the model's own (plan.ts, tiles-plan.ts), and pull's
 * collaborators and tiles (pull.ts). The update after a blind restore reads the dashboard back and
 * sends only the fields that differ (an unchanged `restriction_level` would be a 403 for members who
 * neither created the dashboard nor administer the project).
 */
import { declaredOf } from "../../config/types.js";
import { defineModel } from "../define/model.js";
import { DASHBOARD_ANSWERS, type Dashboard, type DashboardBasic } from "./answers.js";
import { type DesiredDashboard, dashboardFields } from "./fields.js";
import { dashboardDetails, type LiveDashboards, readDashboards, rereadDashboards } from "./live.js";
import { dashboardsNeedFeatures, planDashboardExtras } from "./plan.js";
import { pullDashboards } from "./pull.js";
import { DASHBOARD_SCOPES } from "./scopes.js";
import { DASHBOARD_ENDPOINTS } from "./service.js";
import { checkTileInsights } from "./tiles-check.js";
import { DASHBOARD_VERBS } from "./verbs.js";

export const dashboardModel = defineModel<
  typeof dashboardFields.fields,
  Dashboard,
  DashboardBasic,
  DesiredDashboard,
  LiveDashboards
>({
  name: "dashboard",
  key: "dashboards",
  words: { one: "dashboard", many: "dashboards" },
  schema: {
    list: "Dashboards of the project. Listing the key (even empty) lets --prune remove undeclared ones.",
    item: "A dashboard. Only the keys written here are managed; the others are left as they are.",
    def: "dashboard",
  },
  fields: dashboardFields,
  ...DASHBOARD_ENDPOINTS,
  // SPEC §9: an overlay's collaborators merge by person (a tile's insight by id is one project's: the
  // tiles' reference declaration says so); the members the collaborators name are each project's.
  environments: {
    keyedLists: [{ path: "/collaborators", keys: ["email", "user_uuid"] }],
    needs: [
      { what: "member", path: "/collaborators/*/email" },
      { what: "member", path: "/collaborators/*/user_uuid" },
    ],
  },
  scopes: DASHBOARD_SCOPES,
  answers: DASHBOARD_ANSWERS,
  // A contains-match on the name, of at most 200 characters; one page of 1,000 (a short name may
  // match hundreds, and the list takes any limit: service-api.md §1).
  search: { param: "search", max: 200, limit: 1000 },
  readBack: true,
  verbs: { own: DASHBOARD_VERBS },
  hooks: {
    declare(input, desired, ctx) {
      if ((input.collaborators?.length ?? 0) > 0 && desired.restriction_level !== 37) {
        const now = input.restriction_level === undefined ? "is not set" : `is ${input.restriction_level}`;
        ctx.error(
          "/collaborators",
          `${ctx.owner} has collaborators but its restriction_level ${now}: collaborators need restriction_level: only_collaborators`,
          "key",
        );
      }
    },
    // SPEC §2: a tile's `insight:` names an insight declared for the same project.
    checkProject: (project) =>
      checkTileInsights(declaredOf<DesiredDashboard>(project, "dashboard"), declaredOf(project, "insight")),
    read: readDashboards,
    reread: rereadDashboards,
    extras: planDashboardExtras,
    details: dashboardDetails,
    needsFeatures: dashboardsNeedFeatures,
    pull: pullDashboards,
  },
});

export const dashboardKind = dashboardModel.kind;

export type { Collaborator, Dashboard, DashboardBasic, SharingConfiguration } from "./answers.js";
export type { DesiredCollaborator } from "./declare.js";
export type { DesiredDashboard } from "./fields.js";
export type { LiveDashboards } from "./live.js";
