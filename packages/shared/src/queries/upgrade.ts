/**
 * `upgradeQuery`: PostHog's query schema upgrade (posthog/schema_migrations/upgrade.py and the
 * discovery in __init__.py), ported. Every node whose `kind` has migrations and whose `version`
 * (missing or null means 1) is below the latest is run through the migrations in turn, then its
 * children, at any depth (`InsightVizNode.source`, series lists, ...). The service does this on every
 * read of an insight, and a job rewrites stored insights with it every six hours, so both the emulator
 * (reads, the triggered upgrade) and the tool (a declared query, before it is compared) use this one
 * function. Pure: the input is never changed.
 */
import { retentionQueryShowMean } from "./migrations/0001-retention-query-show-mean.js";
import { stickinessHiddenLegendIndexes } from "./migrations/0002-stickiness-hidden-legend-indexes.js";
import { dataVisualizationPieShowTotal } from "./migrations/0003-data-visualization-pie-show-total.js";
import { trendsResultCustomizationsCompare } from "./migrations/0003-trends-result-customizations-compare.js";
import { entityNodeKind } from "./migrations/0004-entity-node-kind.js";
import { trendsResultCustomizationsHomogeneous } from "./migrations/0005-trends-result-customizations-homogeneous.js";
import { applyMigration, type QueryMigration, versionOf } from "./migrations/migration.js";
import { deepCopy, isDict, type Json, type JsonObject } from "./python.js";

/** PostHog's migration files in the order its discovery imports them (sorted by file name). */
export const QUERY_MIGRATIONS: readonly QueryMigration[] = [
  retentionQueryShowMean,
  stickinessHiddenLegendIndexes,
  dataVisualizationPieShowTotal,
  trendsResultCustomizationsCompare,
  entityNodeKind,
  trendsResultCustomizationsHomogeneous,
];

/** Per node kind, the migration for each version it upgrades from, and the latest version. */
export interface MigrationRegistry {
  readonly byKind: ReadonlyMap<string, ReadonlyMap<number, QueryMigration>>;
  readonly latest: Readonly<Record<string, number>>;
}

/** A stored query the service could not upgrade either (its read would fail there too). */
export class QueryUpgradeError extends Error {
  override name = "QueryUpgradeError";
}

/**
 * The registry PostHog's discovery builds: two migrations may not target the same (kind, version),
 * and a kind's latest version is one past the highest version it is migrated from.
 */
export function buildRegistry(migrations: readonly QueryMigration[]): MigrationRegistry {
  const byKind = new Map<string, Map<number, QueryMigration>>();
  const latest: Record<string, number> = {};
  for (const migration of migrations) {
    for (const [kind, version] of Object.entries(migration.targets)) {
      const versions = byKind.get(kind) ?? new Map<number, QueryMigration>();
      byKind.set(kind, versions);
      if (versions.has(version)) {
        throw new Error(`two query migrations target ${kind} version ${version}`);
      }
      versions.set(version, migration);
      latest[kind] = Math.max(latest[kind] ?? 1, version + 1);
    }
  }
  return { byKind, latest };
}

export const REGISTRY: MigrationRegistry = buildRegistry(QUERY_MIGRATIONS);

/** The latest schema version of each node kind that has migrations. */
export const LATEST_QUERY_VERSIONS: Readonly<Record<string, number>> = REGISTRY.latest;

/** The query upgraded to the latest versions (a copy); throws QueryUpgradeError as the service would fail. */
export function upgradeQuery<T>(query: T, registry: MigrationRegistry = REGISTRY): T {
  return upgradeNode(deepCopy(query) as Json, registry) as T;
}

function upgradeNode(node: Json, registry: MigrationRegistry): Json {
  if (Array.isArray(node)) return node.map((item) => upgradeNode(item, registry));
  if (!isDict(node)) return node;
  let current: JsonObject = node;
  const kind = current.kind;
  // The walker runs over unvalidated JSON: a `kind` that is not a string is left alone.
  if (typeof kind === "string" && Object.hasOwn(registry.latest, kind)) {
    const latest = registry.latest[kind] ?? 1;
    if (Number.isNaN(versionOf(current))) {
      throw new QueryUpgradeError(`${kind} has a version that is not a number`);
    }
    for (let version = versionOf(current); version < latest; version = versionOf(current)) {
      const migration = registry.byKind.get(kind)?.get(version);
      if (migration === undefined) {
        throw new QueryUpgradeError(`Missing migration handler for ${kind} version ${version}`);
      }
      const next = applyMigration(migration, deepCopy(current));
      if (versionOf(next) <= version) {
        throw new QueryUpgradeError(`the migration of ${kind} version ${version} did not advance it`);
      }
      current = next;
    }
  }
  for (const [key, value] of Object.entries(current)) current[key] = upgradeNode(value, registry);
  return current;
}
