/**
 * The rules of one declared flag a field table cannot say (SPEC §2): the offline checks (checks.ts), `filters` with its
 * strings interpolated and, for a flag with encrypted payloads, each payload a secret (`SecretValue`),
 * and the flags and cohorts its filters name, with their places for plan-time resolution. Across the
 * declarations of a project: dependency cycles.
 */
import type { ObjectContext } from "../../config/context.js";
import { envLookup, isToolVariable, secretReference } from "../../config/interpolate.js";
import type { ProjectProblem } from "../../config/kinds.js";
import { noteMissingSecret } from "../../config/missing-secrets.js";
import { SecretValue } from "../../config/secret.js";
import type { DesiredProject } from "../../config/types.js";
import { checkFlag, encryptedPayloadPointers } from "./checks.js";
import { dependencyCycles, flagReferences } from "./dependencies.js";
import type { DesiredFlag } from "./fields.js";
import { isObject, type Json } from "./filters.js";
import { FEATURE_FLAG } from "./name.js";

export function declareFlag(input: Json, desired: DesiredFlag, ctx: ObjectContext): void {
  desired.references = [];
  desired.cohorts = [];
  checkFlag(input, ctx);
  if (!isObject(input.filters)) return;
  const secretPointers = new Set(encryptedPayloadPointers(input));
  const filters = ctx.deep("/filters", input.filters, secretPointers) as Json;
  if (secretPointers.size > 0 && isObject(input.filters.payloads)) {
    const payloads: Json = {};
    for (const [key, value] of Object.entries(input.filters.payloads)) {
      const secret = payloadSecret(key, value, ctx);
      if (secret !== undefined) payloads[key] = secret;
    }
    filters.payloads = payloads;
  }
  desired.filters = filters;
  desired.references = flagReferences(filters).map((r) => ({ key: r.key, source: ctx.at(r.pointer) }));
  const groups = Array.isArray(filters.groups) ? filters.groups : [];
  groups.forEach((group, g) => {
    if (!isObject(group) || !Array.isArray(group.properties)) return;
    group.properties.forEach((prop, p) => {
      if (isObject(prop) && prop.type === "cohort" && typeof prop.cohort === "string") {
        desired.cohorts.push({
          name: prop.cohort,
          source: ctx.at(`/filters/groups/${g}/properties/${p}/cohort`),
        });
      }
    });
  });
}

/** An encrypted payload: one `${NAME}` reference (checks.ts reports anything else), read from the environment. */
function payloadSecret(key: string, value: unknown, ctx: ObjectContext): SecretValue | undefined {
  const pointer = `/filters/payloads/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  const name = secretReference(value);
  if (name === undefined) return undefined;
  const field = `filters.payloads.${key}`;
  if (isToolVariable(name)) {
    ctx.error(
      pointer,
      `${field} of ${ctx.owner} refers to ${name}: this tool's own variables (POSTHOG_*) never go into a field`,
    );
    return undefined;
  }
  const set = envLookup(ctx.run.env)(name);
  if (set === undefined) noteMissingSecret(ctx, name, pointer, field);
  return new SecretValue(value as string, [name], set);
}

/** The dependency cycles among a project's declared flags, each reported at the flag condition that closes it. */
export function checkFlagCycles(project: DesiredProject): ProjectProblem[] {
  const flags = (project.objects[FEATURE_FLAG] ?? []).filter(
    (d): d is DesiredFlag => "references" in d && !d.deleted,
  );
  const graph = new Map(flags.map((f) => [f.name, f.references.map((r) => r.key)]));
  const problems: ProjectProblem[] = [];
  for (const cycle of dependencyCycles(graph)) {
    const [first, second] = cycle;
    const flag = flags.find((f) => f.name === first);
    const at = flag?.references.find((r) => r.key === second)?.source ?? flag?.source;
    if (at === undefined) continue;
    const path = cycle.join(" → ");
    problems.push({
      source: at,
      message:
        cycle.length === 2
          ? `feature flag "${first}" depends on itself: the service refuses a flag condition on the flag itself`
          : `feature flags depend on each other in a cycle (${path}): the service refuses it; remove one of the flag conditions`,
    });
  }
  return problems;
}
