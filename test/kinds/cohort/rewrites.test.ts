/**
 * Cohorts and actions (issue 33) compared without perpetual diffs after every rewrite the service makes
 * (service-api.md §12.4, §13.3): each test applies a declaration to a fake service that rewrites what
 * it stores as the service does (./fake-service.ts), then plans the same files again: nothing to do.
 * And no PATCH that changes nothing (each one recalculates a cohort).
 */
import { clockFrom } from "posthog-gitops-shared/clock";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applyPlan, createClient, loadConfig, makePlan, type ServiceClient } from "../../../src/index.js";
import { KINDS } from "../../../src/kinds/index.js";
import { type FakeServer, startFakeServer } from "../../service/fake-server.js";
import { CohortService } from "./fake-service.js";

let server: FakeServer;
let client: ServiceClient;
let service: CohortService;
const clock = clockFrom("2026-05-01T10:00:00Z");

beforeAll(async () => {
  server = await startFakeServer((req, res) => service.handle(req, res));
  client = createClient({ host: server.url, apiKey: "phx_cohorts" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  service = new CohortService();
  server.seen.length = 0;
});

const load = (text: string) =>
  loadConfig({ files: [{ path: "posthog.yaml", text: `project: 7\n${text}` }] }, { kinds: KINDS, env: {} });

async function planOf(text: string) {
  const config = await load(text);
  expect(config.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return makePlan(config, client, { clock });
}

/** Applies `text`, checks every action went through, and returns what the next plan holds. */
async function applyThenPlan(text: string) {
  const plan = await planOf(text);
  expect(plan.actions.length).toBeGreaterThan(0);
  const applied = await applyPlan(plan, client, { kinds: KINDS });
  expect(applied.results.map((r) => [r.action.object.name, r.outcome, r.error ?? ""])).toEqual(
    plan.actions.map((a) => [a.object.name, "ok", ""]),
  );
  server.seen.length = 0;
  return (await planOf(text)).actions;
}

/** The first step of the first action, as the service stores it. */
const firstStep = (): Record<string, unknown> =>
  ((service.actions[0]?.steps ?? []) as Array<Record<string, unknown>>)[0] ?? {};

const writes = () => server.seen.filter((r) => r.method !== "GET");

const cohort = (condition: string) => `cohorts:
  - name: Staff
    filters:
      properties:
        type: OR
        values:
          - type: AND
            values:
              - ${condition}
`;

describe("a cohort is compared after each rewrite of its filters (apply, then the plan is empty)", () => {
  it("every condition's compiled bytecode and conditionHash", async () => {
    expect(
      await applyThenPlan(cohort("{type: person, key: email, operator: icontains, value: '@acme.com'}")),
    ).toEqual([]);
    const stored = JSON.stringify(
      await client.request({ method: "GET", path: `/api/projects/7/cohorts/${service.cohorts[0]?.id}/` }),
    );
    expect(stored).toContain('"bytecode":["_H",1');
    expect(stored).toContain('"conditionHash"');
    expect(writes()).toEqual([]);
  });

  it("bytecode_error where a condition does not compile", async () => {
    service.failing.add("$autocapture");
    const text = cohort(
      "{type: behavioral, value: performed_event, event_type: events, key: $autocapture, time_value: 30, time_interval: day}",
    );
    expect(await applyThenPlan(text)).toEqual([]);
    expect(JSON.stringify(service.cohorts[0]?.filters)).not.toContain("bytecode");
  });

  it("negation: false added to every condition", async () => {
    expect(await applyThenPlan(cohort("{type: person, key: plan, operator: exact, value: [pro]}"))).toEqual(
      [],
    );
    expect(JSON.stringify(service.cohorts[0]?.filters)).toContain('"negation":false');
  });

  it("nulls dropped", async () => {
    const text = cohort(
      "{type: behavioral, value: performed_event, event_type: events, key: signed up, time_value: 30, time_interval: day, explicit_datetime: null, operator: null}",
    );
    expect(await applyThenPlan(text)).toEqual([]);
    expect(JSON.stringify(service.cohorts[0]?.filters)).not.toContain("null");
  });

  it("numeric strings made integers", async () => {
    const text = cohort(
      "{type: behavioral, value: performed_event_multiple, event_type: events, key: signed up, time_value: '30', time_interval: day, operator: gte, operator_value: '3'}",
    );
    expect(await applyThenPlan(text)).toEqual([]);
    expect(JSON.stringify(service.cohorts[0]?.filters)).toContain('"time_value":30');
  });

  it("a one-element list unwrapped for a one-value operator", async () => {
    expect(
      await applyThenPlan(cohort("{type: person, key: email, operator: icontains, value: ['@acme.com']}")),
    ).toEqual([]);
    expect(JSON.stringify(service.cohorts[0]?.filters)).toContain('"value":"@acme.com"');
  });

  it("cohort_type, which the service recomputes, is never compared nor sent", async () => {
    expect(await applyThenPlan(cohort("{type: person, key: email, operator: is_set}"))).toEqual([]);
    expect(service.cohorts[0]?.cohort_type).toBe("realtime");
    const [post] = server.seen.filter((r) => r.method === "POST");
    expect(post).toBeUndefined();
  });

  it("every cohort's bytecode upgraded by the service: the plan stays empty, and nothing is recalculated", async () => {
    const text = `${cohort("{type: person, key: email, operator: icontains, value: '@acme.com'}")}  - name: Power users
    filters: {properties: {type: AND, values: [{type: person, key: plan, value: pro, operator: exact}]}}
`;
    expect(await applyThenPlan(text)).toEqual([]);
    const recalculated = new Map(service.recalculations);
    service.bytecodeVersion = 2;
    expect((await planOf(text)).actions).toEqual([]);
    expect(writes()).toEqual([]);
    expect(service.recalculations).toEqual(recalculated);
  });

  it("a changed condition is one PATCH of the filters (one recalculation), then nothing", async () => {
    const text = cohort("{type: person, key: email, operator: icontains, value: '@acme.com'}");
    await applyThenPlan(text);
    const changed = text.replace("@acme.com", "@acme.org");
    const [update] = (await planOf(changed)).actions;
    expect(update?.changes.map((c) => c.path)).toEqual(["filters.properties"]);
    expect(await applyThenPlan(changed)).toEqual([]);
    expect([...service.recalculations.values()]).toEqual([1]);
  });
});

describe("a static cohort is a container only", () => {
  it("criteria declared on a static cohort are a validate error at the filters", async () => {
    const config = await load(
      "cohorts:\n  - name: Imported\n    is_static: true\n    filters: {properties: {type: AND, values: []}}\n",
    );
    expect(config.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      expect.stringMatching(
        /^5:5: a static cohort is a container of the members uploaded to it: its criteria are not managed, and the service refuses them \("Editing the criteria of a static cohort is not supported yet/,
      ),
    ]);
  });

  it("is created without criteria, compared on its name and description, never switched; criteria on a live one are a plan error", async () => {
    const text = "cohorts:\n  - name: Imported\n    is_static: true\n    description: CSV upload\n";
    expect(await applyThenPlan(text)).toEqual([]);
    expect(service.cohorts[0]).toMatchObject({ is_static: true, filters: null });
    const errors = async (yaml: string) =>
      makePlan(await load(yaml), client, { clock }).then(
        () => "",
        (e: Error) => e.message,
      );
    expect(
      await errors(
        "cohorts:\n  - name: Imported\n    filters: {properties: {type: AND, values: [{type: person, key: a, value: b}]}}\n",
      ),
    ).toContain('cohort "Imported" is static: its criteria are the members uploaded to it');
    expect(await errors("cohorts:\n  - name: Imported\n    is_static: false\n")).toContain(
      'cohort "Imported" is static and is declared dynamic: a cohort cannot switch',
    );
  });
});

const action = (step: string) => `actions:
  - name: Signed up
    steps:
      - ${step}
`;

describe("an action is compared after each rewrite of its steps (apply, then the plan is empty)", () => {
  it("steps filled to their ten keys", async () => {
    expect(await applyThenPlan(action("{event: user signed up}"))).toEqual([]);
    expect(Object.keys(firstStep())).toHaveLength(10);
  });

  it("url_matching defaulted to contains (and an explicit null kept)", async () => {
    expect(await applyThenPlan(action("{event: $pageview, url: /welcome}"))).toEqual([]);
    expect(firstStep().url_matching).toBe("contains");
    expect(await applyThenPlan(action("{event: $pageview, url: /welcome, url_matching: null}"))).toEqual([]);
    expect(firstStep().url_matching).toBe(null);
  });

  it("url and selector trimmed", async () => {
    expect(
      await applyThenPlan(action("{event: $autocapture, url: ' /pricing ', selector: ' button.cta '}")),
    ).toEqual([]);
    expect(firstStep()).toMatchObject({
      url: "/pricing",
      selector: "button.cta",
    });
  });

  it("selector_regex, which the service computes, never compared", async () => {
    expect(await applyThenPlan(action("{event: $autocapture, selector: button.cta}"))).toEqual([]);
    const read = (await client.request({
      method: "GET",
      path: `/api/projects/7/actions/${service.actions[0]?.id}/`,
    })) as {
      steps: Array<Record<string, unknown>>;
    };
    expect(read.steps[0]?.selector_regex).toBe("^button.cta$");
  });

  it("pinned_at, stamped with the service's time, compared as a switch", async () => {
    const text = "actions:\n  - name: Signed up\n    pinned: true\n    steps: [{event: user signed up}]\n";
    expect(await applyThenPlan(text)).toEqual([]);
    // The plan's time on a create (the service keeps it), the service's own on an update.
    expect(service.actions[0]?.pinned_at).toMatch(/^2026-05-01T10:00:0\d\.\d{3}Z$/);
    const unpin = (await planOf(text.replace("pinned: true", "pinned: false"))).actions;
    expect(unpin.map((a) => [a.action, a.before, a.after, a.sends])).toEqual([
      ["update", { pinned: true }, { pinned: false }, { pinned_at: null }],
    ]);
    expect(await applyThenPlan(text.replace("pinned: true", "pinned: false"))).toEqual([]);
    expect(service.actions[0]?.pinned_at).toBe(null);
  });

  it("reads the list in one request whatever its size", async () => {
    for (let i = 0; i < 300; i++) service.add("actions", { name: `a${i}`, steps: [] });
    await planOf("actions:\n  - name: a1\n    steps: []\n");
    expect(server.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /api/projects/7/actions/?limit=1000",
    ]);
  });
});

describe("action names", () => {
  it("are unique among the declarations, pinned ones too (validate)", async () => {
    const config = await load("actions:\n  - name: A\n    id: 4\n  - name: A\n    id: 5\n");
    expect(config.diagnostics.map((d) => `${d.line}:${d.column}: ${d.message}`)).toEqual([
      '5:5: duplicate action name "A": also declared at posthog.yaml:3:5; the service keeps action names unique among live actions, pinned or not',
    ]);
  });

  it("a pinned soft-deleted action whose name a live one holds is not restored (plan error)", async () => {
    const gone = service.add("actions", { name: "A", steps: [], deleted: true });
    const live = service.add("actions", { name: "A", steps: [] });
    const refused = await makePlan(await load(`actions:\n  - name: A\n    id: ${gone.id}\n`), client, {
      clock,
    }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(refused).toContain(
      `action "A" pins action ${gone.id}, which is soft-deleted, and live action ${live.id} holds its name`,
    );
  });

  it("a pinned soft-deleted action is read by id and restored, then compared", async () => {
    const gone = service.add("actions", { name: "A", description: "old", steps: [], deleted: true });
    const text = `actions:\n  - name: A\n    id: ${gone.id}\n    description: new\n`;
    const plan = await planOf(text);
    expect(plan.actions.map((a) => a.action)).toEqual(["restore", "update"]);
    expect(await applyThenPlan(text)).toEqual([]);
    expect(service.actions[0]).toMatchObject({ deleted: false, description: "new" });
  });
});
