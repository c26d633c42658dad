/**
 * The comparable shape of a flag's filters against the emulator's rewrites: each declared filters value
 * is sent as apply would send it, read back, and must compare equal (no perpetual diff); and a real
 * difference still shows.
 */
import { describe, expect, it } from "vitest";
import { withIds, withNames } from "../../../src/kinds/define/references.js";
import {
  differingFilterKeys,
  ENCRYPTED,
  encodePayloads,
  isObject,
  type Json,
  type NormaliseOptions,
  normaliseDesiredFilters,
  normaliseLiveFilters,
  wholeFilters,
} from "../../../src/kinds/feature-flag/filters.js";
import { FLAG_REFERENCES } from "../../../src/kinds/feature-flag/references.js";

/** The live filters with their flags and cohorts named, as the kit compares them (flags only here). */
const named = (filters: unknown, keys: Map<string, string>) =>
  withNames(
    filters,
    FLAG_REFERENCES,
    (kind, id) => (kind === "feature_flag" ? keys.get(String(id)) : undefined),
    {
      unknown: (id) => `#${id}`,
    },
  ) as Json;

import { P, useEmulator } from "../../support/emulator.js";

const h = useEmulator();
const FLAGS = `${P}/feature_flags`;

async function liveKeys(): Promise<Map<string, string>> {
  const list = await h.api("GET", `${FLAGS}/?limit=500`);
  return new Map(list.body.results.map((f: Json) => [String(f.id), String(f.key)]));
}

/** Writes `desired` (create, or PATCH of `id`) as apply would, reads it back; the keys that still differ. */
async function roundTrip(desired: Json, opts: Partial<NormaliseOptions> & { id?: number; body?: Json } = {}) {
  const ids = new Map([...(await liveKeys())].map(([id, key]) => [key, Number(id)]));
  const filters = withIds(desired, FLAG_REFERENCES, (_kind, key) => ids.get(key) ?? -1) as Json;
  if (isObject(filters.payloads)) filters.payloads = encodePayloads(filters.payloads);
  const body = { ...(opts.body ?? {}), filters };
  const written =
    opts.id === undefined
      ? await h.api("POST", `${FLAGS}/`, { key: `rt-${Math.random().toString(36).slice(2, 8)}`, ...body })
      : await h.api("PATCH", `${FLAGS}/${opts.id}/`, body);
  expect(written.status, JSON.stringify(written.body)).toBeLessThan(300);
  const read = await h.api("GET", `${FLAGS}/${written.body.id}/`);
  const keys = await liveKeys();
  const base = { remoteConfiguration: false, encrypted: false, ...opts };
  const live = normaliseLiveFilters(named(read.body.filters, keys), base);
  const wanted = normaliseDesiredFilters(desired, base);
  return {
    differing: differingFilterKeys(Object.keys(desired), wanted, live),
    read: read.body,
    live,
    wanted,
  };
}

describe("no perpetual diff after the service's rewrites", () => {
  it("groups without aggregation, properties or variant read back with them", async () => {
    const { differing, read } = await roundTrip({ groups: [{ rollout_percentage: 20 }] });
    expect(read.filters.groups[0]).toMatchObject({ properties: [], aggregation_group_type_index: null });
    expect(read.filters.aggregation_group_type_index).toBeNull();
    expect(differing).toEqual([]);
  });

  it("a flag-level aggregation copied into every group", async () => {
    const desired = {
      aggregation_group_type_index: 0,
      groups: [{ rollout_percentage: 5 }, { rollout_percentage: 7 }],
    };
    const { differing, read } = await roundTrip(desired);
    expect(read.filters.groups.map((g: Json) => g.aggregation_group_type_index)).toEqual([0, 0]);
    expect(differing).toEqual([]);
  });

  it("groups sent without the flag-level aggregation take the stored one on update", async () => {
    const created = await h.api("POST", `${FLAGS}/`, {
      key: "by-company",
      filters: { aggregation_group_type_index: 1, groups: [{ rollout_percentage: 5 }] },
    });
    const { differing, read } = await roundTrip(
      { groups: [{ rollout_percentage: 50 }] },
      { id: created.body.id, storedAggregation: 1 },
    );
    expect(read.filters.groups[0].aggregation_group_type_index).toBe(1);
    expect(differing).toEqual([]);
  });

  it("payloads: what the tool sends, and what the service stores with Python's spacing", async () => {
    const desired = {
      groups: [{ rollout_percentage: 100 }],
      multivariate: { variants: [{ key: "a", rollout_percentage: 100 }] },
      payloads: { a: { colour: "blue", sizes: [1, 2.5], note: "ü" } },
    };
    expect((await roundTrip(desired)).differing).toEqual([]);
    // A payload written as a JSON value (as the service's UI does) is stored re-encoded by Python.
    const ui = await h.api("POST", `${FLAGS}/`, { key: "ui-payload", filters: desired });
    expect(ui.body.filters.payloads.a).toBe('{"colour": "blue", "sizes": [1, 2.5], "note": "\\u00fc"}');
    const opts = { remoteConfiguration: false, encrypted: false };
    const live = normaliseLiveFilters(ui.body.filters, opts);
    expect(differingFilterKeys(["payloads"], normaliseDesiredFilters(desired, opts), live)).toEqual([]);
  });

  it("cohort_name added on read, a dependency stored by id, min stored as gte", async () => {
    const desired = {
      groups: [
        {
          properties: [
            { type: "cohort", value: 1 },
            { type: "flag", key: "checkout-v1", operator: "flag_evaluates_to", value: true },
            { key: "age", type: "person", operator: "min", value: 21 },
          ],
          rollout_percentage: 100,
        },
      ],
    };
    const { differing, read } = await roundTrip(desired);
    const props = read.filters.groups[0].properties;
    expect(props[0].cohort_name).toBe("Beta testers");
    expect(props[1].key).toBe("1");
    expect(props[2].operator).toBe("gte");
    expect(differing).toEqual([]);
  });

  it("variant names and group variants of null read like ones left out", async () => {
    const desired = {
      groups: [{ rollout_percentage: 100, variant: null }],
      multivariate: { variants: [{ key: "x", name: null, rollout_percentage: 100 }] },
    };
    expect((await roundTrip(desired)).differing).toEqual([]);
  });

  it("a remote configuration flag's rollout of 0 is 100%", async () => {
    const desired = { groups: [{ rollout_percentage: 0 }], payloads: { true: { plan: "pro" } } };
    const { differing, read } = await roundTrip(desired, {
      remoteConfiguration: true,
      body: { is_remote_configuration: true },
    });
    expect(read.filters.groups[0].rollout_percentage).toBe(100);
    expect(differing).toEqual([]);
  });

  it("legacy holdout_groups, dropped by any save, are not a difference", async () => {
    const live = normaliseLiveFilters(
      { groups: [], holdout_groups: [{ rollout_percentage: 10 }], aggregation_group_type_index: null },
      { remoteConfiguration: false, encrypted: false },
    );
    expect(live).not.toHaveProperty("holdout_groups");
  });
});

describe("what still differs", () => {
  it("a rollout, a variant share, a payload and a condition", async () => {
    const created = await h.api("GET", `${FLAGS}/2/`);
    const keys = await liveKeys();
    const live = normaliseLiveFilters(named(created.body.filters, keys), {
      remoteConfiguration: false,
      encrypted: false,
    });
    const same = {
      groups: [
        {
          properties: [
            { key: "email", type: "person", operator: "icontains", value: "@acme.com" },
            { type: "flag", key: "checkout-v1", operator: "flag_evaluates_to", value: true },
            { type: "cohort", operator: "in", value: 1 },
          ],
          rollout_percentage: 100,
        },
        { rollout_percentage: 20 },
      ],
      multivariate: {
        variants: [
          { key: "control", name: "Control", rollout_percentage: 50 },
          { key: "test", name: "Test", rollout_percentage: 50 },
        ],
      },
      payloads: { test: { color: "blue" } },
    };
    const opts = { remoteConfiguration: false, encrypted: false };
    expect(differingFilterKeys(Object.keys(same), normaliseDesiredFilters(same, opts), live)).toEqual([]);
    const changed = structuredClone(same);
    changed.groups[1] = { rollout_percentage: 60 };
    changed.multivariate.variants[0] = { key: "control", name: "Control", rollout_percentage: 70 };
    changed.multivariate.variants[1] = { key: "test", name: "Test", rollout_percentage: 30 };
    changed.payloads.test = { color: "red" };
    expect(differingFilterKeys(Object.keys(changed), normaliseDesiredFilters(changed, opts), live)).toEqual([
      "groups",
      "multivariate",
      "payloads",
    ]);
  });

  it("encrypted payload values never reach the comparable shape", () => {
    const opts = { remoteConfiguration: true, encrypted: true };
    const live = normaliseLiveFilters({ groups: [], payloads: { true: '{"code": "LIVE-SECRET"}' } }, opts);
    expect(live.payloads).toEqual({ true: ENCRYPTED });
    expect(JSON.stringify(live)).not.toContain("LIVE-SECRET");
    const desired = normaliseDesiredFilters({ payloads: { true: "${PRICING}" } }, opts);
    expect(differingFilterKeys(["payloads"], desired, live)).toEqual([]);
    const more = normaliseDesiredFilters({ payloads: { true: "${A}", extra: "${B}" } }, opts);
    expect(differingFilterKeys(["payloads"], more, live)).toEqual(["payloads"]);
  });

  it("sends dependencies by id, cohorts with key id and payloads as JSON texts (a secret's reference kept)", () => {
    const filters = withIds(
      {
        groups: [
          {
            properties: [
              { type: "flag", key: "a" },
              { type: "cohort", cohort: "Beta" },
            ],
          },
        ],
      },
      FLAG_REFERENCES,
      (kind, name) => (kind === "feature_flag" && name === "a" ? 42 : name === "Beta" ? 7 : -1),
    );
    expect(filters).toEqual({
      groups: [
        {
          properties: [
            { type: "flag", key: "42" },
            { type: "cohort", value: 7, key: "id" },
          ],
        },
      ],
    });
    const ref = { $secret: "${S}", variables: ["S"] };
    expect(encodePayloads({ true: { x: 1 }, text: "a", secret: ref }, (v) => v === ref)).toEqual({
      true: '{"x":1}',
      text: '"a"',
      secret: ref,
    });
  });
});

describe("the filters an update sends", () => {
  const stored: Json = {
    groups: [{ properties: [{ key: "3", type: "flag", value: true }], rollout_percentage: 20 }],
    multivariate: { variants: [{ key: "a", rollout_percentage: 100 }] },
    payloads: { a: '{"x":1}' },
    aggregation_group_type_index: null,
    holdout_groups: [{ rollout_percentage: 5 }],
  };

  it("are the stored ones with the changed keys laid over, legacy keys left out, inputs untouched", () => {
    const copy = structuredClone(stored);
    const sent = wholeFilters(stored, { groups: [{ properties: [], rollout_percentage: 60 }] });
    expect(sent).toEqual({
      groups: [{ properties: [], rollout_percentage: 60 }],
      multivariate: stored.multivariate,
      payloads: stored.payloads,
      aggregation_group_type_index: null,
    });
    expect(stored).toEqual(copy);
    ((sent.multivariate as Json).variants as Json[]).push({ key: "b" });
    expect(stored).toEqual(copy);
  });

  it("always carry groups, and only the payloads the stored copy or the change holds", () => {
    // An encrypted flag's stored copy has no payloads (plan.ts): none are sent unless the change has one.
    const encrypted = { groups: [{ rollout_percentage: 100 }] };
    expect(wholeFilters(encrypted, { groups: [{ rollout_percentage: 40 }] })).toEqual({
      groups: [{ rollout_percentage: 40 }],
    });
    expect(wholeFilters(encrypted, { payloads: { true: "${P}" } })).toEqual({
      groups: [{ rollout_percentage: 100 }],
      payloads: { true: "${P}" },
    });
    expect(wholeFilters({ payloads: { true: "1" } }, { payloads: { true: "2" } })).toEqual({
      payloads: { true: "2" },
      groups: [],
    });
  });
});
