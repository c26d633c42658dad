/**
 * PostHog's insight queries as plain data: the service's schema upgrades (ported migrations), the
 * declared-key comparison and the node kinds. A ground-floor module: the emulator and the tool's kinds
 * both import it, and it imports nothing of the project.
 */

export * from "./node-kinds.js";
export {
  compareQuery,
  projectOnDeclared,
  type QueryComparison,
  SERVICE_OWNED_QUERY_KEYS,
  upgradedForComparison,
} from "./normalise.js";
export type { Json, JsonObject } from "./python.js";
export { LATEST_QUERY_VERSIONS, QUERY_MIGRATIONS, QueryUpgradeError, upgradeQuery } from "./upgrade.js";
