/**
 * An action's fields (SPEC §2 "Cohorts and actions", service-api.md §13.2): the one place each is
 * named. `steps` is the whole list in the comparable form of steps.ts (what the service fills in or
 * rewrites is never a change); `pinned` is the service's `pinned_at` as a switch (the service stamps
 * the time itself); tags need the tagging feature (the kit's note says when they would be dropped).
 */
import { type DesiredOf, field, fieldTable, flag, integer, longText, tags, text } from "../define/index.js";
import { comparableSteps, stepsSchema } from "./steps.js";

const pinnedAt = (value: unknown) => value !== null && value !== undefined && value !== "" && value !== false;

export const actionFields = fieldTable({
  name: text(
    "The action's name: its identity within the project (the service keeps names unique among live actions).",
    { minLength: 1, maxLength: 400, pattern: "\\S" },
    { required: true, live: (answer) => answer.name ?? "" },
  ),
  id: integer("The service's action id: pins identity across renames (pull writes it).", { minimum: 1 }),
  description: longText("What the action means."),
  tags: tags("Tags, a case-insensitive set (needs the tagging feature)."),
  steps: field<Array<Record<string, unknown>>, Array<Record<string, unknown>>>(stepsSchema, {
    normalise: comparableSteps,
    toYaml: comparableSteps,
  }),
  pinned: flag("Pinned to the top of the actions list.", {
    live: (answer) => answer.pinned_at,
    normalise: pinnedAt,
    toYaml: pinnedAt,
  }),
  deleted: flag("Tombstone: soft-delete the action (idempotent; the service never refuses it)."),
});

export type DesiredAction = DesiredOf<typeof actionFields.fields, "action"> & { id?: number };
