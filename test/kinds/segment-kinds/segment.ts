/**
 * A second test-only PostHog model, whose one nested field names objects of another kind and of its
 * own by name, as a cohort's filters will (service-api.md §12): a segment's `rules` hold conditions
 * `{type: audience, audience: NAME}` and `{type: segment, segment: NAME}`, which the service stores as
 * `{type, key: "id", value: ID}`. Two reference declarations, and no line of walking, resolving,
 * ordering or pulling code: the kit does all of it (declared names resolved per project, created
 * first in the same apply, compared by name, bodies by id, pulled by name, cycles a validate error).
 */

import {
  fieldTable,
  flag,
  integer,
  json,
  type ReferenceSpec,
  text,
} from "../../../src/kinds/define/index.js";
import { defineModel } from "../../../src/kinds/define/model.js";
import { answerObject, answerTypes, listPage } from "../../../src/service/shapes.js";

export interface Segment {
  id: number;
  name: string;
  rules: Record<string, unknown>;
  deleted?: boolean;
}

/** Where rules name audiences and other segments, at any depth (groups nest). */
const condition = (kind: string): ReferenceSpec => ({
  kind,
  at: "**",
  where: { type: kind },
  name: kind,
  id: "value",
  fixed: { key: "id" },
});

const rules = {
  type: "object",
  description: "Conditions: `{type: all|any, values: [...]}`; an audience or segment by name.",
  required: ["type"],
  properties: { type: { enum: ["all", "any"] }, values: { type: "array" } },
};

const { int, str } = answerTypes;
const one = answerObject({ id: int, name: str, rules: { type: "object" } }, ["id", "name"]);

export const segmentModel = defineModel<ReturnType<typeof fields>["fields"], Segment>({
  name: "segment",
  key: "segments",
  words: { one: "segment", many: "segments" },
  schema: { list: "Segments of the project.", item: "A segment.", def: "segment" },
  fields: fields(),
  path: "segments",
  shapes: { page: listPage(one), one: { schema: one } },
  answers: { segmentPage: listPage(one), segment: { schema: one } },
  search: { param: "search", max: 200 },
});

function fields() {
  return fieldTable({
    name: text("Its name: its identity.", { minLength: 1 }, { required: true }),
    id: integer("Pinned id.", { minimum: 1 }),
    rules: json(rules, { references: [condition("audience"), condition("segment")] }),
    deleted: flag("Tombstone: soft-delete it."),
  });
}

export const segmentKind = segmentModel.kind;
