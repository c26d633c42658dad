/**
 * References by name to cohorts and actions (issue 33, SPEC §2 "Cohorts and actions"), against the
 * fake service of ./fake-service.ts: in a cohort's filters (another cohort, an action in a behavioral
 * condition, a sequence's second action) and in an insight's query (an `ActionsNode` series, a
 * cohort property, a cohort breakdown's list of ids). Resolved per project among the declarations
 * then live, created first in one apply with their new ids in the bodies, compared by name (the plan
 * after is empty), pulled by name; ambiguity and cycles are errors; a change-scoped plan reads what
 * the change names by search, never a list.
 */
import { clockFrom } from "posthog-gitops-shared/clock";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Declared } from "../../../src/config/types.js";
import { applyPlan, createClient, loadConfig, makePlan, type ServiceClient } from "../../../src/index.js";
import { KINDS } from "../../../src/kinds/index.js";
import { pullFiles } from "../../../src/pull/pull.js";
import { readAndPlanChange } from "../../../src/read/make-plan.js";
import { type FakeServer, startFakeServer } from "../../service/fake-server.js";
import { CohortService } from "./fake-service.js";

let server: FakeServer;
let client: ServiceClient;
let service: CohortService;
const clock = clockFrom("2026-05-01T10:00:00Z");

beforeAll(async () => {
  server = await startFakeServer((req, res) => service.handle(req, res));
  client = createClient({ host: server.url, apiKey: "phx_references" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
beforeEach(() => {
  service = new CohortService();
  server.seen.length = 0;
});

const load = (text: string, path = "posthog.yaml") =>
  loadConfig({ files: [{ path, text: `project: 7\n${text}` }] }, { kinds: KINDS, env: {} });

async function planOf(text: string) {
  const config = await load(text);
  expect(config.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return makePlan(config, client, { clock });
}

const ALL = `actions:
  - name: Signed up
    steps: [{event: user signed up}]
  - name: Paid
    steps: [{event: invoice paid}]
cohorts:
  - name: Power users
    filters:
      properties:
        type: AND
        values:
          - {type: behavioral, value: performed_event, event_type: actions, action: Signed up, time_value: 30, time_interval: day}
          - {type: behavioral, value: performed_event_sequence, event_type: actions, action: Signed up, seq_event_type: actions, seq_action: Paid, time_value: 30, time_interval: day, seq_time_value: 7, seq_time_interval: day}
  - name: Beta testers
    filters:
      properties:
        type: OR
        values:
          - {type: person, key: email, operator: icontains, value: "@acme.com"}
          - {type: cohort, cohort: Power users}
insights:
  - name: Signups of beta testers
    query:
      kind: InsightVizNode
      source:
        kind: TrendsQuery
        series: [{kind: ActionsNode, action: Signed up, math: total}]
        properties: [{type: cohort, cohort: Beta testers, operator: in}]
        breakdownFilter: {breakdown_type: cohort, cohort: [Beta testers, Power users]}
  - name: Retention of payers
    query:
      kind: InsightVizNode
      source:
        kind: RetentionQuery
        retentionFilter:
          targetEntity: {type: actions, action: Paid}
          returningEntity: {id: $pageview, type: events}
`;

describe("cohorts and actions named by name", () => {
  it("creates what is named first in one apply, hands the new ids on, and the next plan is empty", async () => {
    const plan = await planOf(ALL);
    const order = plan.actions.map((a) => `${a.action} ${a.object.kind} ${a.object.name}`);
    expect(order.sort()).toEqual([
      "create action Paid",
      "create action Signed up",
      "create cohort Beta testers",
      "create cohort Power users",
      "create insight Retention of payers",
      "create insight Signups of beta testers",
    ]);
    const requires = Object.fromEntries(plan.actions.map((a) => [a.object.name, a.requires ?? []]));
    expect(requires["Beta testers"]).toEqual([{ kind: "cohort", name: "Power users" }]);
    expect(requires["Power users"]).toEqual([
      { kind: "action", name: "Signed up" },
      { kind: "action", name: "Paid" },
    ]);
    expect(requires["Signups of beta testers"]).toEqual([
      { kind: "action", name: "Signed up" },
      { kind: "cohort", name: "Beta testers" },
      { kind: "cohort", name: "Power users" },
    ]);
    const applied = await applyPlan(plan, client, { kinds: KINDS });
    expect(applied.ok).toBe(true);
    const posted = server.seen
      .filter((r) => r.method === "POST")
      .map((r) => (r.body as { name: string }).name);
    const at = (name: string) => posted.indexOf(name);
    expect(at("Signed up")).toBeLessThan(at("Power users"));
    expect(at("Paid")).toBeLessThan(at("Power users"));
    expect(at("Power users")).toBeLessThan(at("Beta testers"));
    expect(at("Beta testers")).toBeLessThan(at("Signups of beta testers"));
    const id = (rows: Array<{ id: number; name?: unknown }>, name: string) =>
      rows.find((r) => r.name === name)?.id;
    const [signed, paid] = [id(service.actions, "Signed up"), id(service.actions, "Paid")];
    const [power, beta] = [id(service.cohorts, "Power users"), id(service.cohorts, "Beta testers")];
    const filters = (name: string) => JSON.stringify(service.cohorts.find((c) => c.name === name)?.filters);
    expect(filters("Power users")).toContain(`"event_type":"actions","key":${signed}`);
    expect(filters("Power users")).toContain(`"seq_event":${paid}`);
    expect(filters("Beta testers")).toContain(
      `{"type":"cohort","value":${power},"key":"id","negation":false}`,
    );
    const source =
      (
        service.insights.find((i) => i.name === "Signups of beta testers")?.query as
          | { source: Record<string, unknown> }
          | undefined
      )?.source ?? {};
    expect(source.series).toEqual([expect.objectContaining({ kind: "ActionsNode", id: signed })]);
    expect(source.properties).toEqual([{ type: "cohort", value: beta, operator: "in", key: "id" }]);
    expect(source.breakdownFilter).toEqual({ breakdown_type: "cohort", breakdown: [beta, power] });
    const retention = service.insights.find((i) => i.name === "Retention of payers")?.query as {
      source: { retentionFilter: { targetEntity: unknown } };
    };
    expect(retention.source.retentionFilter.targetEntity).toEqual({ type: "actions", id: paid });
    server.seen.length = 0;
    expect((await planOf(ALL)).actions).toEqual([]);
    expect(server.seen.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("takes raw ids in a single-project file, compared equal to the names of the same objects", async () => {
    const signed = service.add("actions", { name: "Signed up", steps: [] });
    const text = `cohorts:\n  - name: C\n    filters: {properties: {type: AND, values: [{type: behavioral, value: performed_event, event_type: actions, key: ${signed.id}}]}}\n`;
    await applyPlan(await planOf(text), client, { kinds: KINDS });
    expect((await planOf(text)).actions).toEqual([]);
    expect((await planOf(text.replace(`key: ${signed.id}`, "action: Signed up"))).actions).toEqual([]);
  });

  it("refuses a name two live cohorts hold (naming both ids), and a name found nowhere", async () => {
    const [a, b] = [
      service.add("cohorts", { name: "Twice", filters: null }),
      service.add("cohorts", { name: "Twice", filters: null }),
    ];
    const text =
      "cohorts:\n  - name: C\n    filters: {properties: {type: AND, values: [{type: cohort, cohort: Twice}, {type: behavioral, value: performed_event, event_type: actions, action: Nowhere}]}}\n";
    const refused = await makePlan(await load(text), client, { clock }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(refused).toContain(`cohort name "Twice" is held by cohorts ${a.id}, ${b.id} of project 7`);
    expect(refused).toContain(
      'cohort "C" names action "Nowhere", which is neither declared nor a live action of project 7',
    );
  });

  it("refuses cohorts that contain each other at validate", async () => {
    const config = await load(
      "cohorts:\n  - name: A\n    filters: {properties: {type: AND, values: [{type: cohort, cohort: B}]}}\n  - name: B\n    filters: {properties: {type: OR, values: [{type: AND, values: [{type: cohort, cohort: A}]}]}}\n",
    );
    expect(config.diagnostics.map((d) => d.message)).toEqual([
      "cohorts contain each other in a cycle (A → B → A): the service refuses it; remove one of the cohort conditions",
    ]);
  });

  it("pulls references by name; the plan of the pulled files is empty; an insight alone still names them", async () => {
    await applyPlan(await planOf(ALL), client, { kinds: KINDS });
    const pulled = KINDS.filter((k) => ["cohort", "action", "insight"].includes(k.name));
    const files = await pullFiles(pulled, client, 7, () => "schema.json", KINDS);
    const text = (kind: string) => files.find((f) => f.kind === kind)?.text ?? "";
    expect(text("cohort")).toContain("action: Signed up");
    expect(text("cohort")).toContain("seq_action: Paid");
    expect(text("cohort")).toContain("cohort: Power users");
    expect(text("cohort")).not.toMatch(/bytecode|conditionHash|negation/);
    expect(text("insight")).toContain("action: Signed up");
    expect(text("insight")).toMatch(/cohort:\n\s+- Beta testers\n\s+- Power users/);
    const config = await loadConfig(
      { files: files.map((f) => ({ path: f.name, text: f.text })) },
      { kinds: KINDS, env: {} },
    );
    expect(config.diagnostics).toEqual([]);
    expect((await makePlan(config, client, { clock })).actions).toEqual([]);
    const insight = KINDS.filter((k) => k.name === "insight");
    const [alone] = await pullFiles(insight, client, 7, () => "schema.json", KINDS);
    expect(alone?.text).toContain("action: Signed up");
  });

  it("a change-scoped plan reads the changed cohort and what it names by search, never a list", async () => {
    // Enough cohorts that their list costs more pages than the change's two searches.
    for (let i = 0; i < 250; i++) service.add("cohorts", { name: `filler ${i}`, filters: null });
    await applyPlan(await planOf(ALL), client, { kinds: KINDS });
    server.seen.length = 0;
    const config = await load(ALL.replace('value: "@acme.com"', 'value: "@acme.org"'));
    const all = Object.values(config.projects[0]?.objects ?? {}).flat() as Declared[];
    const change = { changed: new Set(all.filter((d) => d.name === "Beta testers")), removed: [] };
    const options = { prune: false, force: false, rotateSecrets: false, now: new Date(0) };
    const made = await readAndPlanChange(KINDS, client, config.projects, options, change);
    expect(made.plan.actions.map((a) => `${a.action} ${a.object.name}`)).toEqual(["update Beta testers"]);
    expect(server.seen.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      "GET /api/projects/7/cohorts/?limit=1",
      "GET /api/projects/7/cohorts/?search=Beta+testers&limit=100",
      "GET /api/projects/7/cohorts/?search=Power+users&limit=100",
    ]);
  });

  it("a soft delete runs after what names it, and warns of what still will", async () => {
    await applyPlan(await planOf(ALL), client, { kinds: KINDS });
    const signed = service.actions.find((a) => a.name === "Signed up");
    const power = service.cohorts.find((c) => c.name === "Power users");
    // The action goes, the cohort that uses it stays: a warning, and the service deletes it anyway.
    const alone = await planOf(
      ALL.replace(
        "  - name: Signed up\n    steps: [{event: user signed up}]",
        "  - name: Signed up\n    deleted: true",
      ),
    );
    const gone = alone.actions.find((a) => a.object.name === "Signed up");
    expect(gone?.warnings).toEqual([
      'still used by cohort "Power users", insight "Signups of beta testers": the service deletes it all the same, and they keep its id, matching nothing',
    ]);
    // Both go: the cohort first (apply orders by required_by), no warning.
    const text = ALL.replace(/insights:[\s\S]*$/, "")
      .replace(
        / {2}- name: Power users\n[\s\S]*?(?= {2}- name: Beta testers)/,
        "  - name: Power users\n    deleted: true\n",
      )
      .replace(/ {2}- name: Beta testers\n[\s\S]*$/, "  - name: Beta testers\n    deleted: true\n")
      .replace(
        "  - name: Signed up\n    steps: [{event: user signed up}]",
        "  - name: Signed up\n    deleted: true",
      );
    const both = await planOf(text);
    const action = both.actions.find((a) => a.object.name === "Signed up");
    expect(action?.warnings).toEqual([]);
    expect(action?.required_by).toEqual([{ kind: "cohort", name: "Power users", id: power?.id }]);
    const cohort = both.actions.find((a) => a.object.name === "Power users");
    expect(cohort?.required_by).toEqual([{ kind: "cohort", name: "Beta testers", id: expect.any(Number) }]);
    server.seen.length = 0;
    expect((await applyPlan(both, client, { kinds: KINDS })).ok).toBe(true);
    const deletes = server.seen.filter((r) => r.method === "PATCH").map((r) => r.path);
    expect(deletes.indexOf(`/api/projects/7/cohorts/${power?.id}/`)).toBeLessThan(
      deletes.indexOf(`/api/projects/7/actions/${signed?.id}/`),
    );
  });

  it("a create past the service's 500 live actions is a warning", async () => {
    for (let i = 0; i < 500; i++) service.add("actions", { name: `a${i}`, steps: [] });
    const plan = await planOf("actions:\n  - name: one more\n    steps: [{event: x}]\n");
    expect(plan.actions[0]?.warnings).toEqual([
      'the project would hold 501 live actions: the service refuses a create past 500 ("Resource limit exceeded.", 402)',
    ]);
  });

  it("refuses their raw ids in a file shared by several projects, at any depth", () => {
    const rules = (key: string) => KINDS.find((k) => k.key === key)?.environments?.projectIds;
    expect(rules("cohorts")).toEqual([
      { path: "/id" },
      { path: "/filters/**/value", where: { type: "cohort" } },
      { path: "/filters/**/key", where: { type: "behavioral", event_type: "actions" } },
      { path: "/filters/**/seq_event", where: { type: "behavioral", seq_event_type: "actions" } },
    ]);
    expect(rules("insights")).toEqual([
      { path: "/id" },
      { path: "/query/**/id", where: { kind: "ActionsNode" } },
      { path: "/query/**/id", where: { type: "actions" } },
      { path: "/query/**/value", where: { type: "cohort" } },
      { path: "/query/**/breakdown", where: { breakdown_type: "cohort" } },
    ]);
  });
});
