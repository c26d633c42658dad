/**
 * A kind identified by a key other than `name` that has a `name` field too (test/kinds/gadget-kind/):
 * the identity field decides the declared object's `name`, whatever else the item calls `name`. The
 * `name` field is declared, compared, sent, updated and pulled like any other, kept apart from the
 * identity; a table that would keep a field under a declared object's own property is refused where
 * it is defined.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyPlan, createClient, loadConfig, makePlan, type ServiceClient } from "../../src/index.js";
import { fieldTable, flag, integer, text } from "../../src/kinds/define/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { pullFiles } from "../../src/pull/pull.js";
import { type FakeServer, json, type Seen, startFakeServer } from "../service/fake-server.js";
import { type Gadget, gadgetKind } from "./gadget-kind/index.js";

const REGISTRY = [...KINDS, gadgetKind];
const PROJECT = 7;

let server: FakeServer;
let client: ServiceClient;
let gadgets: Gadget[];
let nextId = 1;

function answer(req: Seen): [number, unknown] {
  const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null };
  const match = /^\/api\/projects\/7\/gadgets\/(?:(\d+)\/)?$/.exec(req.path);
  if (!match) return [404, notFound];
  const id = match[1] === undefined ? undefined : Number(match[1]);
  if (id === undefined && req.method === "GET") {
    return [200, { count: gadgets.length, next: null, previous: null, results: gadgets }];
  }
  if (id === undefined && req.method === "POST") {
    const body = req.body as Partial<Gadget>;
    const gadget = {
      id: nextId++,
      serial: String(body.serial),
      name: body.name ?? "",
      colour: body.colour ?? "",
    };
    gadgets.push(gadget);
    return [201, gadget];
  }
  const found = gadgets.find((g) => g.id === id);
  if (!found) return [404, notFound];
  if (req.method === "PATCH") return [200, Object.assign(found, req.body)];
  if (req.method === "DELETE") {
    gadgets = gadgets.filter((g) => g !== found);
    return [204, undefined];
  }
  return [405, { type: "invalid_request", code: "method_not_allowed", detail: "No.", attr: null }];
}

const config = (text: string) =>
  loadConfig({ files: [{ path: "gadgets.yaml", text }] }, { kinds: REGISTRY, env: {} });

beforeAll(async () => {
  server = await startFakeServer((req: Seen, res: ServerResponse) => json(res, ...answer(req)));
  client = createClient({ host: server.url, apiKey: "phx_gadgets" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  gadgets = [];
  nextId = 1;
  server.seen.length = 0;
});

// Two gadgets that people call the same: their serials tell them apart.
const FILE = `project: ${PROJECT}
gadgets:
  - serial: G-1
    name: Kettle
    colour: red
  - serial: G-2
    name: Kettle
`;

describe("a kind whose identity is not `name`, with a `name` field", () => {
  it("declares the identity as the object's name and keeps the `name` field apart", async () => {
    const loaded = await config(FILE);
    expect(loaded.diagnostics).toEqual([]);
    const declared = loaded.projects[0]?.objects.gadget ?? [];
    expect(declared.map((d) => [d.name, (d as unknown as { label?: string }).label])).toEqual([
      ["G-1", "Kettle"],
      ["G-2", "Kettle"],
    ]);
    // Duplicates are found by the identity, never by the `name` field.
    const twice = await config(`${FILE}  - serial: G-1\n    name: Toaster\n`);
    expect(twice.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('duplicate gadget serial "G-1"'),
    ]);
  });

  it("creates, compares, updates and pulls the `name` field, matching live objects by identity", async () => {
    const plan = await makePlan(await config(FILE), client, { prune: false });
    expect(plan.actions.map((a) => [a.action, a.object.name, a.after])).toEqual([
      ["create", "G-1", { serial: "G-1", name: "Kettle", colour: "red" }],
      ["create", "G-2", { serial: "G-2", name: "Kettle" }],
    ]);
    expect((await applyPlan(plan, client, { kinds: REGISTRY })).ok).toBe(true);
    expect(gadgets).toEqual([
      { id: 1, serial: "G-1", name: "Kettle", colour: "red" },
      { id: 2, serial: "G-2", name: "Kettle", colour: "" },
    ]);
    expect((await makePlan(await config(FILE), client, { prune: false })).actions).toEqual([]);

    // Renamed elsewhere: an update of `name`, the object still found by its serial.
    (gadgets[0] as Gadget).name = "Teapot";
    const drift = await makePlan(await config(FILE), client, { prune: false });
    expect(drift.actions).toMatchObject([
      {
        action: "update",
        object: { kind: "gadget", name: "G-1", id: 1 },
        changes: [{ path: "name", before: "Teapot", after: "Kettle" }],
      },
    ]);
    server.seen.length = 0;
    expect((await applyPlan(drift, client, { kinds: REGISTRY })).ok).toBe(true);
    expect(server.seen.filter((s) => s.method === "PATCH").map((s) => [s.path, s.body])).toEqual([
      [`/api/projects/${PROJECT}/gadgets/1/`, { name: "Kettle" }],
    ]);

    const [file] = await pullFiles([gadgetKind], client, PROJECT, () => "config.schema.json");
    expect(file?.text).toContain("  - serial: G-1\n    id: 1\n    name: Kettle\n    colour: red\n");
    expect((await makePlan(await config(file?.text ?? ""), client, { prune: false })).actions).toEqual([]);
  });

  it("refuses a table that would keep a field under a declared object's own property", () => {
    const fields = {
      serial: text("Identity.", {}, { required: true }),
      id: integer("Pin."),
      name: text("A label."),
      deleted: flag("Tombstone."),
    };
    expect(() => fieldTable(fields, { identity: "serial" })).toThrow(
      'field "name" would be kept as the declared object\'s `name`, which holds the identity (`serial`): give it `keptAs`, another property',
    );
    const labelled = { ...fields, name: text("A label.", {}, { keptAs: "label" }) };
    expect(() => fieldTable(labelled, { identity: "serial" })).not.toThrow();
    expect(() => fieldTable({ ...labelled, kind: text("Its type.") }, { identity: "serial" })).toThrow(
      'field "kind" would be kept as the declared object\'s `kind`: give it `keptAs`, another property',
    );
  });
});
