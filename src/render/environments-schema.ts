/**
 * The JSON Schemas of the envelope that `plan --format json` and `apply --format json` print when the
 * files declare environments (SPEC §9): `{format_version, environments: [...]}`, one entry per section
 * (each environment, then the single-project files of each project that is no environment's), each
 * with its plan in the plan's own schema (or its apply result in the apply result's), or why there is
 * none. `npm run schemas` writes them to schemas/plan-environments.schema.json and
 * schemas/apply-environments.schema.json; the envelope's version is `ENVELOPE_FORMAT_VERSION`.
 */
import { applySchema } from "../apply/schema.js";
import { embedSchema as embedded, planSchema } from "../plan/schema.js";
import type { PlanVerb } from "../plan/verbs.js";
import { ENVELOPE_FORMAT_VERSION } from "./environments.js";

type Kinds = readonly { readonly name: string; readonly verbs: readonly PlanVerb[] }[];

const text = (description: string) => ({ type: "string", description });

/** What every section says of itself, whatever the command. */
function sectionProperties(): Record<string, unknown> {
  return {
    name: {
      type: "string",
      minLength: 1,
      description:
        "The environment's name; for the single-project files of a project that is no environment's, `project N`.",
    },
    project: { type: "integer", minimum: 1, description: "The project it is planned or applied against." },
    single_project: {
      const: true,
      description:
        "Present for the single-project files of a project that is no environment's (planned with the default connection: POSTHOG_HOST, POSTHOG_API_KEY); absent for an environment.",
    },
    host: text("The service it was read from (absent when it could not be reached)."),
    error: text("Why it could not be planned or applied; the other sections still are (plan)."),
  };
}

function envelope(
  title: string,
  description: string,
  section: Record<string, unknown>,
  defs: Record<string, unknown>,
): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title,
    description,
    type: "object",
    required: ["format_version", "environments"],
    additionalProperties: false,
    properties: {
      format_version: {
        const: ENVELOPE_FORMAT_VERSION,
        description:
          "Bumped on any incompatible change to this format. 2: each section's plan (or apply result) is in that document's format 2; sections of single-project files (`single_project`).",
      },
      environments: {
        type: "array",
        items: { $ref: "#/$defs/section" },
        description:
          "One entry per section: the environments (in declaration order for plan, promote_from order for apply), then the single-project files of each project that is no environment's.",
      },
    },
    $defs: { ...defs, section },
  };
}

export function planEnvironmentsSchema(kinds: Kinds): Record<string, unknown> {
  return envelope(
    "posthog-gitops plan of environments",
    "The output of `posthog-gitops plan --format json` when the files declare environments (SPEC §9): one section per environment, and per project of single-project files beside them, each with its plan in the single-project shape (plan.schema.json) or the error that stopped it. Never holds a secret value.",
    {
      type: "object",
      required: ["name", "project"],
      additionalProperties: false,
      description: "One section: its plan, or why there is none; what apply would refuse; its warnings.",
      properties: {
        ...sectionProperties(),
        plan: { $ref: "#/$defs/plan", description: "Its plan, as plan.schema.json describes it." },
        refusal: text("Why `apply` would refuse this plan here (the environment's `protect`, `limits`)."),
        warnings: {
          type: "array",
          items: { type: "string" },
          description:
            "Where this environment and the one it is promoted from disagree in ways that change what the shared declarations mean (group type indexes, static cohorts).",
        },
      },
      oneOf: [{ required: ["plan"] }, { required: ["error"] }],
    },
    embedded(planSchema(kinds), "plan"),
  );
}

export function applyEnvironmentsSchema(kinds: Kinds): Record<string, unknown> {
  const apply = applySchema(kinds) as Record<string, unknown> & { $defs: Record<string, unknown> };
  return envelope(
    "posthog-gitops apply of environments",
    "The output of `posthog-gitops apply --format json` when the files declare environments (SPEC §9): one entry per section applied, in the order applied (environments in promote_from order, then single-project files), each with its apply result (apply.schema.json) or the error that stopped it; apply stops at the first section that fails, and the sections after it are absent. Never holds a secret value.",
    {
      type: "object",
      required: ["name", "project"],
      additionalProperties: false,
      description: "One section applied: its result, or why it was not applied.",
      properties: {
        ...sectionProperties(),
        result: {
          $ref: "#/$defs/apply",
          description: "Its apply result, as apply.schema.json describes it.",
        },
      },
    },
    embedded(apply, "apply"),
  );
}
