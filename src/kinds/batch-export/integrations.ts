/**
 * The planner's integration rules (service-api.md §4 "Integrations"): each `destination.integration`
 * must be an integration of the export's project, of the kind its destination type takes (and a Redshift
 * COPY's integration ids must be aws-s3 ones). The service would refuse the write with a 400; the plan
 * refuses first, naming the file:line and the project's integrations that would fit.
 */
import type { PlanError } from "../../plan/index.js";
import type { Integration } from "../../service/index.js";
import { plural } from "../../words.js";
import type { DesiredBatchExport } from "./fields.js";
import { INTEGRATION_KIND } from "./service-rules/destinations.js";
import { withArticle } from "./service-rules/legacy.js";

/** Errors for the integrations `desired` names; empty when they fit (or were not read). */
export function integrationErrors(
  desired: DesiredBatchExport,
  project: number,
  integrations: readonly Integration[] | undefined,
): PlanError[] {
  const destination = desired.destination;
  if (!destination || destination.integration === undefined || integrations === undefined) return [];
  const errors: PlanError[] = [];
  const where = `batch export "${desired.name}"`;
  const source = destination.integrationSource ?? desired.source;
  const wanted = INTEGRATION_KIND[destination.type];
  if (wanted === undefined) return []; // declare refuses an integration on such a type
  const check = (id: number, kind: string, field: string) => {
    const found = integrations.find((i) => i.id === id);
    if (!found) {
      errors.push({
        message: `${where}: ${field} ${id} is not an integration of project ${project}; ${fitting(integrations, kind, project)}`,
        source,
      });
    } else if (found.kind !== kind) {
      errors.push({
        message: `${where}: ${field} ${id} (${label(found)}) is ${withArticle(found.kind)} integration, but destination type ${destination.type} needs ${withArticle(kind)} integration; ${fitting(integrations, kind, project)}`,
        source,
      });
    }
  };
  check(destination.integration, wanted, "destination.integration");
  if (destination.type === "Redshift") {
    const copy = destination.config.copy_inputs as Record<string, unknown> | undefined;
    for (const key of ["authorization", "bucket_credentials"]) {
      const value = copy?.[key];
      if (typeof value === "number") check(value, "aws-s3", `destination.config.copy_inputs.${key}`);
    }
  }
  return errors;
}

function label(i: Integration): string {
  return i.display_name ? `"${i.display_name}"` : `id ${i.id}`;
}

/** The project's integrations of `kind`, or how to get one. */
function fitting(integrations: readonly Integration[], kind: string, project: number): string {
  const ok = integrations.filter((i) => i.kind === kind);
  if (ok.length === 0) {
    return `project ${project} has no ${kind} integration: create one in PostHog (Data pipelines), then use its id`;
  }
  const shown = ok.slice(0, 5).map((i) => `${i.id} ${label(i)}`);
  const more = ok.length > shown.length ? `, and ${ok.length - shown.length} more` : "";
  return `its ${kind} ${plural(ok.length, "integration")}: ${shown.join(", ")}${more}`;
}

/**
 * The export with its integration named by `{kind, name}` resolved to this project's id (SPEC §9): the
 * one integration of that kind with exactly that display name. None, or several, is an error naming
 * what the project has.
 */
export function resolveIntegration(
  desired: DesiredBatchExport,
  project: number,
  integrations: readonly Integration[] | undefined,
): { desired: DesiredBatchExport } | { error: PlanError } {
  const destination = desired.destination;
  const named = destination?.integrationName;
  if (destination === undefined || named === undefined || integrations === undefined) return { desired };
  const source = destination.integrationSource ?? desired.source;
  const where = `batch export "${desired.name}"`;
  const found = integrations.filter((i) => i.kind === named.kind && i.display_name === named.name);
  if (found.length === 1 && found[0] !== undefined) {
    return { desired: { ...desired, destination: { ...destination, integration: found[0].id } } };
  }
  if (found.length > 1) {
    return {
      error: {
        message: `${where}: project ${project} has ${found.length} ${named.kind} integrations named "${named.name}" (ids ${found.map((i) => i.id).join(", ")}): give them distinct names in PostHog, or pin one by id in this environment's overlay`,
        source,
      },
    };
  }
  return {
    error: {
      message: `${where}: no ${named.kind} integration named "${named.name}" in project ${project}; ${fitting(integrations, named.kind, project)}`,
      source,
    },
  };
}
