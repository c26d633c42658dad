/**
 * The emulator's cohort routes (reference §12) beyond what PostHog's own tests (test/posthog/cohorts/)
 * cover: what a declarative tool relies on — the stored form of every rewrite and that writing it back
 * changes nothing, the calculation fields and the control switches that recalculate and upgrade the
 * bytecode, the default seed's cohorts, the routes' scopes and their missing environments twin, and
 * insights and flags that name cohorts.
 */
import { describe, expect, it } from "vitest";
import { COHORT_IDS, FLAG_IDS } from "../src/default-seed.js";
import { type Json, P, type PartialState, useEmulator } from "./support/harness.js";

const h = useEmulator();
const COHORTS = `${P}/cohorts`;

const create = (body: Json) => h.api("POST", `${COHORTS}/`, body);
const leaves = (filters: Json): Json[] => {
  const out: Json[] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node.values)) node.values.forEach(walk);
    else out.push(node);
  };
  walk(filters.properties);
  return out;
};
/** What a tool compares: the filters without the server's compiled keys. */
const withoutCompiled = (filters: Json): Json =>
  JSON.parse(
    JSON.stringify(filters, (k, v) =>
      ["bytecode", "conditionHash", "bytecode_error"].includes(k) ? undefined : v,
    ),
  );

describe("cohorts: the stored form of filters", () => {
  it("drops nulls, adds negation false, coerces numbers, unwraps one-value lists and compiles each leaf", async () => {
    const res = await create({
      name: "Rewritten",
      filters: {
        properties: {
          type: "AND",
          values: [
            { type: "person", key: "email", operator: "icontains", value: ["@acme.com"] },
            { type: "person", key: "plan", operator: "exact", value: ["pro"] },
            { type: "cohort", key: "id", value: String(COHORT_IDS.betaTesters) },
            {
              type: "behavioral",
              key: "purchase",
              value: "performed_event",
              event_type: "events",
              time_value: "30",
              time_interval: "day",
              seq_event: null,
            },
          ],
        },
      },
    });
    expect(res.status, res.text).toBe(201);
    const [email, plan, cohort, behavioural] = leaves(res.body.filters);
    expect(email).toMatchObject({
      type: "person",
      key: "email",
      operator: "icontains",
      value: "@acme.com",
      negation: false,
    });
    expect(plan?.value).toEqual(["pro"]);
    expect(cohort).toMatchObject({
      type: "cohort",
      key: "id",
      value: COHORT_IDS.betaTesters,
      negation: false,
    });
    expect(behavioural).toMatchObject({ time_value: 30, negation: false });
    expect(behavioural).not.toHaveProperty("seq_event");
    for (const leaf of [email, plan, cohort, behavioural]) {
      expect(Array.isArray(leaf?.bytecode)).toBe(true);
      expect((leaf?.bytecode as unknown[] | undefined)?.slice(0, 2)).toEqual(["_H", 1]);
      expect(leaf?.conditionHash).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(res.body.cohort_type).toBe("realtime");
    // `negation` is a boolean with a default, not an optional: null is refused rather than dropped.
    const nullNegation = await create({
      name: "x",
      filters: {
        properties: {
          type: "OR",
          values: [{ type: "person", key: "k", operator: "is_set", negation: null }],
        },
      },
    });
    expect(nullNegation.status).toBe(400);
    expect(nullNegation.body.detail).toContain("'type': 'bool_type'");
  });

  it("stores the same thing when what it answered is written back (no perpetual change)", async () => {
    const created = await create({
      name: "Round trip",
      filters: {
        properties: {
          type: "OR",
          values: [
            { type: "AND", values: [{ type: "person", key: "beta", operator: "exact", value: "true" }] },
          ],
        },
      },
    });
    const before = (await h.state()).cohorts.find((c: Json) => c.id === created.body.id).filters;
    const again = await h.api("PATCH", `${COHORTS}/${created.body.id}/`, { filters: created.body.filters });
    expect(again.status).toBe(200);
    expect(again.body.filters).toEqual(created.body.filters);
    expect((await h.state()).cohorts.find((c: Json) => c.id === created.body.id).filters).toEqual(before);
  });

  it("leaves a leaf it cannot compile for realtime with bytecode_error, and the cohort not realtime", async () => {
    const res = await create({
      name: "First timers",
      filters: {
        properties: {
          type: "OR",
          values: [
            {
              type: "behavioral",
              key: "$pageview",
              value: "performed_event_first_time",
              event_type: "events",
            },
          ],
        },
      },
    });
    expect(res.status).toBe(201);
    const [leaf] = leaves(res.body.filters);
    expect(leaf).not.toHaveProperty("bytecode");
    expect(leaf?.bytecode_error).toBe("Unsupported behavioral filter for realtime bytecode");
    expect(res.body.cohort_type).toBeNull();
  });

  it("compiles a behavioural leaf on an action from the action's steps, and refuses nothing for a missing one", async () => {
    const onAction = (key: number) =>
      create({
        name: `on ${key}`,
        filters: {
          properties: {
            type: "OR",
            values: [{ type: "behavioral", key, value: "performed_event", event_type: "actions" }],
          },
        },
      });
    const known = await onAction(1);
    expect(leaves(known.body.filters)[0]?.conditionHash).toMatch(/^[0-9a-f]{16}$/);
    const missing = await onAction(999);
    expect(missing.status).toBe(201);
    expect(leaves(missing.body.filters)[0]?.bytecode_error).toBe("Action matching query does not exist.");
  });

  it("answers pydantic's error list for an unknown leaf type", async () => {
    const res = await create({
      name: "x",
      filters: { properties: { type: "OR", values: [{ type: "group", key: "k" }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.attr).toBe("filters");
    expect(res.body.detail).toContain("'type': 'union_tag_invalid'");
    expect(res.body.detail).toContain("'loc': ('properties', 'values', 0)");
  });
});

describe("cohorts: calculations", () => {
  it("queues a calculation on every write of a dynamic cohort and finishes it on the next read", async () => {
    const created = await create({ name: "Calc", groups: [{ properties: { plan: "pro" } }] });
    expect(created.body).toMatchObject({
      is_calculating: true,
      pending_version: 1,
      version: null,
      last_calculation: null,
    });
    const read = await h.api("GET", `${COHORTS}/${created.body.id}/`);
    expect(read.body).toMatchObject({ is_calculating: false, version: 1, pending_version: 1 });
    expect(read.body.last_calculation).not.toBeNull();
    const renamed = await h.api("PATCH", `${COHORTS}/${created.body.id}/`, { name: "Calc 2" });
    expect(renamed.body).toMatchObject({ is_calculating: true, pending_version: 2, version: 1 });
    const history = await h.api("GET", `${COHORTS}/${created.body.id}/calculation_history/`);
    expect(history.body.count).toBe(2);
    expect(history.body.results[0]).toMatchObject({ is_completed: true, is_successful: true, error: null });
  });

  it("never finishes by itself with cohort_calculation_ms null, until the control endpoint runs the worker", async () => {
    await h.reseed<Json>((s) => {
      s.service.cohort_calculation_ms = null;
    });
    const created = await create({ name: "Waits", groups: [{ properties: { plan: "pro" } }] });
    expect((await h.api("GET", `${COHORTS}/${created.body.id}/`)).body.is_calculating).toBe(true);
    const run = await h.control("POST", "cohorts/recalculate", { ids: [created.body.id] });
    expect(run.body).toEqual({ recalculated: [created.body.id] });
    expect((await h.api("GET", `${COHORTS}/${created.body.id}/`)).body).toMatchObject({
      is_calculating: false,
      version: 1,
    });
    const all = await h.control("POST", "cohorts/recalculate", { all: true, project: 12345 });
    expect(all.body.recalculated).toContain(COHORT_IDS.betaTesters);
    expect((await h.api("GET", `${COHORTS}/${COHORT_IDS.betaTesters}/`)).body.version).toBe(2);
  });

  it("upgrades every cohort's bytecode: new compiled keys, the same filters otherwise, a recalculation", async () => {
    const before = (await h.api("GET", `${COHORTS}/${COHORT_IDS.betaTesters}/`)).body;
    const upgrade = await h.control("POST", "cohorts/upgrade_bytecode", {});
    expect(upgrade.status).toBe(200);
    expect(upgrade.body.version).toBe(2);
    expect(upgrade.body.upgraded).toContain(COHORT_IDS.betaTesters);
    const after = (await h.api("GET", `${COHORTS}/${COHORT_IDS.betaTesters}/`)).body;
    expect(leaves(after.filters)[0]?.conditionHash).not.toBe(leaves(before.filters)[0]?.conditionHash);
    expect((leaves(after.filters)[0]?.bytecode as unknown[] | undefined)?.slice(0, 2)).toEqual(["_H", 2]);
    expect(withoutCompiled(after.filters)).toEqual(withoutCompiled(before.filters));
    expect(after.version).toBe(before.version + 1);
    expect((await h.state()).service.cohort_bytecode_version).toBe(2);
    const refused = await h.control("POST", "cohorts/upgrade_bytecode", { version: 1 });
    expect(refused.status).toBe(400);
  });
});

describe("cohorts: the default seed, routes and scopes", () => {
  it("serves the default seed's cohorts as the service stores them", async () => {
    const list = await h.api("GET", `${COHORTS}/`);
    expect(list.body.count).toBe(6);
    const byName = Object.fromEntries(list.body.results.map((c: Json) => [c.name, c]));
    expect(byName["Beta testers"]).toMatchObject({
      cohort_type: "realtime",
      is_static: false,
      version: 1,
      count: 120,
    });
    expect(byName["Recent purchasers"].cohort_type).toBe("realtime");
    expect(byName["Conference attendees"]).toMatchObject({ is_static: true, count: 3 });
    expect(leaves(byName["Beta testers or staff"].filters).map((l) => l.value)).toEqual([
      COHORT_IDS.betaTesters,
      COHORT_IDS.internalStaff,
    ]);
    const hidden = await h.api("GET", `${COHORTS}/?hide_behavioral_cohorts=true`);
    expect(hidden.body.results.map((c: Json) => c.name)).not.toContain("Recent purchasers");
    expect(hidden.body.results.map((c: Json) => c.name)).not.toContain("Signed up recently");
  });

  it("refuses to soft-delete a cohort a flag uses, and names it", async () => {
    const refused = await h.api("PATCH", `${COHORTS}/${COHORT_IDS.betaTesters}/`, { deleted: true });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(
      "This cohort is used in 1 active feature flag(s): New checkout flow. Please remove the cohort from these feature flags before deleting it.",
    );
    const used = await h.api("GET", `${COHORTS}/${COHORT_IDS.betaTesters}/used_in/`);
    expect(used.body.feature_flags.results.map((f: Json) => f.id)).toEqual([FLAG_IDS.newCheckout]);
    expect(used.body.cohorts.results.map((c: Json) => c.id)).toEqual([COHORT_IDS.betaOrStaff]);
  });

  it("exists under /api/projects/ only, with the cohort scopes", async () => {
    expect((await h.api("GET", "/api/environments/12345/cohorts/")).status).toBe(404);
    await h.reseed<PartialState>((s) => {
      s.api_keys?.push({ key: "phx_cohort_read", user: 1, scopes: ["cohort:read"] });
    });
    const read = await h.api("GET", `${COHORTS}/`, undefined, { key: "phx_cohort_read" });
    expect(read.status).toBe(200);
    const write = await h.api(
      "POST",
      `${COHORTS}/`,
      { name: "x", is_static: true },
      { key: "phx_cohort_read" },
    );
    expect(write.status).toBe(403);
    expect(write.body.detail).toBe("API key missing required scope 'cohort:write'");
    expect((await h.api("DELETE", `${COHORTS}/${COHORT_IDS.internalStaff}/`)).status).toBe(405);
  });

  it("sees insights that name a cohort in a property or a breakdown, as stored by the insight API", async () => {
    const insight = await h.api("POST", `${P}/insights/`, {
      name: "Signups by cohort",
      query: {
        kind: "InsightVizNode",
        source: {
          kind: "TrendsQuery",
          series: [{ kind: "ActionsNode", id: 1 }],
          breakdownFilter: { breakdown_type: "cohort", breakdown: [COHORT_IDS.internalStaff] },
        },
      },
    });
    expect(insight.status, insight.text).toBe(201);
    const refused = await h.api("PATCH", `${COHORTS}/${COHORT_IDS.internalStaff}/`, { deleted: true });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain("insight(s): Signups by cohort");
    const references = await h.api("GET", `${P}/actions/1/references/`);
    expect(references.body.map((r: Json) => [r.type, r.name])).toEqual([
      ["insight", "Signups by cohort"],
      ["cohort", "Signed up recently"],
    ]);
  });
});

describe("cohorts in flags", () => {
  const flagOn = (cohort: number) =>
    h.api("POST", `${P}/feature_flags/`, {
      key: `on-${cohort}`,
      filters: { groups: [{ properties: [{ key: "id", type: "cohort", value: cohort }] }] },
    });

  it("refuses a cohort that depends on a behavioural one, naming the behavioural one", async () => {
    const parent = await create({
      name: "Buyers or staff",
      filters: {
        properties: {
          type: "OR",
          values: [
            { type: "cohort", key: "id", value: COHORT_IDS.recentPurchasers },
            { type: "cohort", key: "id", value: COHORT_IDS.internalStaff },
          ],
        },
      },
    });
    const res = await flagOn(parent.body.id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "behavioral_cohort_found",
      detail:
        "Cohort 'Recent purchasers' has an event-based condition on 'purchase' (performed_event) and cannot be used in feature flags.",
    });
    expect((await flagOn(COHORT_IDS.betaOrStaff)).status).toBe(201);
    expect((await flagOn(COHORT_IDS.conferenceAttendees)).status).toBe(201);
  });

  it("with realtime-cohort-flag-targeting, takes a backfilled realtime cohort and says why it waits for one that is not", async () => {
    await h.reseed<Json>((s) => {
      s.service.feature_flags["realtime-cohort-flag-targeting"] = true;
    });
    const waiting = await flagOn(COHORT_IDS.recentPurchasers);
    expect(waiting.body.detail).toBe(
      "Cohort 'Recent purchasers' is still being backfilled and cannot be used in feature flags yet. It will become available once its initial backfill completes.",
    );
    await h.reseed<Json>((s) => {
      const cohort = s.cohorts.find((c: Json) => c.id === COHORT_IDS.recentPurchasers);
      cohort.last_backfill_events_at = "2026-11-01T00:00:00Z";
    });
    expect((await flagOn(COHORT_IDS.recentPurchasers)).status).toBe(201);
  });

  it("refuses adding a behavioural criterion to a cohort a flag uses", async () => {
    const res = await h.api("PATCH", `${COHORTS}/${COHORT_IDS.internalStaff}/`, {
      filters: {
        properties: {
          type: "OR",
          values: [{ type: "behavioral", key: "x", value: "performed_event", event_type: "events" }],
        },
      },
    });
    // Internal staff is used by "Beta testers or staff", which no flag uses: allowed.
    expect(res.status).toBe(200);
    const used = await h.api("PATCH", `${COHORTS}/${COHORT_IDS.betaTesters}/`, {
      filters: {
        properties: {
          type: "OR",
          values: [{ type: "behavioral", key: "x", value: "performed_event", event_type: "events" }],
        },
      },
    });
    expect(used.status).toBe(400);
    expect(used.body.detail).toBe("Behavioral filters cannot be added to cohorts used in feature flags.");
  });
});
