/**
 * A project's PostHog integrations (service-api.md §4 "Integrations"): the list the planner reads to
 * check that each `destination.integration` exists in the project and is of the kind its destination
 * type needs. Scope `integration:read`; limit/offset pages, oldest first. Only the non-secret part of
 * an integration is ever returned (`sensitive_config` never is).
 */
import { collectOffsetPages } from "./pages.js";
import { type ProjectId, projectPath, type Query } from "./query.js";
import { SHAPES } from "./shapes.js";
import type { Transport } from "./transport.js";

export interface Integration {
  id: number;
  /** e.g. `aws-s3`, `s3-compatible`, `snowflake`, `postgresql`, `databricks`. */
  kind: string;
  /** How PostHog names it, e.g. `prod (AWS account 1234)`; the id for some kinds. */
  display_name?: string | null;
  created_at?: string;
  errors?: string;
  [k: string]: unknown;
}

export function integrationsApi(t: Transport) {
  return {
    /** Every integration of the project (optionally of one `kind`), pages after the first concurrently. */
    listAll(project: ProjectId, query: Query = {}): Promise<Integration[]> {
      return collectOffsetPages<Integration>(t, {
        method: "GET",
        path: projectPath(project, "integrations/"),
        query,
        expect: SHAPES.integrationPage,
      });
    },
  };
}
