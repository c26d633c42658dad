/**
 * Saved plans (`plan --out FILE`, `apply --plan FILE`, SPEC §3). The file holds the plan exactly as the
 * JSON format shows it (no secret values: secrets stay SecretRefs), bound to what made it: the tool's
 * version, the host, the projects, the options, a digest of every configuration file, and what was read
 * of the live state. `apply --plan` refuses, naming what differs, when any of these changed; and it sends
 * only what the planner derives again from the same files and the same live state at the plan's own
 * instant, so a plan file edited by hand cannot carry a write that its rendering hides.
 */
import { readFile } from "node:fs/promises";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { UserError } from "../errors.js";
import { fileError } from "../files.js";
import { fingerprintLive } from "../plan/index.js";
import type { PlanKind } from "../plan/kinds.js";
import { modifiedWords } from "../plan/modified.js";
import { embedSchema, planSchema } from "../plan/schema.js";
import { type Action, fingerprintKeys, type LiveProject, type ObjectRef, type Plan } from "../plan/types.js";
import { canonicalJson } from "../plan/values.js";
import type { PlanVerb } from "../plan/verbs.js";
import type { ReadSet } from "../read/fetch.js";

const SAVED_PLAN_VERSION = 3;

/** The planner's options a saved plan was made with; apply plans again with the same. */
export interface SavedOptions {
  prune: boolean;
  force: boolean;
  rotateSecrets: boolean;
  targets?: string[];
  /** A change-scoped plan's declarations (`declarationKey`s): planned again alone. */
  scope?: string[];
}

export interface SavedPlan {
  saved_plan_version: typeof SAVED_PLAN_VERSION;
  /** The version of posthog-gitops that made it: another version may plan differently. */
  tool_version: string;
  /** The environment it was made for (SPEC §9): `apply --plan` applies it there and nowhere else. */
  environment?: string;
  /** The service it was made against (origin). */
  host: string;
  options: SavedOptions;
  /** The configuration it came from: the paths given to `plan`, and sha256 of each file read. */
  config: { paths: string[]; digests: Record<string, string> };
  plan: Plan;
  reads: ReadSet[];
}

/** The saved plan's file text (written with `writeOutput`, so scrubbed like all output, mode 0600). */
export function savedPlanText(saved: Omit<SavedPlan, "saved_plan_version">): string {
  const content: SavedPlan = { saved_plan_version: SAVED_PLAN_VERSION, ...saved };
  return `${JSON.stringify(content, null, 2)}\n`;
}

/**
 * The plans of several environments in one file: one environment's is a saved plan as above (with its
 * `environment`); several are `{ saved_plan_version, environments: [...] }`, each bound to its own (the
 * single-project files beside them, SPEC §9, by their project: they name no environment).
 */
export function savedPlansText(saved: ReadonlyArray<Omit<SavedPlan, "saved_plan_version">>): string {
  if (saved.length === 1 && saved[0] !== undefined) return savedPlanText(saved[0]);
  const environments = saved.map((s): SavedPlan => ({ saved_plan_version: SAVED_PLAN_VERSION, ...s }));
  return `${JSON.stringify({ saved_plan_version: SAVED_PLAN_VERSION, environments }, null, 2)}\n`;
}

const validators = new WeakMap<readonly PlanKind[], (data: unknown) => boolean>();

/**
 * The saved plan file's JSON Schema (schemas/saved-plan.schema.json, `npm run schemas`): one saved plan,
 * or the plans of several sections saved together, `{ saved_plan_version, environments: [...] }`; each
 * with its own shape (strings, booleans) and its plan in the plan's schema of the kinds it is applied
 * with (their verbs). `apply --plan` checks a file against it before anything else.
 */
export function savedPlanSchema(
  kinds: readonly { readonly name: string; readonly verbs: readonly PlanVerb[] }[],
): Record<string, unknown> {
  const strings = { type: "array", items: { type: "string" } };
  const version = {
    const: SAVED_PLAN_VERSION,
    description: "Bumped on any incompatible change; a plan saved by another version is made again.",
  };
  const saved = {
    type: "object",
    description:
      "One plan, bound to what made it: apply --plan refuses it when any of these changed, and sends only what it plans again from the same files and live state.",
    required: ["saved_plan_version", "tool_version", "host", "options", "config", "plan", "reads"],
    // Never also the list of several: a file is one or the other.
    not: { required: ["environments"] },
    properties: {
      saved_plan_version: version,
      tool_version: { type: "string", description: "The version of posthog-gitops that made it." },
      environment: {
        type: "string",
        description:
          "The environment it was made for (SPEC §9): apply --plan applies it there only. Absent for single-project files, bound by their project.",
      },
      host: { type: "string", description: "The service it was made against (origin)." },
      options: {
        type: "object",
        description: "The planner's options it was made with; apply plans again with the same.",
        required: ["prune", "force", "rotateSecrets"],
        properties: {
          prune: { type: "boolean" },
          force: { type: "boolean" },
          rotateSecrets: { type: "boolean" },
          targets: strings,
          scope: strings,
        },
      },
      config: {
        type: "object",
        description: "The configuration it came from: the paths given to plan, and sha256 of each file read.",
        required: ["paths", "digests"],
        properties: {
          paths: strings,
          digests: { type: "object", additionalProperties: { type: "string", pattern: "^[0-9a-f]{64}$" } },
        },
      },
      plan: { $ref: "#/$defs/plan", description: "The plan, as plan.schema.json describes it." },
      reads: {
        type: "array",
        description: "What was read of the live state, to read the same again.",
        items: {
          type: "object",
          required: ["project", "kinds"],
          properties: {
            project: { type: "integer", minimum: 1 },
            kinds: { type: "object" },
            scope: {
              type: "object",
              additionalProperties: {
                type: "object",
                required: ["ids", "names", "pinnedElsewhere"],
                additionalProperties: false,
                properties: {
                  ids: { type: "array", items: { type: ["integer", "string"] } },
                  names: strings,
                  pinnedElsewhere: { type: "array", items: { type: ["integer", "string"] } },
                },
              },
            },
          },
        },
      },
    },
  };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "posthog-gitops saved plan",
    description:
      "The file `plan --out FILE` writes and `apply --plan FILE` applies: one saved plan, or, for several environments (and the single-project files beside them), `{saved_plan_version, environments: [...]}` with one saved plan each. Never holds a secret value.",
    anyOf: [
      { $ref: "#/$defs/saved" },
      {
        type: "object",
        required: ["saved_plan_version", "environments"],
        additionalProperties: false,
        properties: {
          saved_plan_version: version,
          environments: {
            type: "array",
            minItems: 1,
            items: { $ref: "#/$defs/saved" },
            description: "One saved plan per section: an environment's names it.",
          },
        },
      },
    ],
    $defs: { ...embedSchema(planSchema(kinds), "plan"), saved },
  };
}

/** The check of a saved plan file, compiled once per list of kinds. */
function savedValidator(kinds: readonly PlanKind[]) {
  let validateSaved = validators.get(kinds);
  if (!validateSaved) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    addFormats.default(ajv);
    validateSaved = ajv.compile(savedPlanSchema(kinds));
    validators.set(kinds, validateSaved);
  }
  return validateSaved;
}

export async function readSavedPlan(file: string, kinds: readonly PlanKind[]): Promise<SavedPlan> {
  const [first, ...more] = await readSavedPlans(file, kinds);
  if (first === undefined || more.length > 0 || first.environment !== undefined) {
    throw new UserError(
      `${file} holds the plans of environments (${[first, ...more].map((s) => s?.environment).join(", ")}): apply it where the files declare them`,
      "plan_refused",
    );
  }
  return first;
}

/** A saved plan, or the plans of several environments saved together: each checked as one. */
export async function readSavedPlans(file: string, kinds: readonly PlanKind[]): Promise<SavedPlan[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw fileError("read the saved plan", file, error);
    throw new UserError(`cannot read the saved plan ${file}: it is not JSON`, "file_error");
  }
  if (!savedValidator(kinds)(data)) {
    throw new UserError(
      `${file} is not a plan saved by this version of posthog-gitops, or it was edited by hand: make it again with plan --out`,
      "plan_refused",
    );
  }
  // Several plans: each environment's names it; single-project files' are bound by their project.
  const environments = (data as { environments?: unknown }).environments;
  return (Array.isArray(environments) ? environments : [data]) as SavedPlan[];
}

/**
 * What binds a saved plan: the tool's version, the host, the projects (an explicit --project must be
 * one of them), and the configuration files (none added, removed or changed). A UserError naming each
 * difference, code `plan_refused`.
 */
export function checkBinding(
  saved: SavedPlan,
  now: { version: string; host: string; project: number | undefined; digests: Record<string, string> },
): void {
  const problems: string[] = [];
  if (saved.tool_version !== now.version) {
    problems.push(`it was made by posthog-gitops ${saved.tool_version}, this is ${now.version}`);
  }
  if (saved.host !== now.host) problems.push(`it was made against ${saved.host}, not ${now.host}`);
  if (now.project !== undefined && !saved.plan.projects.includes(now.project)) {
    problems.push(`it is for project ${saved.plan.projects.join(", ")}, not ${now.project}`);
  }
  const files = new Set([...Object.keys(saved.config.digests), ...Object.keys(now.digests)]);
  const changed = [...files].sort().flatMap((path) => {
    const before = saved.config.digests[path];
    const after = now.digests[path];
    if (before === after) return [];
    return [before === undefined ? `${path} (new)` : after === undefined ? `${path} (gone)` : path];
  });
  if (changed.length > 0) problems.push(`the configuration changed since: ${changed.join(", ")}`);
  if (problems.length > 0) {
    throw new UserError(`refusing the saved plan: ${problems.join("; ")}. Make a new plan.`, "plan_refused");
  }
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
  const keys = fingerprintKeys(plan.actions);
  for (const [i, action] of plan.actions.entries()) {
    const key = keys[i] as string;
    if (seen.has(key)) continue;
    seen.add(key);
    // An object the plan never fingerprinted was not planned: the check against the derived plan names it.
    if (!(key in plan.fingerprints)) continue;
    if (
      fingerprintLive(kinds, byProject.get(action.object.project), action.object) !== plan.fingerprints[key]
    ) {
      stale.push(action.object);
    }
  }
  return stale;
}

export function staleError(
  kinds: readonly PlanKind[],
  stale: readonly ObjectRef[],
  live: readonly LiveProject[] = [],
): UserError {
  const word = (o: ObjectRef) => kinds.find((k) => k.name === o.kind)?.words.one ?? o.kind;
  // Who changed it, and when, where the service says (a flag's last_modified_by): the reviewer's next
  // question.
  const changed = (o: ObjectRef) => {
    const words = modifiedWords({ object: o }, live);
    return words === undefined ? "" : `, changed ${words}`;
  };
  const names = stale.map((o) => `${word(o)} "${o.name}" (project ${o.project}${changed(o)})`).join(", ");
  return new UserError(
    `the live state changed since the plan was made: ${names}; nothing was applied. Make a new plan.`,
    "plan_refused",
  );
}

/**
 * The saved plan must be what the planner derives again from the same files and live state: any
 * difference in its actions or notes (a body, an action or an object edited by hand) refuses it,
 * naming the first difference. Returns nothing; apply then sends the plan derived again.
 */
/**
 * What the planner derives of an action: without the reviewer's annotations (`--base` drift labels and
 * modification times), which come from git and are not planned again.
 */
function derivable(action: Action | undefined): Action | undefined {
  if (action === undefined) return undefined;
  const { drift: _drift, modified: _modified, ...rest } = action;
  return rest;
}

export function checkDerived(saved: Plan, derived: Plan): void {
  const describe = (a: Action | undefined) =>
    a === undefined
      ? "nothing"
      : `${a.action} of ${a.object.kind} "${a.object.name}" (project ${a.object.project})`;
  const count = Math.max(saved.actions.length, derived.actions.length);
  for (let i = 0; i < count; i++) {
    const s = saved.actions[i];
    const d = derived.actions[i];
    if (canonicalJson(derivable(s)) !== canonicalJson(derivable(d))) {
      throw new UserError(
        `refusing the saved plan: its action ${i + 1} (${describe(s)}) is not what the files and the live state give (${describe(d)}); was it edited? Make a new plan.`,
        "plan_refused",
      );
    }
  }
  if (canonicalJson(saved.notes) !== canonicalJson(derived.notes)) {
    throw new UserError(
      "refusing the saved plan: its notes differ from what the files and the live state give; make a new plan",
      "plan_refused",
    );
  }
}
