/**
 * A third kind that exists only in the tests: a project's notes, with two fields (`name`, `text`), at
 * `/api/projects/{id}/notes/` of a fake service. It is a folder and nothing else: no file under src/
 * knows it, yet it is declared, validated, planned, applied, rendered and pulled by the same code as
 * dashboards and batch exports (test/kinds/third-kind.test.ts). It is its field table, its verbs and
 * three requests: everything else is the plain behaviour `defineKind` derives.
 */
import type { ServiceClient } from "../../../src/index.js";
import { defineKind, fieldTable, flag, integer, text } from "../../../src/kinds/define/index.js";
import type { Verb } from "../../../src/kinds/index.js";
import { CREATE, DELETE, UPDATE } from "../../../src/kinds/shared/verbs.js";
import type { LiveObject } from "../../../src/plan/types.js";

export interface LiveNote extends LiveObject {
  id: number;
  name: string;
  text: string;
}

const path = (project: number, id?: number | string) =>
  `/api/projects/${project}/notes/${id === undefined ? "" : `${id}/`}`;

const list = (client: ServiceClient, project: number) => client.listAll<LiveNote>(path(project));

/** A verb carried out by one request on the note (its body, if any, as planned). */
const request =
  (method: "PATCH" | "DELETE"): Verb["send"] =>
  async (client, action, id, body) => {
    await client.request({ method, path: path(action.object.project, id), ...(body ? { body } : {}) });
    return { id, notes: [] };
  };

export const noteFields = fieldTable({
  name: text("The note's name: its identity.", { minLength: 1 }, { required: true }),
  id: integer("Pinned id.", { minimum: 1 }),
  text: text("What it says."),
  deleted: flag("Delete it."),
});

export const noteKind = defineKind({
  name: "note",
  key: "notes",
  words: { one: "note", many: "notes" },
  schema: { list: "Notes of the project.", item: "A note.", def: "note" },
  fields: noteFields,
  verbs: [CREATE, { ...UPDATE, send: request("PATCH") }, { ...DELETE, send: request("DELETE") }],
  service: {
    list,
    async findByName(client, project, name) {
      return (await list(client, project)).filter((n) => n.name === name).map((n) => n.id);
    },
    async create(client, project, body) {
      const created = await client.request<LiveNote>({ method: "POST", path: path(project), body });
      return { id: created.id, notes: [] };
    },
  },
});
