/**
 * A kind with a verb of its own is a folder: the test-only `banner` kind (test/kinds/banner-kind/) is
 * added to the registry here, one line, and goes through the loader, the composed config and plan
 * schemas, the planner and its sort, the renderers, the executor and pull, against a fake service on
 * loopback. Its `publish` / `unpublish` verbs are shown, counted, ordered, guarded and sent by the
 * same code as the built-in kinds' own verbs.
 */
import type { ServerResponse } from "node:http";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { composeSchema } from "../../src/config/schema.js";
import {
  applyPlan,
  createClient,
  loadConfig,
  makePlan,
  renderPlan,
  type ServiceClient,
} from "../../src/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { planSchema } from "../../src/plan/schema.js";
import { pullFiles } from "../../src/pull/pull.js";
import { type FakeServer, json, type Seen, startFakeServer } from "../service/fake-server.js";
import { bannerKind, type LiveBanner } from "./banner-kind/index.js";

const REGISTRY = [...KINDS, bannerKind];
const PROJECT = 7;

let server: FakeServer;
let client: ServiceClient;
let banners: LiveBanner[];
let nextId = 1;

function bannersService(req: Seen, res: ServerResponse): void {
  const [status, body] = answer(req);
  json(res, status, body);
}

/** The fake service: a limit/offset list, create, PATCH, DELETE, and publish / unpublish. */
function answer(req: Seen): [number, unknown] {
  const notFound = { type: "invalid_request", code: "not_found", detail: "Not found.", attr: null };
  const match = /^\/api\/projects\/7\/banners\/(?:(\d+)\/(?:(publish|unpublish)\/)?)?$/.exec(req.path);
  if (!match) return [404, notFound];
  const id = match[1] === undefined ? undefined : Number(match[1]);
  if (id === undefined && req.method === "GET") {
    return [200, { count: banners.length, next: null, previous: null, results: banners }];
  }
  if (id === undefined && req.method === "POST") {
    const body = req.body as Partial<LiveBanner>;
    const banner: LiveBanner = { id: nextId++, name: "", message: "", level: 1, ...body, published: false };
    banners.push(banner);
    return [201, banner];
  }
  const found = banners.find((b) => b.id === id);
  if (!found) return [404, notFound];
  if (match[2] !== undefined && req.method === "POST") {
    found.published = match[2] === "publish";
    return [200, found];
  }
  if (req.method === "PATCH") {
    // Never by PATCH: the switch has its own endpoints.
    const { published: _ignored, ...rest } = req.body as Partial<LiveBanner>;
    return [200, Object.assign(found, rest)];
  }
  if (req.method === "DELETE") {
    banners = banners.filter((b) => b !== found);
    return [204, undefined];
  }
  return [405, { type: "invalid_request", code: "method_not_allowed", detail: "No.", attr: null }];
}

const config = (text: string) =>
  loadConfig({ files: [{ path: "banners.yaml", text }] }, { kinds: REGISTRY, env: {} });

async function planOf(text: string, prune = false) {
  return makePlan(await config(text), client, { prune });
}

beforeAll(async () => {
  server = await startFakeServer(bannersService);
  client = createClient({ host: server.url, apiKey: "phx_banners" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  banners = [];
  nextId = 1;
  server.seen.length = 0;
});

const FILE = [
  `project: ${PROJECT}`,
  "banners:",
  "  - name: Maintenance",
  "    message: |",
  "      Down on Sunday.",
  "    level: warning",
  "    published: true",
  "  - name: Welcome",
  "    message: Hello",
  "",
].join("\n");

describe("a fourth kind with a verb of its own, known only to the registry it is given", () => {
  it("is validated by the schema composed from its table, with its words", async () => {
    const loaded = await config(`project: ${PROJECT}\nbanners:\n  - name: Loud\n    level: shouting\n`);
    expect(loaded.ok).toBe(false);
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        file: "banners.yaml",
        line: 4,
        message: expect.stringContaining('banner "Loud"'),
      }),
    ]);
    const schema = composeSchema(REGISTRY) as {
      $defs: Record<string, { properties: Record<string, unknown> }>;
    };
    expect(Object.keys(schema.$defs.banner?.properties ?? {})).toEqual([
      "name",
      "id",
      "message",
      "level",
      "published",
      "deleted",
    ]);
    expect(schema.$defs.banner?.properties.level).toEqual({
      enum: ["info", "warning", 1, 2],
      description: "How loud it is.",
    });
  });

  it("plans its verb after the create, shows and counts it, and the plan schema knows it", async () => {
    const plan = await planOf(FILE);
    expect(plan.actions.map((a) => `${a.action}:${a.object.name}`)).toEqual([
      "create:Maintenance",
      "publish:Maintenance",
      "create:Welcome",
    ]);
    expect(plan.actions[0]?.after).toEqual({ name: "Maintenance", message: "Down on Sunday.", level: 2 });
    const text = renderPlan(plan, "text", { kinds: REGISTRY });
    expect(text).toContain(`Project ${PROJECT} · banners`);
    expect(text).toContain("▲ publish");
    expect(text).toContain("level: warning");
    expect(text).toContain("Plan: 2 to create, 1 to publish.");
    expect(renderPlan(plan, "markdown", { kinds: REGISTRY })).toContain("| publish | 1 |");

    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(planSchema(REGISTRY));
    expect(
      validate(JSON.parse(renderPlan(plan, "json", { kinds: REGISTRY }))),
      JSON.stringify(validate.errors),
    ).toBe(true);
    // The built-in kinds' schema does not know the verb.
    expect(ajv.compile(planSchema(KINDS))(JSON.parse(JSON.stringify(plan)))).toBe(false);
  });

  it("applies through its own endpoints, converges, turns the switch back, guards and prunes", async () => {
    const applied = await applyPlan(await planOf(FILE), client, { kinds: REGISTRY });
    expect(applied.ok).toBe(true);
    expect(banners).toEqual([
      { id: 1, name: "Maintenance", message: "Down on Sunday.", level: 2, published: true },
      { id: 2, name: "Welcome", message: "Hello", level: 1, published: false },
    ]);
    expect(
      server.seen.some(
        (s) => s.method === "POST" && s.path === `/api/projects/${PROJECT}/banners/1/publish/`,
      ),
    ).toBe(true);
    expect((await planOf(FILE)).actions).toEqual([]);

    const maintenance = banners[0] as LiveBanner;
    maintenance.published = false;
    maintenance.message = "Down on Saturday.";
    const drift = await planOf(FILE);
    expect(drift.actions).toMatchObject([
      {
        action: "update",
        object: { kind: "banner", name: "Maintenance", id: 1 },
        changes: [{ path: "message", before: "Down on Saturday.", after: "Down on Sunday." }],
      },
      { action: "publish", before: { published: false }, after: { published: true }, destructive: false },
    ]);
    expect(drift.actions[0]?.changes[0]?.diff).toContain("+Down on Sunday.");
    await applyPlan(drift, client, { kinds: REGISTRY });
    expect(maintenance).toMatchObject({ published: true, message: "Down on Sunday." });

    const unpublish = await planOf(FILE.replace("published: true", "published: false"));
    expect(unpublish.actions).toMatchObject([{ action: "unpublish", destructive: true }]);
    expect(unpublish.summary).toMatchObject({ counts: { unpublish: 1 }, destructive: true });
    expect(renderPlan(unpublish, "text", { kinds: REGISTRY })).toContain("▼ unpublish");

    banners.push({ id: 99, name: "Stray", message: "", level: 1, published: false });
    const pruned = await planOf(FILE, true);
    expect(pruned.actions.map((a) => `${a.action}:${a.object.name}`)).toEqual(["delete:Stray"]);
    expect((await applyPlan(pruned, client, { kinds: REGISTRY })).ok).toBe(true);
    expect(banners.map((b) => b.name)).toEqual(["Maintenance", "Welcome"]);
  });

  it("checks the service's answers against the shape it declares", async () => {
    banners.push({ id: 3, name: "Broken", message: "", level: 7, published: false } as unknown as LiveBanner);
    await expect(planOf(FILE)).rejects.toThrow(
      /unexpected answer from the service.*results\[0\]\.level is not one of 1, 2/,
    );
  });

  it("pulls into a file (words for codes) that plans to no changes", async () => {
    banners.push({ id: 5, name: "Adopted", message: "From the UI\n", level: 2, published: true });
    const [file, ...others] = await pullFiles([bannerKind], client, PROJECT, () => "config.schema.json");
    expect(others).toEqual([]);
    expect(file).toMatchObject({ kind: "banner", name: "banners.yaml", objects: 1 });
    expect(file?.text).toContain(
      "banners:\n  - name: Adopted\n    id: 5\n    message: |\n      From the UI\n    level: warning\n    published: true\n",
    );
    expect((await planOf(file?.text ?? "")).actions).toEqual([]);
  });
});
