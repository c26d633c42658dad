/**
 * Kind kit v2 (issue 32): two PostHog models that exist only in the tests (segment-kinds/: audiences,
 * and segments whose rules name audiences and other segments by name, the way cohorts' filters will)
 * go through every stage by the same code as the built-in kinds, against a fake service on loopback:
 * validate (their schema, a cycle of segments), plan (references resolved per project, `requires`
 * with or without an id), apply (what is named created first, its new id in the body), the next
 * plan empty (compared by name), updates with the same keys on both sides, prune, restore, a
 * change-scoped plan, and pull (names where the name is the object's own).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Declared } from "../../src/config/types.js";
import { applyPlan, createClient, loadConfig, makePlan, type ServiceClient } from "../../src/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { pullFiles } from "../../src/pull/pull.js";
import { readAndPlanChange } from "../../src/read/make-plan.js";
import { type FakeServer, startFakeServer } from "../service/fake-server.js";
import { audienceKind } from "./segment-kinds/audience.js";
import { segmentKind } from "./segment-kinds/segment.js";
import { ModelStore } from "./segment-kinds/service.js";

const REGISTRY = [...KINDS, audienceKind, segmentKind];
let server: FakeServer;
let client: ServiceClient;
let store: ModelStore;

beforeAll(async () => {
  server = await startFakeServer((req, res) => store.handle(req, res));
  client = createClient({ host: server.url, apiKey: "phx_segments" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  store = new ModelStore();
  server.seen.length = 0;
});

const load = (text: string) =>
  loadConfig(
    { files: [{ path: "segments.yaml", text: `project: 7\n${text}` }] },
    { kinds: REGISTRY, env: {} },
  );

async function planOf(text: string, prune = false) {
  const config = await load(text);
  expect(config.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return makePlan(config, client, { prune });
}

async function apply(text: string) {
  const plan = await planOf(text);
  const applied = await applyPlan(plan, client, { kinds: REGISTRY });
  expect(applied.results.map((r) => [r.action.object.name, r.outcome, r.error ?? ""]).sort()).toEqual(
    plan.actions.map((a) => [a.object.name, "ok", ""]).sort(),
  );
  expect(applied.ok).toBe(true);
  return plan;
}

const BOTH = `audiences:
  - name: Beta testers
    description: Invited
segments:
  - name: Early
    rules:
      type: all
      values:
        - {type: audience, audience: Beta testers}
        - type: any
          values: [{type: segment, segment: Staff}]
  - name: Staff
    rules: {type: any, values: []}
`;

describe("a test-only model kind through every stage", () => {
  it("creates what a segment names in the same apply, first, and hands the new ids to its body", async () => {
    const plan = await apply(BOTH);
    expect(plan.actions.map((a) => [a.action, a.object.kind, a.object.name, a.requires ?? []])).toEqual([
      ["create", "audience", "Beta testers", []],
      [
        "create",
        "segment",
        "Early",
        [
          { kind: "audience", name: "Beta testers" },
          { kind: "segment", name: "Staff" },
        ],
      ],
      ["create", "segment", "Staff", []],
    ]);
    // What Early names is created before it, whatever the plan's order.
    const posted = server.seen
      .filter((r) => r.method === "POST")
      .map((r) => (r.body as { name: string }).name);
    expect(posted).toHaveLength(3);
    expect(posted.at(-1)).toBe("Early");
    const [audience] = store.live("audiences");
    const staff = store.live("segments").find((s) => s.name === "Staff");
    const early = store.live("segments").find((s) => s.name === "Early");
    expect(early?.rules).toEqual({
      type: "all",
      values: [
        { type: "audience", value: audience?.id, key: "id" },
        { type: "any", values: [{ type: "segment", value: staff?.id, key: "id" }] },
      ],
    });
    // The service stores ids; both sides compare by name: nothing left to do.
    expect((await planOf(BOTH)).actions).toEqual([]);
  });

  it("updates with the same keys on both sides; a raw id and the name of the same audience are equal", async () => {
    const beta = store.add("audiences", { name: "Beta testers", description: "Invited", tags: [] });
    const gamma = store.add("audiences", { name: "Gamma", description: "", tags: [] });
    store.add("segments", {
      name: "Early",
      rules: { type: "all", values: [{ type: "audience", key: "id", value: beta.id }] },
    });
    const byId = `segments:\n  - name: Early\n    rules: {type: all, values: [{type: audience, value: ${beta.id}}]}\n`;
    expect((await planOf(byId)).actions).toEqual([]);
    const changed = byId.replace(`value: ${beta.id}`, "audience: Gamma").replace("type: all", "type: any");
    const [update] = (await planOf(changed)).actions;
    expect(update?.action).toBe("update");
    expect(Object.keys(update?.before?.rules as object)).toEqual(Object.keys(update?.after?.rules as object));
    expect(update?.after).toEqual({
      rules: { type: "any", values: [{ type: "audience", audience: "Gamma" }] },
    });
    expect(update?.before).toEqual({
      rules: { type: "all", values: [{ type: "audience", audience: "Beta testers" }] },
    });
    expect(update?.requires).toEqual([{ kind: "audience", name: "Gamma", id: gamma.id }]);
    await apply(changed);
    expect(store.live("segments")[0]?.rules).toEqual({
      type: "any",
      values: [{ type: "audience", value: gamma.id, key: "id" }],
    });
  });

  it("prunes an undeclared segment by a soft delete, and restores a pinned soft-deleted one", async () => {
    store.add("segments", { name: "Old", rules: {} });
    const gone = store.add("segments", { name: "Back", rules: {}, deleted: true });
    const text = `segments:\n  - name: Back\n    id: ${gone.id}\n    rules: {type: any}\n`;
    const plan = await planOf(text, true);
    expect(plan.actions.map((a) => `${a.action} ${a.object.name}`)).toEqual([
      "restore Back",
      "update Back",
      "soft_delete Old",
    ]);
    const blind = plan.actions[1];
    expect(Object.keys(blind?.before ?? {})).toEqual(Object.keys(blind?.after ?? {}));
    expect(blind?.preconditions).toEqual({ live: "unknown" });
    expect((await applyPlan(plan, client, { kinds: REGISTRY })).ok).toBe(true);
    expect(store.live("segments").map((s) => s.name)).toEqual(["Back"]);
    expect((await planOf(text, true)).actions).toEqual([]);
  });

  it("refuses a cycle of segments at validate, an audience named nowhere or by two at plan", async () => {
    const cycle = await load(
      "segments:\n  - name: A\n    rules: {type: all, values: [{type: segment, segment: B}]}\n  - name: B\n    rules: {type: all, values: [{type: segment, segment: A}]}\n",
    );
    expect(cycle.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      "4:58: segments name each other in a cycle (A → B → A): the service refuses it; remove one of the segment references",
    ]);
    store.add("audiences", { name: "Twice", description: "", tags: [] });
    store.add("audiences", { name: "Twice", description: "", tags: [] });
    const config = await load(
      "audiences: []\nsegments:\n  - name: S\n    rules: {type: all, values: [{type: audience, audience: Twice}, {type: audience, audience: Nobody}]}\n",
    );
    const refused = await makePlan(config, client, {}).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(refused).toContain('audience name "Twice" is held by audiences 100, 101 of project 7');
    expect(refused).toContain(
      'segment "S" names audience "Nobody", which is neither declared nor a live audience of project 7',
    );
  });

  it("a change-scoped plan reads the changed segment and the audience it names by search, lists nothing", async () => {
    const file = `audiences:
  - name: Beta testers
    description: Invited
segments:
  - name: Early
    rules: {type: all, values: [{type: audience, audience: Beta testers}]}
  - name: Staff
    rules: {type: any}
`;
    await apply(file);
    server.seen.length = 0;
    const text = file.replace("type: all", "type: any");
    const config = await load(text);
    const all = Object.values(config.projects[0]?.objects ?? {}).flat() as Declared[];
    const change = { changed: new Set(all.filter((d) => d.name === "Early")), removed: [] };
    const options = { prune: false, force: false, rotateSecrets: false, now: new Date(0) };
    const made = await readAndPlanChange(REGISTRY, client, config.projects, options, change);
    expect(made.plan.actions.map((a) => `${a.action} ${a.object.name}`)).toEqual(["update Early"]);
    expect(server.seen.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      "GET /api/projects/7/audiences/?search=Beta+testers&limit=100",
      "GET /api/projects/7/segments/?search=Early&limit=100",
    ]);
  });

  it("pulls segments naming audiences and segments by name, and the plan of the pulled files is empty", async () => {
    await apply(BOTH);
    const shared = store.add("audiences", { name: "Beta testers", description: "a second", tags: [] });
    store.add("segments", {
      name: "Odd",
      rules: { type: "all", values: [{ type: "audience", key: "id", value: shared.id }] },
    });
    const files = await pullFiles([audienceKind, segmentKind], client, 7, () => "schema.json");
    const segments = files.find((f) => f.kind === "segment")?.text ?? "";
    // "Beta testers" is held by two audiences now: by id; Staff is its own name.
    expect(segments).toContain(`- type: audience\n          value: ${shared.id}`);
    expect(segments).toContain("- type: segment\n              segment: Staff");
    expect(segments).not.toContain("key: id");
    const config = await loadConfig(
      { files: files.map((f) => ({ path: f.name, text: f.text })) },
      { kinds: REGISTRY, env: {} },
    );
    expect(config.diagnostics).toEqual([]);
    expect((await makePlan(config, client, {})).actions).toEqual([]);
  });

  it("refuses its raw ids in a file shared by several projects, at any depth of its rules", () => {
    expect(segmentKind.environments?.projectIds).toEqual([
      { path: "/id" },
      { path: "/rules/**/value", where: { type: "audience" } },
      { path: "/rules/**/value", where: { type: "segment" } },
    ]);
  });
});
