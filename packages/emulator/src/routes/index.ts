/** Every API route of the emulator, in matching order (literal segments before `:id` captures). */
import { Router } from "../router.js";
import { registerActions } from "./actions.js";
import { registerBackfills } from "./backfills.js";
import { registerBatchExports } from "./batch-exports.js";
import { registerChangeRequests } from "./change-requests.js";
import { registerCohorts } from "./cohorts.js";
import { registerCollaborators } from "./collaborators.js";
import { renderDashboard } from "./dashboard-view.js";
import { registerDashboards } from "./dashboards.js";
import { registerEvents } from "./events.js";
import { registerFeatureFlags } from "./feature-flags.js";
import { registerGroupTypes } from "./group-types.js";
import { registerInsights } from "./insights.js";
import { registerIntegrations } from "./integrations.js";
import { registerLogs } from "./logs.js";
import { registerMembers } from "./members.js";
import { registerOrganizations } from "./organizations.js";
import { registerPersonalApiKeys } from "./personal-api-keys.js";
import { registerRuns } from "./runs.js";
import { registerSharing } from "./sharing.js";
import { registerTileActions } from "./tile-actions.js";

export function buildRouter(): Router {
  const router = new Router();
  registerDashboards(router);
  registerTileActions(router, renderDashboard);
  registerInsights(router);
  registerCollaborators(router);
  registerSharing(router);
  registerBatchExports(router);
  registerBackfills(router);
  registerRuns(router);
  registerLogs(router);
  registerIntegrations(router);
  registerEvents(router);
  registerOrganizations(router);
  registerGroupTypes(router);
  registerMembers(router);
  registerPersonalApiKeys(router);
  registerFeatureFlags(router);
  registerCohorts(router);
  registerActions(router);
  registerChangeRequests(router);
  return router;
}
