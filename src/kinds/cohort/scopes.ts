/** What cohorts need of a personal API key (service-api.md §8, §12). */
import type { KindScopes } from "../../scopes.js";

export const COHORT_SCOPES: KindScopes = {
  read: [{ scope: "cohort:read" }],
  write: [{ scope: "cohort:write" }],
  pull: [{ scope: "cohort:read" }],
};
