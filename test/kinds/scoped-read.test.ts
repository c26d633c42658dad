/**
 * The change-scoped read across kinds (SPEC §3 "Change-scoped plans"), with two test-only kinds
 * (shelf-kinds/) at a fake service on loopback: a changed declaration is read by id or by search, what
 * it references is read with it (by the referenced declaration's pin when it has one) and not planned,
 * a removed declaration is read to say what stays live, nothing is listed, and a saved plan's scope
 * reads again exactly the same requests.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Declared } from "../../src/config/types.js";
import { createClient, loadConfig, type ServiceClient } from "../../src/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { refetchLiveState } from "../../src/read/fetch.js";
import { readAndPlanChange } from "../../src/read/make-plan.js";
import { type FakeServer, json, type Seen, startFakeServer } from "../service/fake-server.js";
import { bookKind, type LiveThing, shelfKind } from "./shelf-kinds/index.js";

const REGISTRY = [...KINDS, shelfKind, bookKind];
let server: FakeServer;
let client: ServiceClient;
let live: Record<string, LiveThing[]>;

function answer(req: Seen): [number, unknown] {
  const match = /^\/api\/projects\/7\/(shelves|books)\/(?:(\d+)\/)?$/.exec(req.path);
  const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null };
  if (!match || req.method !== "GET") return [404, notFound];
  const all = live[match[1] as string] ?? [];
  if (match[2] !== undefined) {
    const found = all.find((o) => o.id === Number(match[2]));
    return found ? [200, found] : [404, notFound];
  }
  const search = req.query.get("search")?.toLowerCase();
  const results = search === undefined ? all : all.filter((o) => o.name.toLowerCase().includes(search));
  const limit = Number(req.query.get("limit") ?? 100);
  return [200, { count: results.length, next: null, previous: null, results: results.slice(0, limit) }];
}

beforeAll(async () => {
  server = await startFakeServer((req: Seen, res: ServerResponse) => json(res, ...answer(req)));
  client = createClient({ host: server.url, apiKey: "phx_shelves" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  live = {
    shelves: [
      { id: 1, name: "Fiction" },
      { id: 2, name: "Fiction annex" },
      { id: 3, name: "History" },
    ],
    books: [
      { id: 10, name: "Dune", shelf: "Fiction" },
      { id: 11, name: "Dune Messiah", shelf: "Fiction" },
      { id: 12, name: "SPQR", shelf: "History" },
    ],
  };
  server.seen.length = 0;
});

const FILE = [
  "project: 7",
  "shelves:",
  "  - name: Fiction",
  "  - name: History",
  "    id: 3",
  "books:",
  "  - name: Dune",
  "    shelf: Fiction",
  "  - name: Dune Messiah",
  "    shelf: Fiction",
  "  - name: SPQR",
  "    id: 12",
  "    shelf: History",
  "",
].join("\n");

async function changed(text: string, names: string[], removed: Array<{ kind: string; name: string }> = []) {
  const config = await loadConfig({ files: [{ path: "lib.yaml", text }] }, { kinds: REGISTRY, env: {} });
  expect(config.diagnostics).toEqual([]);
  const project = config.projects[0]!;
  const all = Object.values(project.objects).flat() as Declared[];
  const change = {
    changed: new Set(all.filter((d) => names.includes(d.name))),
    removed: removed.map((r) => ({ ...r, project: 7 })),
  };
  const options = { prune: false, force: false, rotateSecrets: false, now: new Date(0) };
  const made = await readAndPlanChange(REGISTRY, client, config.projects, options, change);
  expect(made.whole).toBeUndefined();
  return made;
}

const asked = () => server.seen.map((r) => `${r.method} ${r.url}`).sort();

describe("a change-scoped read across kinds", () => {
  it("reads the changed book by its pin and the shelf it names by search, lists nothing, plans only the book", async () => {
    const made = await changed(FILE.replace("  - name: Dune\n", "  - name: Dune\n    id: 10\n"), ["Dune"]);
    expect(asked()).toEqual([
      "GET /api/projects/7/books/10/",
      "GET /api/projects/7/shelves/?search=Fiction&limit=100",
    ]);
    // The search also answered "Fiction annex": only the exact name is kept.
    expect(made.live[0]?.kinds.shelf?.objects.map((o) => o.name)).toEqual(["Fiction"]);
    expect(made.planned).toEqual(["7/book/#10"]);
    expect(made.plan.actions).toEqual([]);
    expect(made.reads[0]?.scope).toEqual({
      book: { ids: [10], names: [], pinnedElsewhere: [12] },
      shelf: { ids: [], names: ["Fiction"], pinnedElsewhere: [3] },
    });
  });

  it("plans a change to the book; a referenced shelf that is declared with a pin is read by its id", async () => {
    const made = await changed(FILE.replace("    shelf: History", "    shelf: Fiction"), ["SPQR"]);
    expect(made.plan.actions.map((a) => `${a.action} ${a.object.name}`)).toEqual(["update SPQR"]);
    expect(asked()).toEqual([
      "GET /api/projects/7/books/12/",
      "GET /api/projects/7/shelves/?search=Fiction&limit=100",
    ]);
    server.seen.length = 0;
    const moved = await changed(FILE, ["SPQR"]);
    expect(moved.plan.actions).toEqual([]);
    expect(asked()).toEqual(["GET /api/projects/7/books/12/", "GET /api/projects/7/shelves/3/"]);
  });

  it("a removed declaration is read and reported with what stays live; a saved scope reads the same again", async () => {
    const text = FILE.replace("  - name: Dune Messiah\n    shelf: Fiction\n", "");
    const made = await changed(text, [], [{ kind: "book", name: "Dune Messiah" }]);
    expect(made.removed).toEqual([{ kind: "book", project: 7, name: "Dune Messiah", live: 11 }]);
    expect(made.plan.actions).toEqual([]);
    const first = asked();
    server.seen.length = 0;
    const again = await refetchLiveState(REGISTRY, client, made.reads);
    expect(asked()).toEqual(first);
    expect(again[0]?.kinds.book?.objects).toEqual(made.live[0]?.kinds.book?.objects);
  });

  it("more objects to read one by one than the list has pages: the lists are read whole, only the change planned", async () => {
    const text = FILE.replace("shelf: History", "shelf: Fiction");
    const config = await loadConfig({ files: [{ path: "lib.yaml", text }] }, { kinds: REGISTRY, env: {} });
    const books = config.projects[0]?.objects.book as Declared[];
    const options = { prune: false, force: false, rotateSecrets: false, now: new Date(0) };
    live.shelves?.push({ id: 4, name: "Not declared" });
    const change = { changed: new Set(books), removed: [] };
    const made = await readAndPlanChange(REGISTRY, client, config.projects, options, change);
    expect(made.whole).toBe(
      "the change reads 3 book objects one by one in project 7, and their list is 1 page",
    );
    // The count (a one-item page), then each list once; nothing one by one.
    expect(asked()).toEqual([
      "GET /api/projects/7/books/?limit=1",
      "GET /api/projects/7/books/?limit=100",
      "GET /api/projects/7/shelves/?limit=100",
    ]);
    expect(made.plan.actions.map((a) => `${a.action} ${a.object.name}`)).toEqual(["update SPQR"]);
    expect(made.planned.sort()).toEqual(["7/book/#12", "7/book/=Dune", "7/book/=Dune Messiah"]);
  });
});
