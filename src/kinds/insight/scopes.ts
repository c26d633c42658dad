/** What insights need of a personal API key (service-api.md §8, §11). */
import { FEATURE_SCOPES, type KindScopes } from "../../scopes.js";

export const INSIGHT_SCOPES: KindScopes = {
  read: [{ scope: "insight:read" }, ...FEATURE_SCOPES],
  write: [{ scope: "insight:write" }],
  pull: [{ scope: "insight:read" }],
};
