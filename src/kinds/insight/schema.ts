/**
 * The schema of one declared insight (SPEC §2 "Insights"): its name (identity unless `id` pins it),
 * description, tags, the query PostHog stores (any node the insight API takes, with its `kind`), and
 * the tombstone. Which dashboards show it is not here: the dashboards' `tiles:` decide that.
 */
import type { SchemaNode } from "../../config/kinds.js";
import { TOP_LEVEL_QUERY_KINDS } from "../../queries/node-kinds.js";

export const querySchema: SchemaNode = {
  type: "object",
  description: `PostHog's query object as YAML, as the insight stores it: usually an InsightVizNode (trends, funnels, retention, paths, stickiness, lifecycle) or a DataVisualizationNode (SQL). Compared on the keys written here, after the service's schema upgrades: keys the service adds (\`version\`, defaults) are never a change. Kinds: ${TOP_LEVEL_QUERY_KINDS.join(", ")}.`,
  required: ["kind"],
  properties: {
    kind: { type: "string", description: "The query node's kind, e.g. InsightVizNode.", minLength: 1 },
  },
};

export const insightProperties: Record<string, SchemaNode> = {
  name: {
    type: "string",
    description:
      "Insight name: its identity within the project unless `id` is given. May be empty only with an `id` pin (insights without a name, as pull writes them).",
    maxLength: 400,
  },
  id: {
    type: "integer",
    description: "The service's insight id: pins identity across renames (pull writes it).",
    minimum: 1,
  },
  description: {
    type: "string",
    description: "Insight description (at most 400 characters).",
    maxLength: 400,
  },
  tags: {
    type: "array",
    items: { type: "string", minLength: 1 },
    description: "Tags, a case-insensitive set (needs the tagging feature).",
  },
  query: querySchema,
  deleted: {
    type: "boolean",
    description: "Tombstone: soft-delete the insight (idempotent); its tiles go with it.",
  },
};

export const insightSchema: SchemaNode = {
  type: "object",
  description:
    "A saved insight. Only the keys written here are managed; the dashboards showing it are set by their `tiles:`.",
  additionalProperties: false,
  required: ["name"],
  properties: insightProperties,
};
