/**
 * A kind is a folder: the test-only `note` kind (test/kinds/note-kind/) is added to the registry here
 * and goes through the very same loader, schema composition, planner, read stage, executor, renderers
 * and pull as the built-in kinds, against a fake service on loopback. Nothing under src/ names it.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  applyPlan,
  createClient,
  loadConfig,
  makePlan,
  renderPlan,
  type ServiceClient,
} from "../../src/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { pullFiles } from "../../src/pull/pull.js";
import { type FakeServer, json, type Seen, startFakeServer } from "../service/fake-server.js";
import { type LiveNote, noteKind } from "./note-kind/index.js";

const REGISTRY = [...KINDS, noteKind];
const PROJECT = 7;

let server: FakeServer;
let client: ServiceClient;
let notes: LiveNote[];
let nextId = 1;

/** The fake service's notes endpoints: a limit/offset list, create, PATCH and DELETE. */
function notesService(req: Seen, res: ServerResponse): void {
  const [status, body] = answer(req);
  json(res, status, body);
}

function answer(req: Seen): [number, unknown] {
  const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null };
  const match = /^\/api\/projects\/7\/notes\/(?:(\d+)\/)?$/.exec(req.path);
  if (!match) return [404, notFound];
  const id = match[1] === undefined ? undefined : Number(match[1]);
  if (id === undefined && req.method === "GET") {
    return [200, { count: notes.length, next: null, previous: null, results: notes }];
  }
  if (id === undefined && req.method === "POST") {
    const body = req.body as { name: string; text?: string };
    // Like a service, the fake gives a field the create leaves out its default.
    const note = { id: nextId++, name: body.name, text: body.text ?? "" };
    notes.push(note);
    return [201, note];
  }
  const found = notes.find((n) => n.id === id);
  if (!found) return [404, notFound];
  if (req.method === "PATCH") return [200, Object.assign(found, req.body)];
  if (req.method === "DELETE") {
    notes = notes.filter((n) => n !== found);
    return [204, undefined];
  }
  return [405, { type: "invalid_request", code: "method_not_allowed", detail: "No.", attr: null }];
}

const config = (text: string) =>
  loadConfig({ files: [{ path: "notes.yaml", text }] }, { kinds: REGISTRY, env: {} });

async function planOf(text: string, prune = false) {
  return makePlan(await config(text), client, { prune });
}

beforeAll(async () => {
  server = await startFakeServer(notesService);
  client = createClient({ host: server.url, apiKey: "phx_notes" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  notes = [];
  nextId = 1;
  server.seen.length = 0;
});

const FILE = `project: ${PROJECT}\nnotes:\n  - name: Ideas\n    text: ship it\n  - name: Todo\n`;

describe("a third kind, known only to the registry it is given", () => {
  it("is validated by the composed schema, with positions and its own words", async () => {
    const loaded = await config(`project: ${PROJECT}\nnotes:\n  - name: Ideas\n    colour: red\n`);
    expect(loaded.ok).toBe(false);
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        file: "notes.yaml",
        line: 4,
        column: 5,
        message: expect.stringContaining('in note "Ideas"'),
      }),
    ]);
    // The built-in registry does not know the key at all.
    const builtIn = await loadConfig({ files: [{ path: "notes.yaml", text: FILE }] });
    expect(builtIn.diagnostics[0]?.message).toContain('unknown key "notes"');
  });

  it("plans, applies, converges, follows a change made elsewhere and prunes, through the same code", async () => {
    const plan = await planOf(FILE);
    expect(plan.actions.map((a) => `${a.action}:${a.object.kind}/${a.object.name}`)).toEqual([
      "create:note/Ideas",
      "create:note/Todo",
    ]);
    const text = renderPlan(plan, "text", { kinds: REGISTRY });
    expect(text).toContain(`Project ${PROJECT} · notes`);
    expect(text).toContain('+ note "Ideas"');
    expect(renderPlan(plan, "markdown", { kinds: REGISTRY })).toContain("note <b>Todo</b>");

    const applied = await applyPlan(plan, client, { kinds: REGISTRY });
    expect(applied.ok).toBe(true);
    expect(notes).toEqual([
      { id: 1, name: "Ideas", text: "ship it" },
      { id: 2, name: "Todo", text: "" },
    ]);
    expect((await planOf(FILE)).actions).toEqual([]);

    const ideas = notes[0] as LiveNote;
    ideas.text = "edited elsewhere";
    const drift = await planOf(FILE);
    expect(drift.actions).toMatchObject([
      {
        action: "update",
        object: { kind: "note", name: "Ideas", id: 1 },
        changes: [{ path: "text", before: "edited elsewhere", after: "ship it" }],
      },
    ]);
    expect(drift.fingerprints).toHaveProperty(`${PROJECT}/note/Ideas`);
    await applyPlan(drift, client, { kinds: REGISTRY });
    expect(ideas.text).toBe("ship it");

    notes.push({ id: 99, name: "Stray", text: "" });
    const pruned = await planOf(FILE, true);
    expect(pruned.actions.map((a) => `${a.action}:${a.object.name}`)).toEqual(["delete:Stray"]);
    expect((await applyPlan(pruned, client, { kinds: REGISTRY })).ok).toBe(true);
    expect(notes.map((n) => n.name)).toEqual(["Ideas", "Todo"]);
    // Only the notes endpoints were ever called: no other kind was read, none was written.
    expect(new Set(server.seen.map((s) => s.path.replace(/\d+\/$/, "N/")))).toEqual(
      new Set([`/api/projects/${PROJECT}/notes/`, `/api/projects/${PROJECT}/notes/N/`]),
    );
  });

  it("pulls into a file that plans to no changes", async () => {
    notes.push({ id: 5, name: "Adopted", text: "from the UI" });
    const [file, ...others] = await pullFiles([noteKind], client, PROJECT, () => "config.schema.json");
    expect(others).toEqual([]);
    expect(file).toMatchObject({ kind: "note", name: "notes.yaml", objects: 1 });
    expect(file?.text).toContain("notes:\n  - name: Adopted\n    id: 5\n    text: from the UI\n");
    expect((await planOf(file?.text ?? "")).actions).toEqual([]);
  });
});
