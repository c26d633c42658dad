/** The JSON Schema of one declared dashboard (composed into schemas/config.schema.json). */
import type { ConfigKind } from "../../config/kinds.js";

export const dashboardSchema: ConfigKind["schema"] = {
  description: "Dashboards of the project. Listing the key (even empty) lets --prune remove undeclared ones.",
  item: { $ref: "#/$defs/dashboard" },
  defs: {
    dashboard: {
      type: "object",
      description: "A dashboard. Only the keys written here are managed; the others are left as they are.",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: {
          type: "string",
          description:
            "Dashboard name: its identity within the project unless `id` is given. Unique per project.",
          minLength: 1,
          maxLength: 400,
        },
        id: {
          type: "integer",
          description: "The service's dashboard id: pins identity across renames (pull writes it).",
          minimum: 1,
        },
        description: {
          type: "string",
          description: "Dashboard description.",
        },
        pinned: {
          type: "boolean",
          description: "Pin the dashboard to the top of the list.",
        },
        tags: {
          type: "array",
          items: {
            type: "string",
            minLength: 1,
          },
          description: "Tags, a case-insensitive set (needs the tagging feature).",
        },
        restriction_level: {
          enum: ["everyone", "only_collaborators", 21, 37],
          description: "Who may edit: everyone (21) in the project, or only_collaborators (37).",
        },
        collaborators: {
          type: "array",
          description:
            "When present, the whole set of collaborators: others are removed. Needs restriction_level only_collaborators. Each is named by email or user_uuid; plan checks both against the organization's members.",
          items: {
            type: "object",
            additionalProperties: false,
            properties: {
              email: {
                type: "string",
                description:
                  "The user's email address, as the organization's members list has it (pull writes this form). Give email or user_uuid.",
                pattern: "^[^@\\s]+@[^@\\s]+$",
                "x-expect": "an email address",
              },
              user_uuid: {
                type: "string",
                description:
                  "The user's UUID (`posthog-gitops members` lists them). Give email or user_uuid.",
                pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
                "x-expect": "a UUID",
              },
              level: {
                enum: ["can_edit", "can_view", 37, 21],
                description:
                  "can_edit (37), the default; can_view (21) is refused because the service only accepts edit access.",
              },
            },
          },
        },
        sharing: {
          type: "object",
          description: "Public sharing link switch.",
          additionalProperties: false,
          required: ["enabled"],
          properties: {
            enabled: {
              type: "boolean",
              description: "Whether the dashboard is shared publicly.",
            },
          },
        },
        deleted: {
          type: "boolean",
          description: "Tombstone: soft-delete the dashboard (idempotent).",
        },
      },
    },
  },
};
