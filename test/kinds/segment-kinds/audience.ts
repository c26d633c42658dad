/**
 * A PostHog model that exists only in the tests: a project's audiences at `/api/projects/{id}/
 * audiences/` of a fake service (./service.ts), with a name, a description and tags. It is its field
 * table, its path and its shapes: the service calls, the search, the verbs, the plan, prune and pull
 * are the kit's (src/kinds/define/model.ts). Segments (./segment.ts) name audiences by name.
 */

import { fieldTable, flag, integer, longText, tags, text } from "../../../src/kinds/define/index.js";
import { defineModel } from "../../../src/kinds/define/model.js";
import { answerObject, answerTypes, listPage } from "../../../src/service/shapes.js";

export interface Audience {
  id: number;
  name: string;
  description: string;
  tags: string[];
  deleted?: boolean;
}

const { int, str } = answerTypes;
const one = answerObject({ id: int, name: str }, ["id", "name"]);

export const audienceModel = defineModel<ReturnType<typeof fields>["fields"], Audience>({
  name: "audience",
  key: "audiences",
  words: { one: "audience", many: "audiences" },
  schema: { list: "Audiences of the project.", item: "An audience.", def: "audience" },
  fields: fields(),
  path: "audiences",
  shapes: { page: listPage(one), one: { schema: one } },
  answers: { audiencePage: listPage(one), audience: { schema: one } },
  search: { param: "search", max: 200 },
});

function fields() {
  return fieldTable({
    name: text("Its name: its identity.", { minLength: 1 }, { required: true }),
    id: integer("Pinned id.", { minimum: 1 }),
    description: longText("What it is for."),
    tags: tags("Tags."),
    deleted: flag("Tombstone: soft-delete it."),
  });
}

export const audienceKind = audienceModel.kind;
