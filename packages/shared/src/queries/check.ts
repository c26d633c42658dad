/**
 * The structural check the service's insight API runs on a query before storing it (PostHog's
 * `QuerySchemaRoot`, a union discriminated on `kind`; products/product_analytics/backend/api/insight.py
 * `QuerySchemaParser`): the `kind` tags of the query, of a wrapper's `source`, of each series item and
 * funnel exclusion, and the fields the common kinds require (node-kinds.ts). Each problem carries
 * pydantic's location (`loc`, with the tags it went through) for the service's message, and the JSON
 * path into the query (`path`) for a message at a file's line. Unknown keys are not problems here: the
 * service's generated models know every field, these tables only the common ones.
 */
import {
  ENTITY_NODE_KINDS,
  REQUIRED_FIELDS,
  TOP_LEVEL_QUERY_KINDS,
  WRAPPER_SOURCE_KINDS,
} from "./node-kinds.js";
import { isDict } from "./python.js";

export interface QueryProblem {
  /** Pydantic's location: field names, list indexes and the tags it went through. */
  loc: string[];
  /** The JSON path of the value in the query. */
  path: string[];
  message: string;
  /** Pydantic's error type (`missing`, `union_tag_invalid`, …). */
  type: string;
  /** The value the problem is about. */
  input: unknown;
  /** For a tag problem: the kinds allowed there. */
  expected?: readonly string[];
}

function tagged(
  value: unknown,
  loc: string[],
  path: string[],
  allowed: readonly string[],
): QueryProblem | string {
  if (!isDict(value)) {
    return {
      loc,
      path,
      message: "Input should be a valid dictionary or object to extract fields from",
      type: "model_attributes_type",
      input: value,
    };
  }
  const kind = value.kind;
  if (kind === undefined) {
    return {
      loc,
      path,
      message: "Unable to extract tag using discriminator 'kind'",
      type: "union_tag_not_found",
      input: value,
      expected: allowed,
    };
  }
  if (typeof kind !== "string" || !allowed.includes(kind)) {
    const tags = allowed.map((t) => `'${t}'`).join(", ");
    return {
      loc,
      path: [...path, "kind"],
      message: `Input tag '${String(kind)}' found using 'kind' does not match any of the expected tags: ${tags}`,
      type: "union_tag_invalid",
      input: value,
      expected: allowed,
    };
  }
  return kind;
}

/** Problems of one node of a known kind: its required fields, then its discriminated children. */
export function nodeProblems(
  node: Record<string, unknown>,
  kind: string,
  loc: string[],
  path: string[],
): QueryProblem[] {
  const problems: QueryProblem[] = [];
  for (const field of REQUIRED_FIELDS[kind] ?? []) {
    if (!(field in node))
      problems.push({ loc: [...loc, field], path, message: "Field required", type: "missing", input: node });
  }
  const sources = WRAPPER_SOURCE_KINDS[kind];
  if (sources !== undefined && "source" in node) {
    const sourceKind = tagged(node.source, [...loc, "source"], [...path, "source"], sources);
    if (typeof sourceKind !== "string") problems.push(sourceKind);
    else {
      problems.push(
        ...nodeProblems(
          node.source as Record<string, unknown>,
          sourceKind,
          [...loc, "source", sourceKind],
          [...path, "source"],
        ),
      );
    }
  }
  if ("series" in node && REQUIRED_FIELDS[kind]?.includes("series")) {
    if (!Array.isArray(node.series)) {
      problems.push({
        loc: [...loc, "series"],
        path: [...path, "series"],
        message: "Input should be a valid list",
        type: "list_type",
        input: node.series,
      });
    } else {
      node.series.forEach((item, i) => {
        const at = [...path, "series", String(i)];
        const itemKind = tagged(item, [...loc, "series", String(i)], at, ENTITY_NODE_KINDS);
        if (typeof itemKind !== "string") problems.push(itemKind);
        else if (itemKind === "ActionsNode") {
          problems.push(
            ...nodeProblems(
              item as Record<string, unknown>,
              itemKind,
              [...loc, "series", String(i), itemKind],
              at,
            ),
          );
        }
      });
    }
  }
  const exclusions = isDict(node.funnelsFilter) ? node.funnelsFilter.exclusions : undefined;
  if (kind === "FunnelsQuery" && Array.isArray(exclusions)) {
    exclusions.forEach((item, i) => {
      const at = ["funnelsFilter", "exclusions", String(i)];
      const itemKind = tagged(item, [...loc, ...at], [...path, ...at], ["EventsNode", "ActionsNode"]);
      if (typeof itemKind !== "string") problems.push(itemKind);
    });
  }
  return problems;
}

/** The problems of a query validated as `QuerySchemaRoot` (empty when it validates). */
export function queryProblems(query: unknown): QueryProblem[] {
  const kind = tagged(query, [], [], TOP_LEVEL_QUERY_KINDS);
  if (typeof kind !== "string") return [kind];
  return nodeProblems(query as Record<string, unknown>, kind, [kind], []);
}
