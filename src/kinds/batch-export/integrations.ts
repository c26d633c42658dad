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
