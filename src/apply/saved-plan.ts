/**
 * Saved plans (`plan --out FILE`, `apply --plan FILE`). The file holds the plan exactly as the JSON
 * format shows it (no secret values: secrets stay SecretRefs), plus what was read to make it, so apply
 * reads the same things again and refuses, naming the objects, when any touched object changed since.
 */
import { readFile, writeFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { UserError } from "../errors.js";
import { fileError } from "../files.js";
import { fingerprintLive } from "../plan/index.js";
import type { PlanKind } from "../plan/kinds.js";
import { planSchema } from "../plan/schema.js";
import { type LiveProject, type ObjectRef, objectKey, type Plan } from "../plan/types.js";
import type { ReadSet } from "../read/fetch.js";

const SAVED_PLAN_VERSION = 2;

export interface SavedPlan {
  saved_plan_version: typeof SAVED_PLAN_VERSION;
  plan: Plan;
  reads: ReadSet[];
}

export async function writeSavedPlan(file: string, plan: Plan, reads: readonly ReadSet[]): Promise<void> {
  const saved: SavedPlan = { saved_plan_version: SAVED_PLAN_VERSION, plan, reads: [...reads] };
  await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
}

let validatePlan: ((data: unknown) => boolean) | undefined;

function planValidator() {
  if (!validatePlan) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    addFormats.default(ajv);
    validatePlan = ajv.compile(planSchema);
  }
  return validatePlan;
}

export async function readSavedPlan(file: string): Promise<SavedPlan> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw fileError("read the saved plan", file, error);
    throw new UserError(`cannot read the saved plan ${file}: it is not JSON`, "file_error");
  }
  const saved = data as Partial<SavedPlan> | null;
  if (
    !saved ||
    saved.saved_plan_version !== SAVED_PLAN_VERSION ||
    !Array.isArray(saved.reads) ||
    !planValidator()(saved.plan)
  ) {
    throw new UserError(`${file} is not a plan saved by this version of posthog-gitops (plan --out)`);
  }
  return saved as SavedPlan;
}

/** The objects whose live state no longer matches the fingerprint the plan was made with. */
export function staleObjects(
  kinds: readonly PlanKind[],
  plan: Plan,
  live: readonly LiveProject[],
): ObjectRef[] {
  const byProject = new Map(live.map((p) => [p.project, p]));
  const seen = new Set<string>();
  const stale: ObjectRef[] = [];
  for (const action of plan.actions) {
    const key = objectKey(action.object);
    if (seen.has(key)) continue;
    seen.add(key);
    if (
      fingerprintLive(kinds, byProject.get(action.object.project), action.object) !== plan.fingerprints[key]
    ) {
      stale.push(action.object);
    }
  }
  return stale;
}

export function staleError(kinds: readonly PlanKind[], stale: readonly ObjectRef[]): UserError {
  const word = (o: ObjectRef) => kinds.find((k) => k.name === o.kind)?.words.one ?? o.kind;
  const names = stale.map((o) => `${word(o)} "${o.name}" (project ${o.project})`).join(", ");
  return new UserError(
    `the live state changed since the plan was made: ${names}; nothing was applied. Make a new plan.`,
  );
}
