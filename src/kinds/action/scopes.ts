/** What actions need of a personal API key (service-api.md §8, §13). */
import { FEATURE_SCOPES, type KindScopes } from "../../scopes.js";

export const ACTION_SCOPES: KindScopes = {
  read: [{ scope: "action:read" }, ...FEATURE_SCOPES],
  write: [{ scope: "action:write" }],
  pull: [{ scope: "action:read" }],
};
