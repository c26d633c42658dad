/**
 * The service's scheduled rewrite of stored insight queries (posthog/temporal/product_analytics/
 * upgrade_queries_activities.py: every six hours, each insight whose query has a node below the latest
 * schema version is run through `upgrade()` and saved), triggered on demand by
 * `POST /_emulator/upgrade_queries`. With `defaults: true` each query is also re-serialised with the
 * schema models' defaults, as a save from the UI or the MCP serializer leaves it: keys the files never
 * declared appear in every stored query. Soft-deleted insights are rewritten too, like the service's job.
 */
import { isDict } from "posthog-gitops-shared/queries/python";
import { QueryUpgradeError, upgradeQuery } from "posthog-gitops-shared/queries/upgrade";
import { withDefaults } from "./routes/query-schema.js";
import type { Store } from "./store.js";

export interface UpgradeOptions {
  /** Also fill in the schema models' defaults. */
  defaults: boolean;
  /** Only this project's insights. */
  project?: number;
}

export function parseUpgradeOptions(body: unknown): UpgradeOptions {
  if (body === undefined) return { defaults: false };
  if (!isDict(body)) throw new Error("the body must be a JSON object");
  for (const key of Object.keys(body)) {
    if (key !== "defaults" && key !== "project")
      throw new Error(`unknown key "${key}" (known: defaults, project)`);
  }
  if (body.defaults !== undefined && typeof body.defaults !== "boolean")
    throw new Error('"defaults" must be true or false');
  if (body.project !== undefined && !Number.isInteger(body.project))
    throw new Error('"project" must be a project id');
  return {
    defaults: body.defaults === true,
    ...(typeof body.project === "number" ? { project: body.project } : {}),
  };
}

/** Rewrites the stored queries; answers how many changed and which insights failed to upgrade. */
export function upgradeStoredQueries(
  store: Store,
  now: Date,
  options: UpgradeOptions,
): { upgraded: number[]; failed: number[] } {
  const upgraded: number[] = [];
  const failed: number[] = [];
  for (const insight of store.data.insights) {
    if (insight.query === null || insight.query === undefined) continue;
    if (options.project !== undefined && insight.team_id !== options.project) continue;
    let next: unknown;
    try {
      next = upgradeQuery(insight.query);
    } catch (error) {
      if (!(error instanceof QueryUpgradeError)) throw error;
      failed.push(insight.id);
      continue;
    }
    if (options.defaults) next = withDefaults(next);
    if (JSON.stringify(next) === JSON.stringify(insight.query)) continue;
    insight.query = next;
    insight.updated_at = now.toISOString();
    upgraded.push(insight.id);
  }
  if (upgraded.length > 0) store.touch();
  return { upgraded, failed };
}
