/** What feature flags need of a personal API key (service-api.md §8, §10, §12). */
import type { KindScopes } from "../../scopes.js";

export const FEATURE_FLAG_SCOPES: KindScopes = {
  read: [
    { scope: "feature_flag:read" },
    { scope: "cohort:read", when: "a condition names a cohort by name" },
  ],
  write: [{ scope: "feature_flag:write" }],
  pull: [
    { scope: "feature_flag:read" },
    { scope: "cohort:read", when: "a flag has a cohort condition (written by the cohort's name)" },
  ],
};
