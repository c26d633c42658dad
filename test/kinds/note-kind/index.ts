/**
 * A third kind that exists only in the tests: a project's notes, with two fields (`name`, `text`), at
 * `/api/projects/{id}/notes/` of a fake service. It is a folder and nothing else: no file under src/
 * knows it, yet it is declared, validated, planned, applied, rendered and pulled by the same code as
 * dashboards and batch exports (test/kinds/third-kind.test.ts).
 */
import type { Declared } from "../../../src/config/types.js";
import type { Kind } from "../../../src/kinds/index.js";
import { makeAction } from "../../../src/plan/index.js";
import type { LiveObject } from "../../../src/plan/types.js";

export interface DesiredNote extends Declared {
  kind: "note";
  id?: number;
  text?: string;
}

export interface LiveNote extends LiveObject {
  id: number;
  name: string;
  text: string;
}

const path = (project: number, id?: number | string) =>
  `/api/projects/${project}/notes/${id === undefined ? "" : `${id}/`}`;

export const noteKind: Kind = {
  name: "note",
  key: "notes",
  words: { one: "note", many: "notes" },
  schema: {
    description: "Notes of the project.",
    item: { $ref: "#/$defs/note" },
    defs: {
      note: {
        type: "object",
        additionalProperties: false,
        required: ["name"],
        properties: {
          name: { type: "string", minLength: 1, description: "The note's name: its identity." },
          id: { type: "integer", minimum: 1, description: "Pinned id." },
          text: { type: "string", description: "What it says." },
          deleted: { type: "boolean", description: "Delete it." },
        },
      },
    },
  },

  declare(input, ctx) {
    const note: DesiredNote = {
      kind: "note",
      name: ctx.text("/name", String(input.name)),
      deleted: input.deleted === true,
      source: ctx.source(),
    };
    if (typeof input.id === "number") note.id = input.id;
    if (typeof input.text === "string") note.text = ctx.text("/text", input.text);
    return note;
  },

  async read(client, project) {
    return { live: { objects: await client.listAll<LiveNote>(path(project)) }, read: {} };
  },
  async reread(client, project) {
    return { objects: await client.listAll<LiveNote>(path(project)) };
  },

  plan(declared, live, ref, ctx) {
    const desired = declared as DesiredNote;
    const current = live as LiveNote | undefined;
    if (desired.deleted) {
      if (current) ctx.sink.actions.push(makeAction("delete", ref, { before: { ...current } }));
      return;
    }
    if (!current) {
      const after = { name: desired.name, text: desired.text ?? "" };
      const changes = Object.entries(after).map(([p, value]) => ({ path: p, after: value }));
      ctx.sink.actions.push(makeAction("create", ref, { after, changes }));
      return;
    }
    const changes = [];
    if (current.name !== desired.name)
      changes.push({ path: "name", before: current.name, after: desired.name });
    if (desired.text !== undefined && current.text !== desired.text) {
      changes.push({ path: "text", before: current.text, after: desired.text });
    }
    if (changes.length === 0) return;
    const before = Object.fromEntries(changes.map((c) => [c.path, c.before]));
    const after = Object.fromEntries(changes.map((c) => [c.path, c.after]));
    ctx.sink.actions.push(makeAction("update", ref, { before, after, changes }));
  },
  prune(live, ref) {
    return makeAction("delete", ref, { before: { ...(live as LiveNote) } });
  },
  state(live) {
    const note = live as LiveNote;
    return { id: note.id, name: note.name, text: note.text };
  },

  requestBody(action) {
    return action.action === "create" || action.action === "update" ? { ...action.after } : undefined;
  },
  async create(client, project, body) {
    const created = await client.request<LiveNote>({ method: "POST", path: path(project), body });
    return { id: created.id, notes: [] };
  },
  async send(client, action, id, body) {
    const method = action.action === "delete" ? "DELETE" : "PATCH";
    await client.request({ method, path: path(action.object.project, id), ...(body ? { body } : {}) });
    return { id, notes: [] };
  },
  async findByName(client, project, name) {
    return (await client.listAll<LiveNote>(path(project))).filter((n) => n.name === name).map((n) => n.id);
  },

  async pull(client, project) {
    const notes = await client.listAll<LiveNote>(path(project));
    return { items: notes.map((n) => ({ name: n.name, id: n.id, text: n.text })), variables: [] };
  },
};
