/**
 * A dashboard's fields: the one place each is named (SPEC §2). name (through an id pin), description,
 * pinned, tags and restriction_level are compared and sent by the table; collaborators, sharing and
 * tiles are reconciled by verbs of their own (verbs.ts, tile-verbs.ts), declared here for the schema
 * and the types.
 */
import {
  type DesiredOf,
  field,
  fieldTable,
  flag,
  integer,
  longText,
  tags,
  text,
  words,
} from "../define/index.js";
import { type CollaboratorInput, type DesiredCollaborator, declareCollaborators } from "./declare.js";
import { type DesiredTile, declareTiles, type TileInput } from "./tiles-declare.js";
import { tilesSchema } from "./tiles-schema.js";

const UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** A collaborator's access in the YAML's words. */
export const COLLABORATOR_LEVEL: Readonly<Record<number, string>> = { 21: "can_view", 37: "can_edit" };

export const dashboardFields = fieldTable({
  name: text(
    "Dashboard name: its identity within the project unless `id` is given. Unique per project.",
    { minLength: 1, maxLength: 400 },
    { required: true, live: (answer) => answer.name ?? "" },
  ),
  id: integer("The service's dashboard id: pins identity across renames (pull writes it).", { minimum: 1 }),
  description: longText("Dashboard description."),
  pinned: flag("Pin the dashboard to the top of the list."),
  tags: tags("Tags, a case-insensitive set (needs the tagging feature)."),
  restriction_level: words(
    { everyone: 21, only_collaborators: 37 },
    "Who may edit: everyone (21) in the project, or only_collaborators (37).",
  ),
  /**
   * When present, the whole set, each named by email or user_uuid (collaborators.ts resolves both
   * against the organization's members at plan). Reconciled by add / remove_collaborator.
   */
  collaborators: field<CollaboratorInput[], DesiredCollaborator[]>(
    {
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
            description: "The user's UUID (`posthog-gitops members` lists them). Give email or user_uuid.",
            pattern: UUID,
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
    { compare: "none", live: false, declare: declareCollaborators },
  ),
  /** When present, the sharing switch is managed (enable_sharing / disable_sharing). */
  sharing: field<{ enabled: boolean }>(
    {
      type: "object",
      description: "Public sharing link switch.",
      additionalProperties: false,
      required: ["enabled"],
      properties: { enabled: { type: "boolean", description: "Whether the dashboard is shared publicly." } },
    },
    { compare: "none", live: false, declare: (value) => ({ enabled: value.enabled }) },
  ),
  /**
   * When present, the whole set of tiles (tiles-plan.ts): add_tile / remove_tile / update_tile. A
   * tile's `insight:` names an insight the files declare (resolved per project, created first when
   * this apply creates it); `insight_id:` is a raw id.
   */
  tiles: field<TileInput[], DesiredTile[]>(tilesSchema, {
    compare: "none",
    live: false,
    declare: (value, at) => declareTiles(value, at.ctx),
    references: [
      {
        kind: "insight",
        at: "*",
        name: "insight",
        id: "insight_id",
        verb: { one: "shows", many: "show" },
        part: "tile",
        declaredOnly: true,
        checkIds: true,
      },
    ],
  }),
  deleted: flag("Tombstone: soft-delete the dashboard (idempotent)."),
});

/** A declared dashboard, normalised: symbolic levels resolved, tags lowercased, sorted and unique. */
export type DesiredDashboard = DesiredOf<typeof dashboardFields.fields, "dashboard"> & { id?: number };
