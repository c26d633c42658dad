/**
 * The schema of a declared insight's `query` (SPEC §2 "Insights"): the query PostHog stores, any node
 * the insight API takes, with its `kind`. What the schema cannot say (the kinds of nested nodes, the
 * keys each kind requires) is checked offline by ./query.ts against the shared package's queries/.
 */

import { TOP_LEVEL_QUERY_KINDS } from "posthog-gitops-shared/queries/node-kinds";
import type { SchemaNode } from "../../config/kinds.js";

export const querySchema: SchemaNode = {
  type: "object",
  description: `PostHog's query object as YAML, as the insight stores it: usually an InsightVizNode (trends, funnels, retention, paths, stickiness, lifecycle) or a DataVisualizationNode (SQL). Compared on the keys written here, after the service's schema upgrades: keys the service adds (\`version\`, defaults) are never a change. Kinds: ${TOP_LEVEL_QUERY_KINDS.join(", ")}.`,
  required: ["kind"],
  properties: {
    kind: { type: "string", description: "The query node's kind, e.g. InsightVizNode.", minLength: 1 },
  },
};
