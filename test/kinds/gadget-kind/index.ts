/**
 * A kind that exists only in the tests, identified by a key other than `name` and with a field called
 * `name` besides: a project's gadgets at `/api/projects/{id}/gadgets/` of a fake service, identified by
 * `serial`, with a `name` (a label the service calls `name`) and a `colour`. The identity field decides
 * the declared object's `name`; the `name` field is kept as `label` (`keptAs`), and read from the live
 * objects' `label` (`wire`), where the kind's list puts the service's `name` once the live object's
 * own `name` holds its identity, as every kind's read does. test/kinds/identity-key.test.ts.
 */
import type { ServiceClient } from "../../../src/index.js";
import { defineKind, fieldTable, flag, integer, text } from "../../../src/kinds/define/index.js";
import type { Verb } from "../../../src/kinds/index.js";
import { CREATE, DELETE, UPDATE } from "../../../src/kinds/shared/verbs.js";
import type { LiveObject } from "../../../src/plan/types.js";

/** A gadget as the fake service answers it. */
export interface Gadget {
  id: number;
  serial: string;
  name: string;
  colour: string;
}

/** A live gadget: its identity as `name`, the service's `name` as `label`. */
export interface LiveGadget extends LiveObject {
  id: number;
  name: string;
  serial: string;
  label: string;
  colour: string;
}

const path = (project: number, id?: number | string) =>
  `/api/projects/${project}/gadgets/${id === undefined ? "" : `${id}/`}`;

const asLive = (g: Gadget): LiveGadget => ({ ...g, name: g.serial, label: g.name });

const list = async (client: ServiceClient, project: number) =>
  (await client.listAll<Gadget>(path(project))).map(asLive);

const request =
  (method: "PATCH" | "DELETE"): Verb["send"] =>
  async (client, action, id, body) => {
    await client.request({ method, path: path(action.object.project, id), ...(body ? { body } : {}) });
    return { id, notes: [] };
  };

export const gadgetFields = fieldTable(
  {
    serial: text("The gadget's serial: its identity.", { minLength: 1 }, { required: true }),
    id: integer("Pinned id.", { minimum: 1 }),
    name: text("What people call it (not its identity).", {}, { keptAs: "label", wire: "label" }),
    colour: text("Its colour."),
    deleted: flag("Delete it."),
  },
  { identity: "serial" },
);

export const gadgetKind = defineKind({
  name: "gadget",
  key: "gadgets",
  words: { one: "gadget", many: "gadgets" },
  schema: { list: "Gadgets of the project.", item: "A gadget.", def: "gadget" },
  fields: gadgetFields,
  verbs: [CREATE, { ...UPDATE, send: request("PATCH") }, { ...DELETE, send: request("DELETE") }],
  service: {
    list,
    async findByName(client, project, serial) {
      return (await list(client, project)).filter((g) => g.name === serial).map((g) => g.id);
    },
    async create(client, project, body) {
      const created = await client.request<Gadget>({ method: "POST", path: path(project), body });
      return { id: created.id, notes: [] };
    },
  },
});
