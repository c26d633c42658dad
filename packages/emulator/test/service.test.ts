/**
 * The service switch: the seed's `service` key (or `startEmulator({ service })`) picks the newest rules
 * (default) or the 2025 ones, keeps or drops the routes the newest service removed, and sets the
 * service's per-team feature flags.
 */
import { describe, expect, it } from "vitest";
import { ACME_ID } from "../src/default-seed.js";
import { startEmulator } from "../src/index.js";
import { normaliseSeed, SeedError } from "../src/seed.js";
import { TEST_NOW, testClock } from "./support/clock.js";
import { P, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();
const now = new Date(TEST_NOW);

describe("the service key of a seed", () => {
  it("defaults to the newest rules with the legacy routes kept and every flag off", () => {
    expect(normaliseSeed({}, now).service).toEqual({
      rules: "newest",
      legacy_routes: true,
      feature_flags: {
        "high-frequency-batch-exports": false,
        "hogql-batch-exports": false,
        "batch-export-earliest-backfill": false,
        "backfill-workflows-destination": false,
        "flag-evaluation-tags": false,
        "feature-flag-early-exit": false,
        "legacy-insight-filters-disabled": false,
        "realtime-cohort-flag-targeting": false,
      },
      max_concurrent_backfills: 10,
      insight_dashboards_opt_in_enforced: false,
      flag_filters_patch: "merge",
      max_actions_per_team: 500,
      cohort_calculation_ms: 0,
      cohort_bytecode_version: 1,
      max_feature_flags_per_team: 2000,
      max_feature_flag_filter_size_bytes: 524_288,
    });
    const older = normaliseSeed(
      { service: { rules: "2025", feature_flags: { "hogql-batch-exports": true } } },
      now,
    ).service;
    expect(older.rules).toBe("2025");
    expect(older.feature_flags["hogql-batch-exports"]).toBe(true);
    expect(older.feature_flags["high-frequency-batch-exports"]).toBe(false);
    // The older service replaced a flag's filters on PATCH; the setting says so on its own too.
    expect(older.flag_filters_patch).toBe("replace");
    const patch = (service: unknown) => normaliseSeed({ service }, now).service.flag_filters_patch;
    expect(patch({ rules: "2025", flag_filters_patch: "merge" })).toBe("merge");
    expect(patch({ flag_filters_patch: "replace" })).toBe("replace");
  });

  it("names the first bad entry", () => {
    const bad = (service: unknown) => () => normaliseSeed({ service }, now);
    expect(bad({ rules: "2024" })).toThrow(
      new SeedError('seed: "service.rules" must be one of newest, 2025'),
    );
    expect(bad({ feature_flags: { "hogql-exports": true } })).toThrow(/unknown feature flag "hogql-exports"/);
    expect(bad({ legacy_routes: "no" })).toThrow('seed: "service.legacy_routes" must be true or false');
    expect(bad({ flag_filters_patch: "deep" })).toThrow(
      'seed: "service.flag_filters_patch" must be one of merge, replace',
    );
    expect(bad({ speed: 1 })).toThrow(/unknown "service" key "speed"/);
    expect(bad([])).toThrow('seed: "service" must be an object');
  });

  it("loads old seeds that name only advanced_permissions: it stands in for access_control", () => {
    const org = (features: unknown) =>
      normaliseSeed({ organizations: [{ id: "o", features }] }, now).organizations[0]?.features;
    expect(org({ advanced_permissions: false })).toEqual({
      tagging: true,
      access_control: false,
      advanced_permissions: false,
    });
    expect(org({ access_control: false, advanced_permissions: true })).toEqual({
      tagging: true,
      access_control: false,
      advanced_permissions: true,
    });
    expect(org(undefined)).toEqual({ tagging: true, access_control: true, advanced_permissions: true });
  });
});

describe("a seed based on the default one", () => {
  it("keeps the default seed for the seed's service and replaces only the lists given", () => {
    const older = normaliseSeed({ base: "default", service: { rules: "2025" } }, now);
    expect(older.service.rules).toBe("2025");
    expect(older.batch_exports.map((b) => b.destination.type)).toEqual(["S3", "Postgres"]);
    expect(older.integrations).toHaveLength(11);
    const noDashboards = normaliseSeed({ base: "default", dashboards: [] }, now);
    expect(noDashboards.dashboards).toEqual([]);
    expect(noDashboards.batch_exports.map((b) => b.destination.type)).toEqual(["AwsS3", "Postgres"]);
    expect(() => normaliseSeed({ base: "empty" }, now)).toThrow('seed: "base" must be "default"');
  });
});

describe("the service option of startEmulator", () => {
  it("applies to the default seed and to posted seeds without their own service keys", async () => {
    const emulator = await startEmulator({ clock: testClock(), service: { rules: "2025" } });
    try {
      const state = async () =>
        (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as {
          service: { rules: string; legacy_routes: boolean };
          batch_exports: Array<{ destination: { type: string } }>;
        };
      const first = await state();
      expect(first.service.rules).toBe("2025");
      // The older default seed still has the legacy S3 export with inline keys.
      expect(first.batch_exports.map((b) => b.destination.type)).toEqual(["S3", "Postgres"]);
      const post = (seed: unknown) =>
        fetch(`${emulator.url}/_emulator/seed`, { method: "POST", body: JSON.stringify(seed) });
      expect((await post({})).status).toBe(204);
      expect((await state()).service.rules).toBe("2025");
      expect((await post({ service: { rules: "newest", legacy_routes: false } })).status).toBe(204);
      expect((await state()).service).toMatchObject({ rules: "newest", legacy_routes: false });
      const bad = await post({ service: { rules: "old" } });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { detail: string }).detail).toBe(
        'seed: "service.rules" must be one of newest, 2025',
      );
    } finally {
      await emulator.close();
    }
    await expect(startEmulator({ service: { rules: "x" as "2025" } })).rejects.toThrow(
      'invalid service option: "service.rules" must be one of newest, 2025',
    );
  });
});

describe("legacy routes", () => {
  const org = `/api/organizations/${ACME_ID}`;

  it("are served by default, as SPEC §5 asks although the newest service removed them", async () => {
    expect((await h.api("GET", `${org}/batch_exports/`)).status).toBe(200);
    expect((await h.api("GET", `${org}/batch_exports/${S3_EXPORT_ID}/`)).status).toBe(200);
  });

  it("answer 404 like unknown routes once the seed drops them; the project routes stay", async () => {
    await h.reseed((s) => {
      s.service.legacy_routes = false;
    });
    const notFound = {
      type: "invalid_request",
      code: "not_found",
      detail: "Endpoint not found.",
      attr: null,
    };
    for (const [method, path] of [
      ["GET", `${org}/batch_exports/`],
      ["GET", `${org}/batch_exports/${S3_EXPORT_ID}/`],
      ["POST", `${org}/batch_exports/${S3_EXPORT_ID}/pause/`],
      ["GET", `${org}/batch_exports/${S3_EXPORT_ID}/logs/`],
      ["POST", `${P}/batch_exports/${S3_EXPORT_ID}/backfill/`],
    ] as const) {
      const res = await h.api(method, path, method === "POST" ? {} : undefined);
      expect([path, res.status, res.body]).toEqual([path, 404, notFound]);
      // Like any unknown route, before the key is looked at.
      expect((await h.api(method, path, undefined, { key: null })).status).toBe(404);
    }
    expect((await h.api("GET", `${P}/batch_exports/`)).status).toBe(200);
    // `status --organization` falls back to the organization's projects.
    const projects = await h.api("GET", `${org}/projects/`);
    expect(projects.status).toBe(200);
    expect(projects.body).toMatchObject({ count: 2, next: null, previous: null });
    expect(projects.body.results.map((p: { id: number }) => p.id)).toEqual([12345, 12346]);
  });
});
