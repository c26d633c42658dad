/** What batch exports need of a personal API key (service-api.md §4, §8). */
import type { KindScopes } from "../../scopes.js";

export const BATCH_EXPORT_SCOPES: KindScopes = {
  read: [
    { scope: "batch_export:read" },
    { scope: "integration:read", when: "a destination names an `integration`" },
  ],
  write: [{ scope: "batch_export:write" }],
  pull: [{ scope: "batch_export:read" }],
};
