/** What dashboards need of a personal API key (service-api.md §1–§3, §8, §11). */
import { FEATURE_SCOPES, type KindScopes } from "../../scopes.js";

export const DASHBOARD_SCOPES: KindScopes = {
  read: [
    { scope: "dashboard:read" },
    {
      scope: "sharing_configuration:read",
      when: "a dashboard's declared `sharing` differs from its live switch",
    },
    { scope: "insight:read", when: "a dashboard declares `tiles`" },
    {
      scope: "organization_member:read",
      when: "a collaborator is not on its dashboard yet (without it: one warning, emails unresolved)",
    },
    {
      scope: "project:read",
      when: "a collaborator is not on its dashboard yet (without it: one warning, emails unresolved)",
    },
    ...FEATURE_SCOPES,
  ],
  write: [
    { scope: "dashboard:write" },
    { scope: "sharing_configuration:write", when: "sharing is turned on or off" },
    { scope: "insight:write", when: "a tile showing an insight is added or removed" },
  ],
  pull: [
    { scope: "dashboard:read" },
    // The insights list says which dashboards show one, and names their tiles' insights.
    { scope: "insight:read" },
  ],
};
