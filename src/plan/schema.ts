/**
 * The JSON Schema of a plan: what `plan --format json` prints and `plan --out` saves, and what
 * `apply --plan` checks a saved plan against. `npm run schemas` writes it to schemas/plan.schema.json.
 */
export const planSchema: Record<string, unknown> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "posthog-gitops plan",
  description:
    "The output of `posthog-gitops plan --format json` and the file written by `plan --out`. A plan never holds a secret value: secret fields are SecretRefs.",
  type: "object",
  required: ["format_version", "created_at", "projects", "actions", "notes", "fingerprints", "summary"],
  additionalProperties: false,
  properties: {
    format_version: {
      const: "1",
      description: "Bumped on any incompatible change to this format.",
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
      description: "Fingerprint of each touched object's live state, keyed by `project/kind/name`.",
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
    base: {
      type: "string",
      minLength: 1,
      description:
        "Set when the plan was made with --base: the git revision declarations were compared with.",
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
    actionKind: {
      enum: [
        "create",
        "update",
        "soft_delete",
        "restore",
        "delete",
        "pause",
        "unpause",
        "add_collaborator",
        "remove_collaborator",
        "enable_sharing",
        "disable_sharing",
      ],
    },
    destructiveKind: {
      enum: ["soft_delete", "delete", "pause", "remove_collaborator", "disable_sharing"],
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
          description: "The kind's stable name, e.g. dashboard or batch_export.",
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
        },
        after: {
          type: "object",
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
      },
      allOf: [
        {
          if: {
            properties: {
              action: {
                $ref: "#/$defs/destructiveKind",
              },
            },
          },
          then: {
            properties: {
              destructive: {
                const: true,
              },
            },
          },
          else: {
            properties: {
              destructive: {
                const: false,
              },
            },
          },
        },
        {
          if: {
            properties: {
              action: {
                const: "create",
              },
            },
          },
          then: {
            required: ["after"],
            properties: {
              before: false,
              after: true,
            },
          },
        },
        {
          if: {
            properties: {
              action: {
                enum: ["soft_delete", "delete", "remove_collaborator"],
              },
            },
          },
          then: {
            required: ["before"],
            properties: {
              before: true,
              after: false,
            },
          },
        },
        {
          if: {
            properties: {
              action: {
                const: "add_collaborator",
              },
            },
          },
          then: {
            required: ["after"],
            properties: {
              before: false,
              after: true,
            },
          },
        },
        {
          if: {
            properties: {
              action: {
                enum: ["update", "restore", "pause", "unpause", "enable_sharing", "disable_sharing"],
              },
            },
          },
          then: {
            required: ["before", "after"],
            properties: {
              before: true,
              after: true,
            },
          },
        },
      ],
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
