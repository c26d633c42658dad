/**
 * One step of PostHog's query schema migrations (posthog/schema_migrations/base.py): `targets` maps a
 * node kind to the version it upgrades *from*; `transform` rewrites one node of that version and must be
 * a no-op on nodes already in the new shape; `apply` is the base class's `__call__`: it runs only when
 * the node's version (missing or null means 1) equals the target, then stamps the next version.
 */
import { isDict, type JsonObject, truthy } from "../python.js";

export interface QueryMigration {
  /** PostHog's file, e.g. `posthog/schema_migrations/0001_retention_query_show_mean.py`. */
  readonly source: string;
  readonly targets: Readonly<Record<string, number>>;
  /** Rewrites one node (which it may change in place); returns the node to keep. */
  transform(query: JsonObject): JsonObject;
}

/**
 * The node's version as the service reads it, `version or 1` (a missing, null, false, 0 or "" version
 * is 1; true is 1 as Python's bool is an int). NaN for a value Python could not compare with a number.
 */
export function versionOf(node: JsonObject): number {
  const v = node.version;
  if (v === undefined || v === null || v === false || v === 0 || v === "" || v === true) return 1;
  return typeof v === "number" ? v : Number.NaN;
}

/** `SchemaMigration.should_run`: the node is of a target kind, at the version the step upgrades from. */
export function shouldRun(migration: QueryMigration, node: JsonObject): boolean {
  const kind = node.kind;
  if (typeof kind !== "string" || !Object.hasOwn(migration.targets, kind)) return false;
  return versionOf(node) === migration.targets[kind];
}

/** `SchemaMigration.__call__`: transform and stamp the next version, or return the node untouched. */
export function applyMigration(migration: QueryMigration, node: JsonObject): JsonObject {
  if (!shouldRun(migration, node)) return node;
  const out = migration.transform(node);
  const outKind = out.kind;
  if (typeof outKind === "string" && Object.hasOwn(migration.targets, outKind)) {
    out.version = (migration.targets[outKind] ?? 0) + 1;
  }
  return out;
}

/** The insight filter a Trends or Stickiness node keeps its display settings in. */
export const FILTER_KEY_BY_KIND: Readonly<Record<string, string>> = {
  TrendsQuery: "trendsFilter",
  StickinessQuery: "stickinessFilter",
};

/** `_has_breakdown` of migrations 0002 and 0003. */
export function hasBreakdown(query: JsonObject): boolean {
  const filter = query.breakdownFilter;
  if (!isDict(filter) || Object.keys(filter).length === 0) return false;
  if (truthy(filter.breakdown_type) && truthy(filter.breakdown)) return true;
  const breakdowns = filter.breakdowns;
  return Array.isArray(breakdowns) && breakdowns.length > 0;
}

/** `_has_compare` of migrations 0002 and 0003: only `compare: true` turns comparison on. */
export function hasCompare(query: JsonObject): boolean {
  const filter = query.compareFilter;
  if (!isDict(filter) || Object.keys(filter).length === 0) return false;
  return filter.compare === true;
}
