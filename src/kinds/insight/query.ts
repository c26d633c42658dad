/**
 * A declared insight query: interpolated like any value, run through the service's schema upgrades
 * (the shared package's queries/: the form the service stores and shows), and checked offline where the service would
 * refuse it (the `kind` of the query, of its source and its series, the fields each kind requires),
 * each problem at the file's line. The comparison and what apply sends are the upgraded form.
 */

import { type QueryProblem, queryProblems } from "posthog-gitops-shared/queries/check";
import type { Json } from "posthog-gitops-shared/queries/python";
import { QueryUpgradeError, upgradeQuery } from "posthog-gitops-shared/queries/upgrade";
import type { ObjectContext } from "../../config/context.js";
import { didYouMean } from "../../config/suggest.js";
import { withIds } from "../define/references.js";
import { INSIGHT_REFERENCES } from "./references.js";

/** A problem's message, naming the field as the file writes it. */
function describe(problem: QueryProblem, field: string, owner: string): string {
  const at = `${field} of ${owner}`;
  const expected = problem.expected ?? [];
  switch (problem.type) {
    case "model_attributes_type":
      return `${at} must be a mapping (a query node)`;
    case "union_tag_not_found":
      return `${at} has no kind: expected one of ${expected.join(", ")}`;
    case "union_tag_invalid": {
      const kind = String((problem.input as Record<string, unknown>).kind);
      return `${at} is of kind "${kind}", which the service does not take there: expected one of ${expected.join(", ")}${didYouMean(kind, expected)}`;
    }
    case "missing": {
      const kind = String((problem.input as Record<string, unknown>).kind ?? "node");
      return `${at} (a ${kind}) is missing the required key "${problem.loc.at(-1)}"`;
    }
    case "list_type":
      return `${at} must be a list`;
    default:
      return `${at}: ${problem.message}`;
  }
}

/** Checks a declared query (already interpolated) and reports at `pointer`; true when the service would take it. */
export function checkQuery(query: unknown, ctx: ObjectContext, pointer = "/query"): boolean {
  let upgraded: unknown;
  try {
    upgraded = upgradeQuery(query as Json);
  } catch (error) {
    if (!(error instanceof QueryUpgradeError)) throw error;
    ctx.error(
      pointer,
      `${ctx.field(pointer)} of ${ctx.owner} cannot be read by the service: ${error.message}`,
    );
    return false;
  }
  const problems = queryProblems(upgraded);
  for (const problem of problems) {
    const at = [pointer, ...problem.path.map((s) => s.replaceAll("~", "~0").replaceAll("/", "~1"))].join("/");
    ctx.error(at, describe(problem, ctx.field(at), ctx.owner));
  }
  return problems.length === 0;
}

/** The query a declaration holds: interpolated, then checked; undefined when it is not usable. */
export function declareQuery(
  value: Record<string, unknown>,
  ctx: ObjectContext,
  pointer = "/query",
): Record<string, unknown> | undefined {
  const query = ctx.deep(pointer, value) as Record<string, unknown>;
  // The actions and cohorts it names by name stand where the service takes ids: checked as ids.
  const asSent = withIds(query, INSIGHT_REFERENCES, () => 0);
  return checkQuery(asSent, ctx, pointer) ? query : undefined;
}

/**
 * What apply sends for a declared query: its upgraded form (versions stamped as the frontend stamps
 * them), so the service's parser takes what older forms it would refuse now (series items without
 * `kind`) and stores what its reads show.
 */
export function queryToSend(query: Record<string, unknown>): Record<string, unknown> {
  return upgradeQuery(query);
}
