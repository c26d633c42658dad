/**
 * The JSON Schema of `promote --format json` (result.ts `PromoteResult`): the environments, the shared
 * files' diffs, what was promoted, kept, adopted and left out, the warnings, and the destination's plan
 * in the plan's own schema. `npm run schemas` writes it to schemas/promote.schema.json.
 */
import { planSchema } from "../plan/schema.js";
import type { PlanVerb } from "../plan/verbs.js";

const text = (description: string) => ({ type: "string", description });

export function promoteSchema(
  kinds: readonly { readonly name: string; readonly verbs: readonly PlanVerb[] }[],
): Record<string, unknown> {
  const {
    $schema: _schema,
    title: _title,
    $defs,
    ...plan
  } = planSchema(kinds) as Record<string, unknown> & { $defs: Record<string, unknown> };
  const object = (required: string[], properties: Record<string, unknown>, description: string) => ({
    type: "object",
    required,
    additionalProperties: false,
    description,
    properties,
  });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "posthog-gitops promote",
    description:
      "The output of `posthog-gitops promote SRC [DST] --format json`: the edits that carry SRC's live values into the shared files (as unified diffs), what stays in SRC's own files and why, what --adopt brought or left out, where the two environments disagree, and DST's plan from the edited files. Never holds a secret value.",
    type: "object",
    required: [
      "format_version",
      "source",
      "destination",
      "written",
      "files",
      "promoted",
      "kept",
      "adopted",
      "left_out",
      "variables",
      "warnings",
    ],
    additionalProperties: false,
    properties: {
      format_version: { const: "1", description: "Bumped on any incompatible change to this format." },
      source: { $ref: "#/$defs/environment", description: "The environment whose live values are promoted." },
      destination: {
        $ref: "#/$defs/environment",
        description: "The environment planned from the edited files.",
      },
      written: { type: "boolean", description: "The edits were written to the files (--write)." },
      files: {
        type: "array",
        description: "Each shared file the promotion edits or creates.",
        items: object(
          ["path", "created", "diff"],
          {
            path: text("The file, as the configuration paths name it."),
            created: {
              type: "boolean",
              description: "A new shared file (--adopt), diffed against /dev/null.",
            },
            diff: text("A unified diff of the file's text (`--- a/PATH` / `+++ b/PATH`)."),
          },
          "One shared file's change.",
        ),
      },
      promoted: {
        type: "array",
        description: "Each field of a declaration whose live value is written into a shared file.",
        items: object(
          ["owner", "field", "file"],
          {
            owner: text('The declaration, e.g. `feature flag "new-checkout"`.'),
            field: text("The field inside it, dotted: `filters.groups`."),
            file: text("The shared file that declares it."),
          },
          "A promoted field.",
        ),
      },
      kept: {
        type: "array",
        description:
          "Differences that stay where they are: a value SRC's overlay set, a variable of SRC gave, a secret, an id, and why.",
        items: object(
          ["owner", "field", "why"],
          {
            owner: text("The declaration."),
            field: text("The field inside it, dotted."),
            why: text("Why it is not promoted, and where the value that stays was written."),
            source: {
              type: "object",
              required: ["file", "line", "column"],
              additionalProperties: false,
              description:
                "Where the value that stays was written (the overlay's line, the variable's entry).",
              properties: {
                file: { type: "string" },
                line: { type: "integer", minimum: 0 },
                column: { type: "integer", minimum: 0 },
              },
            },
          },
          "A difference kept in the source environment.",
        ),
      },
      adopted: {
        type: "array",
        description: "With --adopt: the live objects no file declared that join the shared files.",
        items: object(
          ["kind", "name", "file"],
          {
            kind: text("The kind's stable name."),
            name: text("Its identity."),
            file: text("The shared file."),
          },
          "An adopted object.",
        ),
      },
      left_out: {
        type: "array",
        description: "With --adopt: the undeclared live objects not adopted, and why.",
        items: object(
          ["kind", "name", "why"],
          {
            kind: text("The kind's stable name."),
            name: text("Its identity."),
            why: text("Why it was left out."),
          },
          "An object left out.",
        ),
      },
      variables: {
        type: "array",
        items: { type: "string" },
        description: "Secret variables the adopted objects read (`${NAME}`): set them before applying.",
      },
      warnings: {
        type: "array",
        description:
          "Where the two environments disagree in ways that change what the shared files mean (SPEC §9).",
        items: object(
          ["code", "message"],
          {
            code: { enum: ["group_type", "static_cohort", "integration", "member"] },
            message: text("What differs, naming the declaration and both environments."),
          },
          "A warning.",
        ),
      },
      plan: { $ref: "#/$defs/plan", description: "DST's plan from the edited files (plan.schema.json)." },
      error: text("Why DST could not be planned (the exit code is then 1)."),
      refusal: text("Why `apply` would refuse that plan in DST (`protect`, `limits`)."),
    },
    $defs: {
      ...$defs,
      plan,
      environment: object(
        ["name", "project"],
        {
          name: text("The environment's name."),
          project: { type: "integer", description: "Its project id." },
          host: text("The host it was read from."),
        },
        "An environment.",
      ),
    },
  };
}
