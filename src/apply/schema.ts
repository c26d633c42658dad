/**
 * The JSON Schema of an apply's result: what `apply --format json` prints and the library's
 * `applyPlan` returns (`ApplyResult`, result.ts). Each result carries its action exactly as the plan
 * had it, so the plan's definitions are reused. `npm run schemas` writes it to schemas/apply.schema.json.
 */
import { planSchema } from "../plan/schema.js";
import type { PlanVerb } from "../plan/verbs.js";

const objectId = { anyOf: [{ type: "integer" }, { type: "string", minLength: 1 }] };

export function applySchema(
  kinds: readonly { readonly name: string; readonly verbs: readonly PlanVerb[] }[],
): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "posthog-gitops apply result",
    description:
      "The output of `posthog-gitops apply --format json`, and the value the library's `applyPlan` returns: one outcome per action of the plan, then the check for names created twice. Never holds a secret value.",
    type: "object",
    required: ["format_version", "ok", "results", "duplicates"],
    additionalProperties: false,
    properties: {
      format_version: {
        const: "2",
        description:
          "Bumped on any incompatible change to this format. 2: each result's action is in the plan's format 2.",
      },
      ok: {
        type: "boolean",
        description: "Every action succeeded and no created name has several live objects (exit code 0).",
      },
      results: {
        type: "array",
        items: { $ref: "#/$defs/result" },
        description: "One per action of the plan, in the order their outcomes became known.",
      },
      duplicates: {
        type: "array",
        items: { $ref: "#/$defs/duplicate" },
        description:
          "Names this apply created that now have several live objects (another apply created the same at once).",
      },
      unchecked: {
        type: "string",
        description: "Why the created names could not all be checked for duplicates.",
      },
    },
    $defs: {
      ...(planSchema(kinds).$defs as Record<string, unknown>),
      outcome: {
        enum: ["ok", "failed", "skipped", "not_started", "pending"],
        description:
          "skipped: not tried because other work on the object (or on one it depends on) failed; not_started: the run was stopped (Ctrl-C / SIGTERM) before it, nothing was sent for it; pending: an approval policy of the organization holds the change (not live until approved; `change_request` names the request).",
      },
      result: {
        type: "object",
        required: ["action", "outcome", "notes"],
        additionalProperties: false,
        properties: {
          action: { $ref: "#/$defs/action" },
          outcome: { $ref: "#/$defs/outcome" },
          id: { ...objectId, description: "The object's id after the action (set by creates)." },
          error: { type: "string", description: "Why it failed, or was skipped, not started or held." },
          change_request: {
            type: "string",
            minLength: 1,
            description:
              "The change request an approval policy opened instead of the change (outcome pending).",
          },
          notes: { type: "array", items: { type: "string" } },
        },
      },
      duplicate: {
        type: "object",
        required: ["kind", "project", "name", "ids"],
        additionalProperties: false,
        properties: {
          kind: { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
          project: { $ref: "#/$defs/projectId" },
          name: { type: "string" },
          ids: { type: "array", items: objectId, minItems: 2 },
        },
      },
    },
  };
}
