/**
 * Dashboards, with their collaborators, sharing switch and tiles (SPEC §2): the field table (fields.ts),
 * the verbs (verbs.ts, tile-verbs.ts), and hooks for what a table cannot say: collaborators need
 * only_collaborators, tiles name insights the files declare (tiles-check.ts), the details read besides
 * the list (live.ts), the plan of restores, collaborators, sharing and tiles (plan.ts, tiles-plan.ts),
 * and pull's collaborators and tiles (pull.ts).
 */
import { declaredOf } from "../../config/types.js";
import type { Reference } from "../../read/kinds.js";
import { defineKind } from "../define/index.js";
import type { Kind } from "../kind.js";
import { DASHBOARD_ANSWERS, type DashboardBasic } from "./answers.js";
import { type DesiredDashboard, dashboardFields } from "./fields.js";
import { countDashboards, getDashboard, searchDashboards } from "./find.js";
import { dashboardDetails, type LiveDashboards, readDashboards, rereadDashboards } from "./live.js";
import { dashboardsNeedFeatures, planDashboard } from "./plan.js";
import { pullDashboards } from "./pull.js";
import { dashboardsApi } from "./service.js";
import { checkTileInsights } from "./tiles-check.js";
import { createDashboard, dashboardVerbs } from "./verbs.js";

export const dashboardKind: Kind = defineKind<
  typeof dashboardFields.fields,
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
  verbs: dashboardVerbs,
  service: {
    list: (client, project) => dashboardsApi(client).listAll(project),
    search: searchDashboards,
    get: getDashboard,
    count: countDashboards,
    create: createDashboard,
  },
  // SPEC §9: an overlay's collaborators merge by person; a tile's insight by id is one project's.
  environments: {
    keyedLists: [{ path: "/collaborators", keys: ["email", "user_uuid"] }],
    projectIds: [{ path: "/tiles/*/insight_id" }],
  },
  answers: DASHBOARD_ANSWERS,
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
    // A change-scoped plan reads the insights a changed dashboard's tiles show (their ids resolve the tiles).
    references: (dashboard) =>
      (dashboard.tiles ?? []).flatMap((tile): Reference[] => {
        if (tile.type !== "insight") return [];
        return "insightId" in tile
          ? [{ kind: "insight", id: tile.insightId }]
          : [{ kind: "insight", name: tile.insight }];
      }),
    plan: planDashboard,
    details: dashboardDetails,
    needsFeatures: dashboardsNeedFeatures,
    pull: pullDashboards,
  },
});

export type { Collaborator, Dashboard, DashboardBasic, SharingConfiguration } from "./answers.js";
export type { DesiredCollaborator } from "./declare.js";
export type { DesiredDashboard } from "./fields.js";
export type { LiveDashboards } from "./live.js";
