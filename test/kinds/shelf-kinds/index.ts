/**
 * Two kinds that exist only in the tests, for change-scoped reads across kinds (SPEC §3 "Change-scoped
 * plans"): shelves, and books that name the shelf they stand on (`shelf:`), a reference the book kind
 * declares (`references`). Both can be searched by name and read by id at a fake service, so a
 * change-scoped read finds a changed book, and the shelf it names, without listing either.
 */
import type { ServiceClient } from "../../../src/index.js";
import { defineKind, fieldTable, flag, integer, text } from "../../../src/kinds/define/index.js";
import type { Verb } from "../../../src/kinds/index.js";
import { CREATE, DELETE, UPDATE } from "../../../src/kinds/shared/verbs.js";
import type { LiveObject } from "../../../src/plan/types.js";
import { ServiceError } from "../../../src/service/index.js";

export interface LiveThing extends LiveObject {
  id: number;
  name: string;
  shelf?: string;
}

function service(collection: "shelves" | "books") {
  const path = (project: number, id?: number | string) =>
    `/api/projects/${project}/${collection}/${id === undefined ? "" : `${id}/`}`;
  const request =
    (method: "PATCH" | "DELETE"): Verb["send"] =>
    async (client, action, id, body) => {
      await client.request({ method, path: path(action.object.project, id), ...(body ? { body } : {}) });
      return { id, notes: [] };
    };
  return {
    verbs: [CREATE, { ...UPDATE, send: request("PATCH") }, { ...DELETE, send: request("DELETE") }],
    service: {
      list: (client: ServiceClient, project: number) => client.listAll<LiveThing>(path(project)),
      search: (client: ServiceClient, project: number, name: string) =>
        client.listAll<LiveThing>(path(project), { search: name }),
      async get(client: ServiceClient, project: number, id: number | string) {
        try {
          return await client.request<LiveThing>({ method: "GET", path: path(project, id) });
        } catch (error) {
          if (error instanceof ServiceError && error.status === 404) return undefined;
          throw error;
        }
      },
      async count(client: ServiceClient, project: number) {
        const page = await client.request<{ count: number }>({
          method: "GET",
          path: path(project),
          query: { limit: 1 },
        });
        return page.count;
      },
      async create(client: ServiceClient, project: number, body: Record<string, unknown>) {
        const created = await client.request<LiveThing>({ method: "POST", path: path(project), body });
        return { id: created.id, notes: [] };
      },
    },
  };
}

export const shelfKind = defineKind({
  name: "shelf",
  key: "shelves",
  words: { one: "shelf", many: "shelves" },
  schema: { list: "Shelves.", item: "A shelf.", def: "shelf" },
  fields: fieldTable({
    name: text("Its name.", { minLength: 1 }, { required: true }),
    id: integer("Pinned id.", { minimum: 1 }),
    deleted: flag("Delete it."),
  }),
  ...service("shelves"),
});

const bookFields = fieldTable({
  name: text("Its title.", { minLength: 1 }, { required: true }),
  id: integer("Pinned id.", { minimum: 1 }),
  shelf: text("The shelf it stands on, by name."),
  deleted: flag("Delete it."),
});

export const bookKind = defineKind({
  name: "book",
  key: "books",
  words: { one: "book", many: "books" },
  schema: { list: "Books.", item: "A book.", def: "book" },
  fields: bookFields,
  ...service("books"),
  hooks: {
    references: (book) => (typeof book.shelf === "string" ? [{ kind: "shelf", name: book.shelf }] : []),
  },
});
