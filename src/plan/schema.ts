/**
 * The JSON Schema of a plan: what `plan --format json` prints and `plan --out` saves, and what
 * `apply --plan` checks a saved plan against. `npm run schemas` writes the built-in kinds' to
 * schemas/plan.schema.json. The action names, which are destructive, and which sides each action
 * carries come from the verbs of the kinds (plan/verbs.ts), so a kind's own verb is part of it.
 */
import type { PlanVerb } from "./verbs.js";
import { planVerbs } from "./verbs.js";

export function planSchema(
  kinds: readonly { readonly name: string; readonly verbs: readonly PlanVerb[] }[],
): Record<string, unknown> {
  const verbs = planVerbs(kinds);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "posthog-gitops plan",
    description:
      "The output of `posthog-gitops plan --format json`, and the `plan` of a file written by `plan --out` (saved-plan.schema.json). A plan never holds a secret value: secret fields are SecretRefs.",
    type: "object",
    required: ["format_version", "created_at", "projects", "actions", "notes", "fingerprints", "summary"],
    additionalProperties: false,
    properties: {
      format_version: {
        const: "2",
        description:
          "Bumped on any incompatible change to this format. 2: `before` / `after` name only the fields an action changes (an update has the same keys on both sides); what apply needs besides them is in `requires`, `required_by`, `preconditions` and `sends`.",
      },
      created_at: {
        type: "string",
        format: "date-time",
        description: "When the live state was read.",
      },
      projects: {
        type: "array",
        items: {
          $ref: "#/$defs/projectId",
        },
        uniqueItems: true,
      },
      actions: {
        type: "array",
        items: {
          $ref: "#/$defs/action",
        },
        description: "In apply order; every output and fingerprint sees this order.",
      },
      notes: {
        type: "array",
        items: {
          $ref: "#/$defs/note",
        },
      },
      fingerprints: {
        type: "object",
        description:
          "Fingerprint of each touched object's live state, keyed by `project/kind/name` (`project/kind/name#id` where pinned objects share a name).",
        propertyNames: {
          pattern: "^[0-9]+/[a-z][a-z0-9_]*/",
        },
        additionalProperties: {
          type: "string",
        },
      },
      summary: {
        $ref: "#/$defs/summary",
      },
      targets: {
        type: "array",
        items: {
          type: "string",
          minLength: 1,
        },
        minItems: 1,
        description: "Set when --target narrowed the plan: it is partial, and shows only these objects.",
      },
      undeclared: {
        type: "array",
        items: { $ref: "#/$defs/object" },
        description:
          "Set when the plan was asked for with --undeclared: the live objects of the kinds the files list that no file declares (those --prune would delete). Read-only: no action is planned for them.",
      },
      base: {
        type: "string",
        minLength: 1,
        description:
          "Set when the plan was made with --base: the git revision declarations were compared with.",
      },
      scope: {
        $ref: "#/$defs/scope",
      },
      people: {
        type: "object",
        description:
          "Users the plan names (collaborators, modified.by), by UUID, as the service described them.",
        additionalProperties: {
          $ref: "#/$defs/person",
        },
      },
    },
    if: {
      properties: {
        summary: {
          type: "object",
          properties: {
            destructive: {
              const: true,
            },
          },
        },
      },
    },
    then: {
      properties: {
        actions: {
          type: "array",
          contains: {
            type: "object",
            properties: {
              destructive: {
                const: true,
              },
            },
          },
        },
      },
    },
    else: {
      properties: {
        actions: {
          type: "array",
          items: {
            type: "object",
            properties: {
              destructive: {
                const: false,
              },
            },
          },
        },
      },
    },
    $defs: {
      projectId: {
        type: "integer",
        minimum: 1,
      },
      scope: {
        type: "object",
        description:
          "Set when the plan was asked for with --changed-only. `changes`: only the declarations the change from `base` adds, modifies or tombstones were read and planned, and drift on the other declarations was not checked. `full`: every declaration was read and planned, for `reason`.",
        required: ["read", "base", "declarations", "planned"],
        additionalProperties: false,
        properties: {
          read: {
            enum: ["changes", "full"],
          },
          base: {
            type: "string",
            minLength: 1,
            description: "The git revision the change is measured from, as given.",
          },
          declarations: {
            type: "integer",
            minimum: 0,
            description: "Declarations in the files.",
          },
          planned: {
            type: "integer",
            minimum: 0,
            description: "Declarations read and planned.",
          },
          reason: {
            type: "string",
            minLength: 1,
            description: "Why every declaration was read (read: full).",
          },
          removed: {
            type: "array",
            description:
              "Declarations the change removed (read: changes). Nothing prunes them: each stays live as it is; `live` is its live object's id when there is one.",
            items: {
              type: "object",
              required: ["kind", "project", "name"],
              additionalProperties: false,
              properties: {
                kind: { $ref: "#/$defs/object/properties/kind" },
                project: { $ref: "#/$defs/projectId" },
                name: { type: "string" },
                live: { $ref: "#/$defs/object/properties/id" },
              },
            },
          },
        },
        if: {
          properties: {
            read: {
              const: "full",
            },
          },
        },
        then: {
          properties: {
            reason: {
              type: "string",
            },
          },
          required: ["reason"],
        },
      },
      actionKind: {
        enum: verbs.map((v) => v.name),
      },
      destructiveKind: {
        enum: verbs.filter((v) => v.destructive === true).map((v) => v.name),
      },
      secretRef: {
        type: "object",
        description: "Where a secret comes from, never its value. Rendered as `(secret from $NAME)`.",
        required: ["$secret", "variables"],
        additionalProperties: false,
        properties: {
          $secret: {
            type: "string",
          },
          variables: {
            type: "array",
            items: {
              type: "string",
              pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
            },
          },
        },
      },
      source: {
        type: "object",
        required: ["file", "line", "column"],
        additionalProperties: false,
        properties: {
          file: {
            type: "string",
            minLength: 1,
          },
          line: {
            type: "integer",
            minimum: 1,
          },
          column: {
            type: "integer",
            minimum: 1,
          },
        },
      },
      object: {
        type: "object",
        description:
          "Which object an action is about. `id` is absent for an object not yet created; `source` is absent for a pruned object no file declares.",
        required: ["kind", "project", "name"],
        additionalProperties: false,
        properties: {
          kind: {
            type: "string",
            pattern: "^[a-z][a-z0-9_]*$",
            description: `The kind's stable name: ${kinds.map((k) => k.name).join(", ")}.`,
          },
          project: {
            $ref: "#/$defs/projectId",
          },
          name: {
            type: "string",
          },
          id: {
            anyOf: [
              {
                type: "integer",
              },
              {
                type: "string",
                minLength: 1,
              },
            ],
          },
          source: {
            $ref: "#/$defs/source",
          },
        },
      },
      link: {
        type: "object",
        description:
          "Another object, by kind and name; `id` is its live id, absent when this apply creates it.",
        required: ["kind", "name"],
        additionalProperties: false,
        properties: {
          kind: { $ref: "#/$defs/object/properties/kind" },
          name: { type: "string" },
          id: { $ref: "#/$defs/object/properties/id" },
        },
      },
      change: {
        type: "object",
        description: "One field that differs: `before` is live, `after` desired (a SecretRef for a secret).",
        required: ["path"],
        additionalProperties: false,
        properties: {
          path: {
            type: "string",
            minLength: 1,
          },
          before: true,
          after: true,
          diff: {
            type: "string",
            description: "Unified diff, for long text.",
          },
          secret: {
            type: "boolean",
          },
          says: {
            type: "array",
            items: { type: "string" },
            description:
              'What the change does, in words a reviewer reads at a glance (e.g. "group 2: rollout 20% → 60%").',
          },
        },
        if: {
          required: ["secret"],
          properties: {
            secret: {
              const: true,
            },
          },
        },
        then: {
          properties: {
            before: false,
            after: {
              $ref: "#/$defs/secretRef",
            },
          },
        },
      },
      action: {
        type: "object",
        required: ["action", "object", "changes", "destructive", "warnings"],
        additionalProperties: false,
        properties: {
          action: {
            $ref: "#/$defs/actionKind",
          },
          object: {
            $ref: "#/$defs/object",
          },
          before: {
            type: "object",
            description: "The live values of the fields the action changes (what the reviewer reads).",
          },
          after: {
            type: "object",
            description:
              "The declared values of the fields the action changes; a create's whole body, naming the objects it refers to by name.",
          },
          requires: {
            type: "array",
            items: { $ref: "#/$defs/link" },
            description:
              "Objects this action refers to that must be live first: apply runs their work before it, skips it when that failed, and hands it their ids. A link without `id` is created in this apply.",
          },
          required_by: {
            type: "array",
            items: { $ref: "#/$defs/link" },
            description:
              "Objects that refer to this one and are changed, turned off or deleted before this action takes it down.",
          },
          preconditions: {
            type: "object",
            description:
              "What must still hold when apply runs, as the plan read it (a feature flag's `version` and the stored values the service's version check compares; how apply finds a tile).",
          },
          sends: {
            type: "object",
            description:
              "What the request sends besides the changed fields: write-only values (secrets) and the companions the service needs with them.",
          },
          changes: {
            type: "array",
            items: {
              $ref: "#/$defs/change",
            },
          },
          destructive: {
            type: "boolean",
          },
          warnings: {
            type: "array",
            items: {
              type: "string",
            },
          },
          guard: {
            type: "string",
            minLength: 1,
            description:
              "Why the action is refused without --force (e.g. a feature flag evaluated in the last 30 days is live in production).",
          },
          drift: {
            const: true,
            description:
              "Only with --base: the object's declaration is the same at the base and in the working tree, so the live service changed, not the files.",
          },
          modified: {
            type: "object",
            description:
              "When (and by which user UUID) the service last saw the live object modified, where it says.",
            additionalProperties: false,
            properties: {
              at: {
                type: "string",
                format: "date-time",
              },
              by: {
                type: "string",
                minLength: 1,
              },
            },
          },
          origins: {
            type: "object",
            description:
              "Only in an environment's plan: the values an overlay or the environment's variables gave, by dotted path, each with where it was written.",
            additionalProperties: {
              type: "array",
              items: {
                type: "object",
                required: ["file", "line", "column", "how"],
                additionalProperties: false,
                properties: {
                  file: { type: "string" },
                  line: { type: "integer", minimum: 0 },
                  column: { type: "integer", minimum: 0 },
                  how: { enum: ["overlay", "replaced", "variable", "secret"] },
                  name: { type: "string" },
                },
              },
            },
          },
        },
        allOf: [destructiveRule(verbs), ...sideRules(verbs)],
      },
      person: {
        type: "object",
        additionalProperties: false,
        properties: {
          name: {
            type: "string",
          },
          email: {
            type: "string",
          },
        },
      },
      note: {
        type: "object",
        required: ["severity", "message"],
        additionalProperties: false,
        properties: {
          severity: {
            enum: ["warning", "note"],
          },
          message: {
            type: "string",
          },
          object: {
            $ref: "#/$defs/object",
          },
        },
      },
      summary: {
        type: "object",
        required: ["counts", "total", "destructive"],
        additionalProperties: false,
        properties: {
          counts: {
            type: "object",
            description: "Count per action kind present in the plan.",
            propertyNames: {
              $ref: "#/$defs/actionKind",
            },
            additionalProperties: {
              type: "integer",
              minimum: 0,
            },
          },
          total: {
            type: "integer",
            minimum: 0,
          },
          destructive: {
            type: "boolean",
            description: "True when any action is destructive.",
          },
        },
      },
    },
  };
}

/** `destructive` is true for the destructive verbs and false for those that never are. */
function destructiveRule(verbs: readonly PlanVerb[]): Record<string, unknown> {
  const never = { properties: { destructive: { const: false } } };
  const depends = verbs.filter((v) => v.destructive === "depends").map((v) => v.name);
  return {
    if: { properties: { action: { $ref: "#/$defs/destructiveKind" } } },
    then: { properties: { destructive: { const: true } } },
    else: depends.length === 0 ? never : { if: { properties: { action: { enum: depends } } }, else: never },
  };
}

/** One rule per set of sides: which of `before` / `after` the verbs' actions carry (their fragment). */
function sideRules(verbs: readonly PlanVerb[]): Record<string, unknown>[] {
  const groups = new Map<string, PlanVerb[]>();
  for (const verb of verbs) {
    const key = `${verb.sides.before}/${verb.sides.after}`;
    groups.set(key, [...(groups.get(key) ?? []), verb]);
  }
  return [...groups.values()].map((group) => {
    const { before, after } = (group[0] as PlanVerb).sides;
    const names = group.map((v) => v.name);
    return {
      if: { properties: { action: names.length === 1 ? { const: names[0] } : { enum: names } } },
      then: {
        required: [before, after].flatMap((side, i) =>
          side === "required" ? [i === 0 ? "before" : "after"] : [],
        ),
        properties: { before: before === "required", after: after === "required" },
      },
    };
  });
}

/**
 * A document's schema as definitions of another: its `$defs`, and the document itself as one more
 * (`as`), so an envelope can hold it with `{ $ref: "#/$defs/<as>" }`.
 */
export function embedSchema(schema: Record<string, unknown>, as: string): Record<string, unknown> {
  const {
    $schema: _schema,
    title: _title,
    $defs,
    ...root
  } = schema as Record<string, unknown> & {
    $defs?: Record<string, unknown>;
  };
  if ($defs !== undefined && as in $defs) throw new Error(`schema definition "${as}" is taken`);
  return { ...$defs, [as]: root };
}
